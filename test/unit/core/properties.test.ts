import fc from "fast-check";
import { existsSync, realpathSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Gate } from "../../../src/core/gate";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import { WorkspacePaths } from "../../../src/core/paths";
import { DEFAULT_SETTINGS, parseSettings, type ToolgateSettings } from "../../../src/core/settingsModel";
import type { Decision } from "../../../src/core/types";
import { tempTree } from "../../support/workspace";

const t = tempTree(
  { "ws/src/a.ts": "a", "ws/.env": "s", "ws/lib/b.js": "b", "other/o.txt": "o", "ws2/c.ts": "c" },
  { "ws/out": "other", "ws/in": "ws/src" },
);
afterAll(() => t.cleanup());
const roots = [t.path("ws"), t.path("ws2")];
const ignore = IgnoreRules.fromContents(".toolgateignore", [".env\nlib/\n", undefined]);

const rank = (d: Decision) => ({ deny: 0, ask: 1, allow: 2 })[d.decision];

const pathArb = fc.constantFrom(
  "src/a.ts",
  ".env",
  "lib/b.js",
  "out/o.txt",
  "in/a.ts",
  "../other/o.txt",
  "/etc/passwd",
  "~/.bashrc",
  ".git/config",
  ".vscode/settings.json",
  "new/file.ts",
  t.path("ws2/c.ts"),
);
const callArb = fc.oneof(
  fc.record({
    tool: fc.constantFrom("read_file", "list_files", "search_files"),
    params: fc.record({ path: pathArb, regex: fc.constant("x") }),
  }),
  fc.record({
    tool: fc.constantFrom("write_to_file", "replace_in_file"),
    params: fc.record({ path: pathArb, content: fc.constant("x"), diff: fc.constant("d") }),
  }),
  fc.record({
    tool: fc.constant("execute_command"),
    params: fc.record({
      command: fc.constantFrom("ls", "git status", "npm test", "rm -rf x", "ls; curl x", "cat .env"),
    }),
  }),
  fc.record({
    tool: fc.constant("use_mcp_tool"),
    params: fc.record({ server_name: fc.constant("ev"), tool_name: fc.constantFrom("echo", "add") }),
  }),
  fc.record({
    tool: fc.constant("web_fetch"),
    params: fc.record({ url: fc.constantFrom("https://a.test/x", "https://b.test/") }),
  }),
);
const ruleArb = fc.constantFrom(
  "Read",
  "Read(src/**)",
  "Edit(src/**)",
  "Edit",
  "Bash(npm test)",
  "Bash(ls)",
  "Bash",
  "mcp__ev__echo",
  "mcp__ev",
  "WebFetch(domain:a.test)",
  "read_file(**/*.ts)",
  "Write(new/**)",
);
const settingsArb: fc.Arbitrary<ToolgateSettings> = fc
  .record({
    mode: fc.constantFrom("normal", "plan", "auto") as fc.Arbitrary<ToolgateSettings["mode"]>,
    enabled: fc.boolean(),
    all: fc.boolean(),
    actions: fc.record({
      readFiles: fc.boolean(),
      readFilesExternally: fc.boolean(),
      editFiles: fc.boolean(),
      editFilesExternally: fc.boolean(),
      executeSafeCommands: fc.boolean(),
      executeInSandbox: fc.boolean(),
      executeAllCommands: fc.boolean(),
      useMcp: fc.boolean(),
      webFetch: fc.boolean(),
    }),
    allow: fc.array(ruleArb, { maxLength: 4 }),
    ask: fc.array(ruleArb, { maxLength: 2 }),
    deny: fc.array(ruleArb, { maxLength: 2 }),
    cmdAllow: fc.array(fc.constantFrom("ls", "git status", "npm test", "cat", "curl"), { maxLength: 3 }),
    cmdDeny: fc.array(fc.constantFrom("rm", "curl"), { maxLength: 1 }),
  })
  .map((r) => ({
    ...DEFAULT_SETTINGS,
    mode: r.mode,
    autoApprove: { ...DEFAULT_SETTINGS.autoApprove, enabled: r.enabled, all: r.all, actions: r.actions },
    commands: { allow: r.cmdAllow, deny: r.cmdDeny },
    permissions: { allow: r.allow, ask: r.ask, deny: r.deny },
    mcpServers: { ev: { command: "node", alwaysAllow: ["echo"], disabled: false, disabledTools: [] } },
  }));

async function decideAll(
  settings: ToolgateSettings,
  calls: readonly { tool: string; params: Record<string, unknown> }[],
): Promise<Decision[]> {
  const gate = await Gate.create({ settings, roots, ignore });
  return calls.map((c) => gate.decide(c));
}

