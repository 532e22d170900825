/**
 * The seam from Claude Code's hook to the second layer: the real CLI answers a hook input with a rewritten
 * `Bash` input, real bash runs that line as Claude Code would, and real bubblewrap confines it. Each harm is also
 * run without the rewrite, to show it does happen there (so these tests can fail).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../../support/cli";
import { sandboxDescribe } from "../../support/sandboxRequired";
import { tempTree } from "../../support/workspace";
import { probe, varTmpDir } from "./sandboxHarness";

const t = tempTree({ "ws/a.txt": "hello\n", "home/.keep": "" });
const outside = varTmpDir("toolgate-hook-outside-");
const KEY = "sk-ant-seam-secret-0123456789";
let cli = "";
beforeAll(async () => {
  cli = await buildCli();
});
afterAll(() => {
  t.cleanup();
  outside.cleanup();
});

const ws = () => t.path("ws");
const log = () => t.path("sandbox-log.jsonl");

function settings(name: string, value: Record<string, unknown>): string {
  const file = t.path(`${name}.json`);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** The environment Claude Code gives its hooks and its Bash tool (HOME a temp dir, the key, the version). */
function agentEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: t.path("home"),
    ANTHROPIC_API_KEY: KEY,
    AI_AGENT: "claude-code_2-1-332_harness",
    CLAUDE_PROJECT_DIR: ws(),
    XDG_STATE_HOME: t.path("state"),
    VSCODE_APPDATA: t.path("no-vscode"),
    TOOLGATE_SANDBOX_LOG: log(),
  };
}

interface HookOut {
  readonly permissionDecision: string;
  readonly permissionDecisionReason: string;
  readonly updatedInput?: { readonly command: string };
}

function hook(command: string, settingsFile: string): HookOut {
  const input = {
    session_id: "seam",
    transcript_path: "/tmp/t.jsonl",
    cwd: ws(),
    permission_mode: "bypassPermissions",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "d" },
  };
  const r = spawnSync(process.execPath, [cli, "hook", "claude-code", "--settings", settingsFile], {
    input: JSON.stringify(input),
    encoding: "utf8",
    env: agentEnv(),
  });
  expect(r.status).toBe(0);
  return (JSON.parse(r.stdout) as { hookSpecificOutput: HookOut }).hookSpecificOutput;
}

/** What Claude Code's Bash tool does with a command: bash runs it in the agent's directory. */
function bash(line: string, env: NodeJS.ProcessEnv = agentEnv()) {
  return spawnSync("/bin/bash", ["-c", line], { cwd: ws(), encoding: "utf8", env, timeout: 60_000 });
}

