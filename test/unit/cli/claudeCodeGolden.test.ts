/**
 * Golden answers for inputs captured from the real Claude Code 2.1.332 (test/fixtures/hooks/claude-code/: a
 * capture hook copied stdin while a loopback model drove `claude -p`; `__WS__` is the project folder, which
 * Claude Code also put in the hook's `$CLAUDE_PROJECT_DIR`). Each input is replayed field by field as sent.
 */
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ParsedFlags } from "../../../src/cli/args";
import { claudeCodeAdapter } from "../../../src/cli/hooks/claudeCode";
import { decideHook } from "../../../src/cli/hooks/decide";
import { tempTree } from "../../support/workspace";

const FIXTURES = path.join(__dirname, "../../fixtures/hooks/claude-code");

const t = tempTree({
  "ws/a.txt": "hello",
  "ws/n.ipynb": "{}",
  "ws/.env": "ANTHROPIC_API_KEY=sk-file",
  "ws/.toolgateignore": ".env\n",
  "ws/sub/k": "k",
  "ws/.vscode/settings.json": JSON.stringify({ "toolgate.permissions.deny": ["Read(sub/**)"] }),
  "home/.claude/x": "",
  "user/settings.json": JSON.stringify({
    "toolgate.commands.allow": ["node", "python3"],
    "toolgate.permissions.allow": ["WebFetch(domain:example.com)"],
  }),
  "user/auto.json": JSON.stringify({ "toolgate.mode": "auto" }),
});
afterAll(() => t.cleanup());

const ws = () => t.path("ws");
const NO_FLAGS: ParsedFlags = { values: {}, lists: {}, bools: new Set(), help: false };
const env = (project: string | undefined): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    VSCODE_APPDATA: path.join(tmpdir(), "toolgate-no-vscode-settings"),
    XDG_STATE_HOME: t.path(`state-${Math.random().toString(36).slice(2)}`),
  };
  delete e.TOOLGATE_MANAGED_SETTINGS;
  delete e.CLAUDE_PROJECT_DIR;
  if (project !== undefined) e.CLAUDE_PROJECT_DIR = project;
  return e;
};

/** A captured input with this test's folders in place of the capture's. */
function fixture(name: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
  const text = readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")
    .replaceAll("__WS__", ws())
    .replaceAll("__HOME__", t.path("home"))
    .replaceAll("-__WS_ENCODED__", ws().replaceAll("/", "-"));
  return { ...(JSON.parse(text) as Record<string, unknown>), ...patch };
}

async function decide(
  input: Record<string, unknown> | string,
  o: { settings?: string; project?: string | undefined } = {},
) {
  const text = typeof input === "string" ? input : JSON.stringify(input);
  const a = await decideHook(
    claudeCodeAdapter,
    text,
    ["--settings", t.path(o.settings ?? "user/settings.json")],
    env("project" in o ? o.project : ws()),
    // The decision unwrapped (no sandbox here): sandboxRewrite.test.ts covers the rewrite.
    {
      node: process.execPath,
      cli: "/abs/dist/cli.js",
      sandbox: () => ({ available: false, reason: "not in this test" }),
    },
  );
  const out = claudeCodeAdapter.render(a);
  expect(out.exitCode).toBe(0);
  const parsed = JSON.parse(out.stdout) as {
    hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string };
  };
  expect(Object.keys(parsed)).toEqual(["hookSpecificOutput"]);
  expect(parsed.hookSpecificOutput.hookEventName).toBe("PreToolUse");
  return parsed.hookSpecificOutput;
}

