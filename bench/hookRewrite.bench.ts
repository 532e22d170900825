/**
 * What the Claude Code hook's sandbox rewrite costs per command, end to end through the real dist/cli.js:
 * the hook process deciding an allowed `ls` with the rewrite (which probes the sandbox once) and without it
 * (`toolgate.hooks.sandboxWrap: false`); then running the command as Claude Code's Bash tool would — the bare
 * line (`bash -c true`), `toolgate sandbox --grant read-only -- true` (the second layer alone), and the rewritten
 * line with `--decided-by-hook` (the same plus deciding the line again), beside a bare `node -e ''`; then the
 * same for Codex's hook. p50/p99 over RUNS runs each; printed, never asserted.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fmt, percentiles } from "./stats";

const RUNS = 20;
const dist = process.env.TOOLGATE_DIST ?? path.resolve("dist");
const cli = path.join(dist, "cli.js");
const ws = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-bench-hook-")));
const home = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-bench-hook-home-")));
const wrap = path.join(home, "wrap.json");
const nowrap = path.join(home, "nowrap.json");
writeFileSync(wrap, "{}");
writeFileSync(nowrap, JSON.stringify({ "toolgate.hooks.sandboxWrap": false }));
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_STATE_HOME: path.join(home, "state"),
  VSCODE_APPDATA: path.join(home, "no-vscode"),
  AI_AGENT: "claude-code_2-1-332_harness",
  CLAUDE_PROJECT_DIR: ws,
};
const input = (command: string) =>
  JSON.stringify({
    session_id: "bench",
    cwd: ws,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "d" },
  });

function time(label: string, file: string, args: readonly string[], stdin = ""): string {
  const samples: number[] = [];
  let stdout = "";
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(file, args, { input: stdin, encoding: "utf8", cwd: ws, env });
    samples.push(Number(process.hrtime.bigint() - t0));
    if (r.status !== 0) throw new Error(`${label}: exit ${String(r.status)}: ${r.stderr}`);
    stdout = r.stdout;
  }
  const p = percentiles(samples);
  console.log(`${label}: p50 ${fmt(p.p50 / 1000)} ms, p99 ${fmt(p.p99 / 1000)} ms`);
  return stdout;
}

const hookArgs = (settings: string) => [cli, "hook", "claude-code", "--settings", settings];
const out = time("hook decision, rewrite on (probe + rewrite)", process.execPath, hookArgs(wrap), input("true"));
time("hook decision, sandboxWrap off", process.execPath, hookArgs(nowrap), input("true"));
const rewritten = (JSON.parse(out) as { hookSpecificOutput: { updatedInput?: { command: string } } }).hookSpecificOutput
  .updatedInput?.command;
if (rewritten === undefined) throw new Error(`no rewrite: ${out}`);
time("run: bash -c true (unsandboxed)", "/bin/bash", ["-c", "true"]);
time("run: node -e '' (a bare Node start, the floor of any Toolgate process)", process.execPath, ["-e", ""]);
time("run: toolgate sandbox --grant read-only -- true", process.execPath, [
  cli,
  "sandbox",
  "--grant",
  "read-only",
  "--settings",
  wrap,
  "--workspace",
  ws,
  "--",
  "true",
]);
time("run: the rewritten line (--decided-by-hook, decided again)", "/bin/bash", ["-c", rewritten]);
// Codex's rewrite: the same sandbox command, decided again through Codex's adapter.
const codexInput = JSON.stringify({
  session_id: "bench",
  cwd: ws,
  hook_event_name: "PreToolUse",
  permission_mode: "bypassPermissions",
  tool_name: "Bash",
  tool_input: { command: "true" },
});
const codexOut = time(
  "codex hook decision, rewrite on",
  process.execPath,
  [cli, "hook", "codex", "--settings", wrap],
  codexInput,
);
const codexLine = (JSON.parse(codexOut) as { hookSpecificOutput?: { updatedInput?: { command: string } } })
  .hookSpecificOutput?.updatedInput?.command;
if (codexLine === undefined) throw new Error(`no Codex rewrite: ${codexOut}`);
time("run: Codex's rewritten line (--decided-by-hook codex)", "/bin/bash", ["-c", codexLine]);
rmSync(ws, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