describe("properties of the gate", () => {
  it("adding a deny rule or a denied command never makes a decision more permissive", async () => {
    await fc.assert(
      fc.asyncProperty(
        settingsArb,
        fc.array(callArb, { minLength: 1, maxLength: 6 }),
        ruleArb,
        fc.constantFrom("rm", "ls", "git", "cat"),
        async (s, calls, extraRule, extraCmd) => {
          const before = await decideAll(s, calls);
          const tighter = await decideAll(
            {
              ...s,
              permissions: { ...s.permissions, deny: [...s.permissions.deny, extraRule] },
              commands: { ...s.commands, deny: [...s.commands.deny, extraCmd] },
            },
            calls,
          );
          before.forEach((d, i) =>
            expect(rank(tighter[i]!), `${JSON.stringify(calls[i])}`).toBeLessThanOrEqual(rank(d)),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("removing an allow rule or an allowed command never makes a decision more permissive", async () => {
    await fc.assert(
      fc.asyncProperty(
        settingsArb,
        fc.array(callArb, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        async (s, calls, n) => {
          const before = await decideAll(s, calls);
          const allow = s.permissions.allow.filter((_, i) => i !== n % Math.max(1, s.permissions.allow.length));
          const cmdAllow = s.commands.allow.filter((_, i) => i !== n % Math.max(1, s.commands.allow.length));
          const after = await decideAll(
            { ...s, permissions: { ...s.permissions, allow }, commands: { ...s.commands, allow: cmdAllow } },
            calls,
          );
          before.forEach((d, i) => expect(rank(after[i]!)).toBeLessThanOrEqual(rank(d)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("random path strings never count as local unless their realpath is inside a root", () => {
    const paths = new WorkspacePaths(roots);
    const segment = fc.constantFrom("..", ".", "src", "out", "in", "a.ts", "o.txt", "x", "~", "", "ws2", "..foo");
    const pathString = fc.oneof(
      fc.string(),
      fc.array(segment, { maxLength: 6 }).map((s) => s.join("/")),
      fc.array(segment, { maxLength: 6 }).map((s) => "/" + s.join("/")),
    );
    // Only strings that resolve to a root reach the assertion: at least a floor of them must (see below).
    let reached = 0;
    fc.assert(
      fc.property(pathString, (p) => {
        const r = paths.resolve(p);
        if (!r.ok || !r.path.realRoot) return;
        reached++;
        let existing = r.path.lexical;
        while (!existing || !existsSync(existing)) existing = path.dirname(existing);
        const real = realpathSync(existing);
        const inside = roots.some((root) => real === root || real.startsWith(root + path.sep));
        expect(inside, `${p} → ${real}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(reached).toBeGreaterThanOrEqual(500);
  });

  it("malformed settings never parse into a looser configuration", () => {
    let reached = 0;
    const wrong = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.integer(), { minLength: 1 }),
      fc.dictionary(fc.string(), fc.integer(), { minKeys: 1 }),
    );
    const key = fc.constantFrom(
      "toolgate.mode",
      "toolgate.autoApprove.enabled",
      "toolgate.autoApprove.all",
      "toolgate.autoApprove.actions",
      "toolgate.autoApprove.maxRequests",
      "toolgate.commands.allow",
      "toolgate.commands.deny",
      "toolgate.permissions.deny",
      "toolgate.mcpServers",
    );
    fc.assert(
      fc.property(key, wrong, (k, v) => {
        const valid =
          (k === "toolgate.mode" && (v === "normal" || v === "plan" || v === "auto")) ||
          (k === "toolgate.autoApprove.maxRequests" && typeof v === "number" && v >= 0) ||
          (k === "toolgate.mcpServers" &&
            typeof v === "object" &&
            v !== null &&
            !Array.isArray(v) &&
            Object.keys(v).length === 0);
        fc.pre(!valid);
        reached++;
        expect(parseSettings({ [k]: v }).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
    // fast-check counts only runs fc.pre let through (and fails on too many skips): all 500 reached it.
    expect(reached).toBe(500);
  });

  it("settings errors never allow what a valid configuration would not", async () => {
    await fc.assert(
      fc.asyncProperty(settingsArb, fc.array(callArb, { minLength: 1, maxLength: 5 }), async (s, calls) => {
        const gate = await Gate.create({ settings: s, roots, ignore, settingsErrors: ["bad value"] });
        const clean = await decideAll(s, calls);
        calls.forEach((c, i) => {
          const d = gate.decide(c);
          expect(d.decision).not.toBe("allow");
          expect(rank(d)).toBeLessThanOrEqual(rank(clean[i]!));
        });
      }),
      { numRuns: 100 },
    );
  });
});