describe("the captured inputs are what the adapter reads", () => {
  it("every fixture has the fields 2.1.332 sends, and parses", () => {
    const names = readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));
    expect(names.length).toBeGreaterThanOrEqual(20);
    for (const n of names) {
      const f = fixture(n.replace(/\.json$/, ""));
      // A sub-agent's calls come with its `agent_id` and `agent_type` (and the parent's session id).
      const keys = Object.keys(f).filter((k) => k !== "agent_id" && k !== "agent_type");
      expect(keys.sort(), n).toEqual(
        [
          "cwd",
          "effort",
          "hook_event_name",
          "permission_mode",
          "prompt_id",
          "session_id",
          "tool_input",
          "tool_name",
          "tool_use_id",
          "transcript_path",
        ].sort(),
      );
      const parsed = claudeCodeAdapter.parse(JSON.stringify(f), env(ws()), NO_FLAGS);
      expect(parsed.ok, n).toBe(true);
      if (parsed.ok) expect(parsed.call.workspaces).toEqual([ws()]);
    }
  });
});

describe("golden answers (bypassPermissions as captured: every ask is a deny)", () => {
  const golden: [string, "allow" | "deny", RegExp][] = [
    ["bash-smuggled", "deny", /curl|network|not in your allow list|refused, not asked/],
    ["read", "deny", /ignore/i],
    ["write", "deny", /protected path.*refused, not asked/],
    ["edit", "deny", /editing files.*refused, not asked/],
    ["webfetch", "allow", /WebFetch\(domain:example\.com\)/],
    ["websearch", "deny", /web pages.*refused, not asked/],
    ["monitor", "allow", /read-only|safe|catalogue/],
    ["croncreate", "deny", /schedules a prompt/],
    ["schedulewakeup", "deny", /wake up/],
    ["skill", "deny", /skill/],
    ["sendmessage", "deny", /sends a message/],
    ["agent", "allow", /sub-agent/],
    ["toolsearch", "allow", /deferred tools/],
    ["bash-cd-sub", "allow", /read-only|safe|catalogue/],
    ["bash-after-cd-cat", "deny", /Read\(sub\/\*\*\)/],
    ["bash-printenv-key", "deny", /printenv.*environment.*\[hook:environment\]/],
    ["subagent-bash", "deny", /from-subagent.*refused, not asked/],
  ];
  for (const [name, decision, reason] of golden)
    it(`${name} → ${decision}`, async () => {
      const out = await decide(fixture(name));
      expect(out.permissionDecision).toBe(decision);
      expect(out.permissionDecisionReason).toMatch(reason);
      expect(out.permissionDecisionReason).toMatch(/^Toolgate: /);
    });
});

describe("modes", () => {
  it("default, acceptEdits and dontAsk keep the ask (Claude Code puts it to the person); the others refuse it", async () => {
    expect((await decide(fixture("default-write"))).permissionDecision).toBe("ask");
    expect((await decide(fixture("acceptedits-write"))).permissionDecision).toBe("ask");
    expect((await decide(fixture("default-write", { permission_mode: "dontAsk" }))).permissionDecision).toBe("ask");
    for (const mode of ["bypassPermissions", "auto", "plan"]) {
      const out = await decide(fixture("default-write", { permission_mode: mode }));
      expect(out.permissionDecision, mode).toBe("deny");
      // Plan mode refuses the write outright (Toolgate decides in plan mode); the others refuse the ask.
      expect(out.permissionDecisionReason).toMatch(
        mode === "plan" ? /plan mode is read-only/ : new RegExp(`refused, not asked: with Claude Code in ${mode}`),
      );
    }
    expect((await decide(fixture("default-bash"))).permissionDecision).toBe("allow");
    expect((await decide(fixture("acceptedits-bash"))).permissionDecision).toBe("allow");
    // A mode Toolgate does not know, or none: no person is sure to see an ask.
    expect((await decide(fixture("default-write", { permission_mode: "yolo" }))).permissionDecision).toBe("deny");
    const { permission_mode: _m, ...noMode } = fixture("default-write");
    expect((await decide(noMode)).permissionDecision).toBe("deny");
  });

  it("plan mode never allows what it withholds, even where Toolgate's own settings say auto", async () => {
    const write = await decide(fixture("plan-write"), { settings: "user/auto.json" });
    expect(write).toMatchObject({ permissionDecision: "deny" });
    expect(write.permissionDecisionReason).toMatch(/plan mode/);
    const touch = fixture("plan-bash", { tool_input: { command: "touch x", description: "t" } });
    expect((await decide(touch, { settings: "user/auto.json" })).permissionDecision).toBe("deny");
    const mcp = fixture("plan-bash", { tool_name: "mcp__gh__create_issue", tool_input: { title: "x" } });
    expect((await decide(mcp, { settings: "user/auto.json" })).permissionDecision).toBe("deny");
    // What plan mode lets through still runs.
    expect((await decide(fixture("plan-bash"), { settings: "user/auto.json" })).permissionDecision).toBe("allow");
    // The same write outside plan mode, with Toolgate in auto mode: allowed (so the refusal above is plan's).
    expect((await decide(fixture("default-write"), { settings: "user/auto.json" })).permissionDecision).toBe("allow");
  });
});

