/**
 * `toolgate hook install`'s merges on real files: comments, unrelated keys and other hooks survive; an older
 * Toolgate entry is replaced, never duplicated; a second install changes nothing; a file that cannot be
 * parsed is left alone. The configured command line is run through a real sh with the wrapper gone.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseJsonc } from "../../../src/core/jsonc";
import { CODEX_BEGIN, CODEX_END } from "../../../src/cli/hooks/codexToml";
import { applyPlan, planInstall, type InstallOptions } from "../../../src/cli/hooks/install";
import { ConfigEditError } from "../../../src/cli/hooks/jsoncHooks";
import type { AgentName } from "../../../src/cli/hooks/agentConfigs";
import { tempTree } from "../../support/workspace";

const trees: { cleanup(): void }[] = [];
afterAll(() => trees.forEach((t) => t.cleanup()));

function setup(files: Record<string, string> = {}) {
  const t = tempTree({ "cli/dist/cli.js": "// cli\n", "proj/.keep": "", ...files });
  trees.push(t);
  const env = { HOME: t.path("home"), PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const opts = (agent: AgentName, over: Partial<InstallOptions> = {}): InstallOptions => ({
    agent,
    scope: "project",
    dir: t.path("proj"),
    env,
    node: process.execPath,
    cli: t.path("cli/dist/cli.js"),
    hookArgs: [],
    ...over,
  });
  const install = (agent: AgentName, over: Partial<InstallOptions> = {}) => applyPlan(planInstall(opts(agent, over)));
  return { t, env, install, opts, read: (rel: string) => readFileSync(t.path(rel), "utf8") };
}

const wrapperOf = (home: string, agent: string) => path.join(home, ".local/share/toolgate/hooks", `${agent}.sh`);

describe("Claude Code settings", () => {
  const before = `{
  // the team's settings: keep this comment
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "echo audit" }, { "type": "command", "command": "toolgate hook claude-code" }] },
      /* an old install */
      { "matcher": "*", "hooks": [{ "type": "command", "command": "toolgate hook claude-code", "timeout": 5 }] }
    ],
    "PostToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "echo after" }] }]
  },
}
`;

  it("replaces the old Toolgate entries with one wrapper entry and keeps everything else", () => {
    const s = setup({ "proj/.claude/settings.json": before });
    s.install("claude-code");
    const text = s.read("proj/.claude/settings.json");
    expect(text).toContain("// the team's settings: keep this comment");
    expect(text).toContain("/* an old install */");
    const v = parseJsonc(text) as { model: string; hooks: Record<string, { matcher: string; hooks: object[] }[]> };
    expect(v.model).toBe("opus");
    expect(v.hooks.PostToolUse).toEqual([{ matcher: "*", hooks: [{ type: "command", command: "echo after" }] }]);
    const wrapper = wrapperOf(s.env.HOME, "claude-code");
    expect(v.hooks.PreToolUse).toEqual([
      { matcher: "Bash", hooks: [{ type: "command", command: "echo audit" }] },
      {
        matcher: "*",
        hooks: [{ type: "command", command: `'${wrapper}' || exit 2`, timeout: 30, onFailure: "block" }],
      },
    ]);
    expect(statSync(wrapper).mode & 0o777).toBe(0o755);
  });

  it("is idempotent: a second install writes nothing and the text is unchanged", () => {
    const s = setup({ "proj/.claude/settings.json": before });
    s.install("claude-code");
    const first = s.read("proj/.claude/settings.json");
    expect(s.install("claude-code")).toEqual([]);
    expect(s.read("proj/.claude/settings.json")).toBe(first);
  });

  it("leaves onFailure out for a Claude Code older than 2.1.295, and writes the user file with --user", () => {
    const s = setup();
    s.install("claude-code", { scope: "user", agentVersion: "2.1.200" });
    const v = parseJsonc(s.read("home/.claude/settings.json")) as { hooks: { PreToolUse: { hooks: object[] }[] } };
    expect(v.hooks.PreToolUse[0]?.hooks[0]).not.toHaveProperty("onFailure");
  });

  it("refuses to touch a file it cannot parse or whose hooks are not the expected shape", () => {
    for (const bad of ['{"hooks": ', '{"hooks": {"PreToolUse": {"matcher": "*"}}}', "[1]"]) {
      const s = setup({ "proj/.claude/settings.json": bad });
      expect(() => planInstall(s.opts("claude-code"))).toThrow(ConfigEditError);
      expect(s.read("proj/.claude/settings.json")).toBe(bad);
    }
  });

  it("the configured line blocks (exit 2 with a reason) when the wrapper is gone", () => {
    const s = setup();
    s.install("claude-code");
    const v = parseJsonc(s.read("proj/.claude/settings.json")) as {
      hooks: { PreToolUse: { hooks: { command: string }[] }[] };
    };
    rmSync(wrapperOf(s.env.HOME, "claude-code"));
    const r = spawnSync("/bin/sh", ["-c", v.hooks.PreToolUse[0]?.hooks[0]?.command ?? ""], {
      input: "{}",
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/claude-code\.sh/);
  });
});

describe("Gemini CLI settings", () => {
  it("adds a named BeforeTool hook with a timeout in ms, keeping the others, idempotently", () => {
    const s = setup({
      "proj/.gemini/settings.json": `{ "general": { "vimMode": true }, "hooks": { "BeforeTool": [{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "lint" }] }] } }`,
    });
    s.install("gemini-cli", { hookArgs: ["--headless"] });
    const text = s.read("proj/.gemini/settings.json");
    const v = parseJsonc(text) as { general: object; hooks: { BeforeTool: { matcher: string; hooks: object[] }[] } };
    expect(v.general).toEqual({ vimMode: true });
    expect(v.hooks.BeforeTool).toHaveLength(2);
    expect(v.hooks.BeforeTool[1]).toEqual({
      matcher: "*",
      hooks: [
        {
          name: "toolgate",
          type: "command",
          command: `'${wrapperOf(s.env.HOME, "gemini-cli")}' || exit 2`,
          timeout: 30000,
          description: "Toolgate",
        },
      ],
    });
    expect(s.read("home/.local/share/toolgate/hooks/gemini-cli.sh")).toContain(`'hook' 'gemini-cli' '--headless'`);
    expect(s.install("gemini-cli", { hookArgs: ["--headless"] })).toEqual([]);
    expect(s.read("proj/.gemini/settings.json")).toBe(text);
  });
});

describe("Codex config.toml", () => {
  const before = `model = "o4"\n\n[features]\nweb_search = true\n`;

  it("appends one marked block, and a reinstall replaces only that block", () => {
    const s = setup({ "home/.codex/config.toml": before });
    s.install("codex", { scope: "user" });
    const first = s.read("home/.codex/config.toml");
    expect(first.startsWith(before)).toBe(true);
    const block = first.slice(before.length);
    expect(block).toBe(
      `\n${CODEX_BEGIN}\n[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = ${JSON.stringify(
        `'${wrapperOf(s.env.HOME, "codex")}' || exit 2`,
      )}\ntimeout = 30\n${CODEX_END}\n`,
    );
    writeFileSync(s.t.path("home/.codex/config.toml"), first + '\n[mcp_servers.x]\ncommand = "y"\n');
    const edited = s.read("home/.codex/config.toml");
    expect(s.install("codex", { scope: "user" })).toEqual([]);
    expect(s.read("home/.codex/config.toml")).toBe(edited);
    // A changed block (another timeout, by hand) is put back, the rest untouched.
    writeFileSync(s.t.path("home/.codex/config.toml"), edited.replace("timeout = 30", "timeout = 5"));
    s.install("codex", { scope: "user" });
    expect(s.read("home/.codex/config.toml")).toBe(edited);
  });

  it("leaves a file with unbalanced markers alone", () => {
    const broken = `${CODEX_BEGIN}\n[[hooks.PreToolUse]]\n`;
    const s = setup({ "home/.codex/config.toml": broken });
    expect(() => planInstall(s.opts("codex", { scope: "user" }))).toThrow(/unbalanced/);
    expect(s.read("home/.codex/config.toml")).toBe(broken);
  });
});

describe("Cline hook file", () => {
  it("writes an executable PreToolUse that cancels by itself when the wrapper is gone", () => {
    const s = setup();
    s.install("cline");
    const file = s.t.path("proj/.clinerules/hooks/PreToolUse");
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(s.install("cline")).toEqual([]);
    rmSync(wrapperOf(s.env.HOME, "cline"));
    const r = spawnSync(file, [], { input: "{}", encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      cancel: true,
      errorMessage: expect.stringMatching(/^Toolgate: the hook wrapper is missing/),
    });
  });

  it("never overwrites a PreToolUse hook that is not Toolgate's", () => {
    const s = setup({ "proj/.clinerules/hooks/PreToolUse": "#!/bin/sh\necho '{}'\n" });
    expect(() => planInstall(s.opts("cline"))).toThrow(/not Toolgate's/);
  });

  it("the user scope writes into ~/Documents/Cline/Hooks", () => {
    const s = setup();
    s.install("cline", { scope: "user" });
    expect(s.read("home/Documents/Cline/Hooks/PreToolUse")).toContain("(toolgate-hook-file)");
  });
});

describe("Cursor hooks.json (from Cursor's documentation)", () => {
  it("adds one entry per event and a version, keeping other entries, idempotently", () => {
    const s = setup({
      "proj/.cursor/hooks.json": `{ "version": 1, "hooks": { "beforeShellExecution": [{ "command": "./audit.sh" }, { "command": "toolgate hook cursor" }] } }`,
    });
    s.install("cursor");
    const text = s.read("proj/.cursor/hooks.json");
    const v = parseJsonc(text) as { version: number; hooks: Record<string, { command: string }[]> };
    expect(v.version).toBe(1);
    expect(v.hooks.beforeShellExecution?.map((h) => h.command)[0]).toBe("./audit.sh");
    for (const event of ["beforeShellExecution", "beforeReadFile", "beforeMCPExecution", "preToolUse"]) {
      const ours = v.hooks[event]?.filter((h) => h.command.includes("toolgate"));
      expect(ours).toHaveLength(1);
      expect(ours?.[0]?.command).toContain(wrapperOf(s.env.HOME, "cursor"));
    }
    expect(s.install("cursor")).toEqual([]);
  });

  it("leaves one Toolgate entry where there were several, in the first one's place", () => {
    const s = setup({
      "proj/.cursor/hooks.json": `{ "version": 1, "hooks": { "beforeReadFile": [{ "command": "toolgate hook cursor" }, { "command": "./audit.sh" }, { "command": "toolgate hook cursor --old" }] } }`,
    });
    s.install("cursor");
    const v = parseJsonc(s.read("proj/.cursor/hooks.json")) as { hooks: Record<string, { command: string }[]> };
    const commands = v.hooks.beforeReadFile?.map((h) => h.command) ?? [];
    expect(commands).toHaveLength(2);
    expect(commands[0]).toContain(wrapperOf(s.env.HOME, "cursor"));
    expect(commands[1]).toBe("./audit.sh");
  });
});