function logLines(): Record<string, unknown>[] {
  if (!existsSync(log())) return [];
  return readFileSync(log(), "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function rewritten(command: string, settingsFile: string): string {
  const out = hook(command, settingsFile);
  expect(out.permissionDecision, out.permissionDecisionReason).toBe("allow");
  expect(out.updatedInput?.command).toBeDefined();
  return out.updatedInput!.command;
}

sandboxDescribe(probe)("Claude Code's hook → rewritten Bash → real bash → real bubblewrap", () => {
  const plain = () => settings("plain", {});
  const auto = () => settings("auto", { "toolgate.mode": "auto" });

  it("an allowed read-only line runs in the sandbox, says so in the log, and its output reaches the agent", () => {
    rmSync(log(), { force: true });
    const line = rewritten("ls", plain());
    const r = bash(line);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("a.txt");
    expect(logLines()).toEqual([
      { agent: "claude-code", tool: "Bash", grant: { kind: "read-only", hosts: [] }, cwd: ws(), line: "ls" },
    ]);
  });

  it("a harmful line the gate let through (auto mode) writes in the workspace but not outside it", () => {
    const target = path.join(outside.dir, "escaped.txt");
    const code = `require("fs").writeFileSync(${JSON.stringify(target)}, "x")`;
    const harmful = `node -e '${code}'; node -e 'require("fs").writeFileSync("inside.txt", "y")'`;
    const line = rewritten(harmful, auto());
    expect(line).toContain("--grant workspace-write");
    const r = bash(line);
    expect(existsSync(target)).toBe(false);
    expect(r.stderr).toMatch(/EROFS|read-only|EACCES|ENOENT/);
    expect(readFileSync(t.path("ws/inside.txt"), "utf8")).toBe("y");
    // Without the rewrite the same line does write outside.
    bash(harmful);
    expect(existsSync(target)).toBe(true);
    rmSync(target);
  });

  it("the agent's API key does not reach a wrapped command (it does reach an unwrapped one)", () => {
    const line = rewritten("printenv ANTHROPIC_API_KEY", auto());
    const r = bash(line);
    expect(r.stdout).not.toContain(KEY);
    expect(bash("printenv ANTHROPIC_API_KEY").stdout).toContain(KEY);
  });

  it("a rewritten line whose command was swapped runs nothing (exit 125): it is decided again", () => {
    const line = rewritten("ls", plain());
    const swapped = line.replace(/ -- ls$/, " -- 'touch made.txt'");
    expect(swapped).not.toBe(line);
    const r = bash(swapped);
    expect(r.status).toBe(125);
    expect(r.stderr).toMatch(/no longer allowed/);
    expect(existsSync(t.path("ws/made.txt"))).toBe(false);
  });

  it("a tampered grant runs nothing (exit 125)", () => {
    const line = rewritten("touch made.txt", auto());
    const narrower = line.replace("--grant workspace-write", "--grant read-only");
    const r = bash(narrower);
    expect(r.status).toBe(125);
    expect(r.stderr).toMatch(/grant changed/);
    expect(existsSync(t.path("ws/made.txt"))).toBe(false);
    const wider = rewritten("ls", plain()).replace("--grant read-only", "--grant workspace-write");
    expect(bash(wider).status).toBe(125);
  });

  it("settings changed between the hook and the run: the new deny holds, nothing runs", () => {
    const file = settings("changing", { "toolgate.mode": "auto" });
    const line = rewritten("touch later.txt", file);
    settings("changing", { "toolgate.mode": "auto", "toolgate.commands.deny": ["touch"] });
    rmSync(log(), { force: true });
    const r = bash(line);
    expect(r.status).toBe(125);
    expect(existsSync(t.path("ws/later.txt"))).toBe(false);
    expect(logLines()).toEqual([]);
  });

  it("a Claude Code deny rule added between the hook and the run holds too", () => {
    const line = rewritten("touch claude.txt", auto());
    const dir = t.path("ws/.claude");
    spawnSync("mkdir", ["-p", dir]);
    writeFileSync(path.join(dir, "settings.local.json"), JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }));
    const r = bash(line);
    expect(r.status).toBe(125);
    expect(r.stderr).toContain("Bash(touch:*)");
    expect(existsSync(t.path("ws/claude.txt"))).toBe(false);
    rmSync(dir, { recursive: true });
  });

  it("inside another sandbox that forbids nesting, it runs nothing and says how to fix it", () => {
    const line = rewritten("touch nested.txt", auto());
    const outer = [
      probe.executable ?? "bwrap",
      "--dev-bind",
      "/",
      "/",
      "--unshare-user",
      "--disable-userns",
      "--",
      "/bin/bash",
      "-c",
      line,
    ];
    const r = spawnSync(outer[0]!, outer.slice(1), { cwd: ws(), encoding: "utf8", env: agentEnv() });
    expect(r.stderr).toMatch(/no sandbox|could not start|cannot start/);
    expect(r.status).toBe(125);
    expect(r.stderr).toContain("toolgate.hooks.sandboxWrap");
    expect(existsSync(t.path("ws/nested.txt"))).toBe(false);
  });
});

describe("toolgate sandbox --decided-by-hook usage", () => {
  const run = (args: readonly string[]) =>
    spawnSync(process.execPath, [cli, "sandbox", ...args], { cwd: ws(), encoding: "utf8", env: agentEnv() });
  const base = ["--workspace", ws(), "--cwd", ws()];

  it("is listed in --help", () => {
    expect(run(["--help"]).stdout).toContain("--decided-by-hook AGENT");
  });

  it("an incomplete or unknown hook call is a usage error (exit 2) and runs nothing", () => {
    const bad: (readonly string[])[] = [
      [...base, "--hook-tool", "Bash", "--", "touch u.txt"],
      [...base, "--decided-by-hook", "nobody", "--hook-tool", "Bash", "--hook-cwd", ws(), "--", "touch u.txt"],
      [...base, "--decided-by-hook", "claude-code", "--hook-tool", "Bash", "--", "touch u.txt"],
      [...base, "--decided-by-hook", "claude-code", "--hook-tool", "Read", "--hook-cwd", ws(), "--", "touch u.txt"],
      [...base, "--decided-by-hook", "claude-code", "--hook-tool", "Bash", "--hook-cwd", "rel", "--", "touch u.txt"],
    ];
    for (const args of bad) {
      const r = run(args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(existsSync(t.path("ws/u.txt"))).toBe(false);
    }
  });
});