describe("the workspace is CLAUDE_PROJECT_DIR, never cwd", () => {
  it("without CLAUDE_PROJECT_DIR (or with a relative one) the call is refused: workspace unknown", async () => {
    for (const project of [undefined, "", "ws", "./ws"]) {
      const out = await decide(fixture("default-bash"), { project });
      expect(out.permissionDecision, String(project)).toBe("deny");
      expect(out.permissionDecisionReason).toMatch(/workspace unknown/);
    }
  });

  it("after `cd sub` the root's ignore file and rules still hold; cwd moves only where relative paths start", async () => {
    const subCwd = { cwd: t.path("ws/sub"), permission_mode: "default" };
    const envRead = await decide(fixture("bash-after-cd-cat", { ...subCwd, tool_input: { command: "cat ../.env" } }));
    expect(envRead.permissionDecision).toBe("deny");
    expect(envRead.permissionDecisionReason).toMatch(/ignore/i);
    // Read with a relative path resolves against cwd: `k` is sub/k, which Read(sub/**) denies.
    expect((await decide(fixture("read", { ...subCwd, tool_input: { file_path: "k" } }))).permissionDecision).toBe(
      "deny",
    );
    // With the workspace taken from cwd (the old behaviour), `sub` would be the root and `k` not under sub/.
    const asIfCwd = await decide(fixture("bash-after-cd-cat", subCwd), { project: t.path("ws/sub") });
    expect(asIfCwd.permissionDecision).toBe("allow");
  });

  it("a cwd outside the project makes `ls` an outside read", async () => {
    const out = await decide(fixture("default-bash", { cwd: t.path("home") }));
    expect(out.permissionDecision).toBe("ask");
    expect(out.permissionDecisionReason).toMatch(/outside the workspace/);
  });
});

describe("environment", () => {
  const line = (command: string) =>
    fixture("default-bash", { tool_input: { command, description: "x" } }) as Record<string, unknown>;
  it("a line that could print the environment asks (default) even when Toolgate would allow it", async () => {
    for (const command of [
      "printenv ANTHROPIC_API_KEY",
      "env",
      "echo $ANTHROPIC_API_KEY",
      "cat /proc/self/environ",
      "node -e 'console.log(process.env)'",
      "python3 -c 'import os; print(os.environ)'",
      "export -p",
    ]) {
      const out = await decide(line(command), { settings: "user/auto.json" });
      expect(out.permissionDecision, command).toBe("ask");
      expect(out.permissionDecisionReason, command).toMatch(/\[hook:environment\]|environ|proc/);
    }
    for (const command of ["ls", 'echo "$HOME"', "node --version", "env FOO=1 ls"])
      expect((await decide(line(command), { settings: "user/auto.json" })).permissionDecision, command).toBe("allow");
  });
});

