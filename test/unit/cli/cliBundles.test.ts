/**
 * The CLI as dist/ ships it: an entry with the command table, one bundle per command and the command analyzer
 * in a bundle of its own (esbuild.mjs). Built with the real build script into a temp folder, run as a person's
 * `toolgate` runs. What a person relies on: a hook answers a file read without the analyzer (so it never pays
 * for the grammar), answers a command with it, refuses (exit 0, deny) when its own bundle or the analyzer
 * cannot be loaded, and usage errors thrown in a command bundle still exit 2.
 */
import { spawnSync } from "node:child_process";
import { renameSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { splitCliBuild } from "../../support/cliBuild";

const { out, t } = splitCliBuild();

const env = {
  ...process.env,
  HOME: t.path("home"),
  XDG_CONFIG_HOME: t.path("home"),
  XDG_STATE_HOME: t.path("home"),
  CLAUDE_PROJECT_DIR: t.path("ws"),
};
const run = (args: readonly string[], input = "") =>
  spawnSync(process.execPath, [path.join(out, "cli.js"), ...args], { input, env, encoding: "utf8" });

const hookInput = (tool_name: string, tool_input: Record<string, unknown>) =>
  JSON.stringify({
    session_id: "s1",
    transcript_path: t.path("t.jsonl"),
    cwd: t.path("ws"),
    hook_event_name: "PreToolUse",
    tool_name,
    tool_input,
  });
const decision = (stdout: string) =>
  (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } })
    .hookSpecificOutput;

/** Runs `f` with one bundle of the build moved away (a damaged install), then puts it back. */
function without<T>(file: string, f: () => T): T {
  const abs = path.join(out, file);
  renameSync(abs, abs + ".away");
  try {
    return f();
  } finally {
    renameSync(abs + ".away", abs);
  }
}

describe("the CLI's bundles", () => {
  it("a hook answers a read without the command analyzer, and a command with it", () => {
    const read = without("cli-analyzer.js", () =>
      run(["hook", "claude-code"], hookInput("Read", { file_path: t.path("ws/src/a.ts") })),
    );
    expect(read.status).toBe(0);
    expect(decision(read.stdout).permissionDecision).toBe("allow");
    const bash = run(["hook", "claude-code"], hookInput("Bash", { command: "ls src && git status" }));
    expect(bash.status).toBe(0);
    expect(decision(bash.stdout)).toMatchObject({ permissionDecision: "allow" });
    expect(decision(bash.stdout).permissionDecisionReason).toMatch(/catalogue: ls/);
  });

  it("a hook whose analyzer or own bundle cannot be loaded refuses: deny on stdout, exit 0", () => {
    const bash = without("cli-analyzer.js", () => run(["hook", "claude-code"], hookInput("Bash", { command: "ls" })));
    expect(bash.status).toBe(0);
    expect(decision(bash.stdout).permissionDecision).toBe("deny");
    const hook = without("cli-hook.js", () => run(["hook", "claude-code"], hookInput("Read", { file_path: "a" })));
    expect(hook.status).toBe(0);
    expect(decision(hook.stdout)).toMatchObject({ permissionDecision: "deny" });
    expect(decision(hook.stdout).permissionDecisionReason).toMatch(/could not be loaded/);
  });

  it("`check` decides commands through the analyzer bundle; its usage errors exit 2; --help loads no command", () => {
    const check = run(
      ["check", "--workspace", t.path("ws")],
      '{"id":1,"tool":"execute_command","params":{"command":"ls"}}\n',
    );
    expect(check.status, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ id: 1, decision: "allow" });
    const bad = run(["check", "--no-such-flag"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/usage: toolgate check/);
    const help = without("cli-check.js", () => without("cli-hook.js", () => run(["--help"])));
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/hook +Claude Code PreToolUse hook/);
  });

  it("`sandbox --status` needs neither the gate's analyzer nor the hook", () => {
    const status = without("cli-analyzer.js", () => without("cli-hook.js", () => run(["sandbox", "--status"])));
    expect(status.status, status.stderr).toBe(0);
    expect(Object.keys(JSON.parse(status.stdout) as object).sort()).toEqual(["available", "mechanism", "reason"]);
  });
});