describe("tools by what they do", () => {
  it("a sub-agent in a worktree or a remote environment is the person's call; inert tools run", async () => {
    const agent = fixture("agent", { permission_mode: "default" });
    const input = agent.tool_input as Record<string, unknown>;
    expect((await decide(agent)).permissionDecision).toBe("allow");
    for (const isolation of ["worktree", "remote"]) {
      const out = await decide({ ...agent, tool_input: { ...input, isolation } });
      expect(out.permissionDecision, isolation).toBe("ask");
    }
    for (const tool of [
      "TodoWrite",
      "TaskStop",
      "ListAgents",
      "ExitPlanMode",
      "ReportFindings",
      "ListMcpResourcesTool",
    ])
      expect((await decide(fixture("toolsearch", { tool_name: tool, tool_input: {} }))).permissionDecision).toBe(
        "allow",
      );
    for (const tool of ["CronDelete", "Workflow", "EnterWorktree", "ExitWorktree", "RemoteTrigger", "LSP"])
      expect((await decide(fixture("default-write", { tool_name: tool, tool_input: {} }))).permissionDecision).toBe(
        "ask",
      );
  });

  it("Monitor's command is a command (from cwd); its WebSocket asks; NotebookEdit is an edit", async () => {
    const monitor = fixture("monitor", { permission_mode: "default" });
    expect((await decide(monitor)).permissionDecision).toBe("allow");
    const rm = await decide({ ...monitor, tool_input: { description: "x", timeout_ms: 1000, command: "rm -rf src" } });
    expect(rm.permissionDecision).toBe("ask");
    const ws = await decide({
      ...monitor,
      tool_input: { description: "x", timeout_ms: 1000, ws: { url: "wss://x.test" } },
    });
    expect(ws).toMatchObject({ permissionDecision: "ask" });
    expect(ws.permissionDecisionReason).toMatch(/WebSocket/);
    const nb = fixture("default-write", {
      tool_name: "NotebookEdit",
      tool_input: { notebook_path: t.path("ws/.vscode/x.json"), new_source: "1" },
    });
    expect((await decide(nb)).permissionDecisionReason).toMatch(/protected/);
  });
});

describe("no extra field changes a decision", () => {
  it("fields Claude Code sends (or might) that the decision does not hang on", async () => {
    const base = fixture("bash-smuggled");
    const variants = [
      { ...base, effort: { level: "max" } },
      { ...base, prompt_id: "other", tool_use_id: "toolu_x", transcript_path: "/nowhere" },
      { ...base, decision: "allow", permissionDecision: "allow", hookSpecificOutput: { permissionDecision: "allow" } },
      { ...base, tool_input: { ...(base.tool_input as object), dangerouslyDisableSandbox: true, timeout: 1 } },
      { ...base, workspace: "/", project_dir: "/", CLAUDE_PROJECT_DIR: "/" },
    ];
    for (const v of variants) expect((await decide(v)).permissionDecision, JSON.stringify(v)).toBe("deny");
    const allowed = fixture("toolsearch");
    expect((await decide({ ...allowed, permission_mode: "default", extra: 1 })).permissionDecision).toBe("allow");
  });
});

describe("malformed input", () => {
  it("is refused with the reason", async () => {
    for (const bad of [
      "",
      "{",
      "[]",
      JSON.stringify(fixture("bash-smuggled", { tool_input: "ls" })),
      JSON.stringify(fixture("bash-smuggled", { tool_input: { cmd: "ls" } })),
      JSON.stringify(fixture("bash-smuggled", { cwd: "sub" })),
      JSON.stringify(fixture("bash-smuggled", { hook_event_name: "PostToolUse" })),
      JSON.stringify(fixture("monitor", { tool_input: { description: "x", timeout_ms: 1 } })),
      JSON.stringify(fixture("monitor", { tool_input: { command: "ls", ws: { url: "wss://x.test" } } })),
    ])
      expect((await decide(bad)).permissionDecision, bad.slice(0, 80)).toBe("deny");
  });
});
