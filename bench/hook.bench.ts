/**
 * The hook's answer time as Claude Code sees it: a fresh `node dist/cli.js hook claude-code` per tool call,
 * its PreToolUse JSON on stdin, until the process has exited — beside a bare `node -e ''` on the same machine
 * in the same interleaved loop (so load on the machine colours both alike). Calls: a Bash command (the
 * grammar is needed), a Read inside the workspace (no grammar), an Edit of a protected path. Also
 * `toolgate sandbox --status`, the Bash answer without the code cache (TOOLGATE_CODE_CACHE=off: what a first
 * call after an install or an update costs, the remembered sandbox probe still in place) and which dist files
 * the hook process loaded. The warm-up rounds fill the code cache and the probe memo in the bench's own HOME. With TOOLGATE_BASELINE_CLI set to
 * another build's cli.js (an older commit's dist), its Bash answer is timed in the same loop, for a before/after
 * under the same load. Target: hook p50 within 30 ms of bare node's p50; the figures are printed, never asserted.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, percentiles } from "./stats";

const dist = process.env.TOOLGATE_DIST ?? join(process.cwd(), "dist");
const cli = join(dist, "cli.js");
const RUNS = 40;
const baseline = process.env.TOOLGATE_BASELINE_CLI;

function timeRun(args: readonly string[], input: string, env: NodeJS.ProcessEnv): { ns: number; stdout: string } {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env, encoding: "utf8" });
  const ns = Number(process.hrtime.bigint() - t);
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { ns, stdout: r.stdout };
}

function main(): void {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-bench-hook-")));
  const home = join(ws, "home");
  try {
    writeFileSync(join(ws, "a.ts"), "export const a = 1;\n");
    // An empty HOME: the person's own settings and hook state do not colour the figures.
    // CLAUDE_PROJECT_DIR as Claude Code sets it: without it every call is refused before the gate runs.
    const env = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_STATE_HOME: home,
      CLAUDE_PROJECT_DIR: ws,
    };
    const input = (tool: string, toolInput: Record<string, unknown>) =>
      JSON.stringify({
        session_id: "bench",
        transcript_path: join(ws, "t.jsonl"),
        cwd: ws,
        hook_event_name: "PreToolUse",
        tool_name: tool,
        tool_input: toolInput,
      });
    const calls = {
      bash: input("Bash", { command: "git status && ls -la src | head -5 && rg -n TODO src", description: "look" }),
      read: input("Read", { file_path: join(ws, "a.ts") }),
      edit: input("Edit", { file_path: join(ws, ".vscode/settings.json"), old_string: "a", new_string: "b" }),
    };
    for (const [name, json] of Object.entries(calls)) {
      const out = JSON.parse(timeRun([cli, "hook", "claude-code"], json, env).stdout) as {
        hookSpecificOutput: { permissionDecision: string };
      };
      console.log(`answer for ${name}: ${out.hookSpecificOutput.permissionDecision}`);
    }
    const samples: Record<string, number[]> = {
      bare: [],
      bash: [],
      read: [],
      edit: [],
      status: [],
      nocache: [],
      baseline: [],
    };
    const nocache = { ...env, TOOLGATE_CODE_CACHE: "off" };
    for (let i = 0; i < RUNS + 3; i++) {
      const warm = i < 3;
      const add = (k: string, ns: number) => !warm && samples[k]!.push(ns);
      add("bare", timeRun(["-e", ""], "", env).ns);
      for (const [name, json] of Object.entries(calls)) add(name, timeRun([cli, "hook", "claude-code"], json, env).ns);
      add("status", timeRun([cli, "sandbox", "--status"], "", env).ns);
      add("nocache", timeRun([cli, "hook", "claude-code"], calls.bash, nocache).ns);
      if (baseline) add("baseline", timeRun([baseline, "hook", "claude-code"], calls.bash, env).ns);
    }
    const bare = percentiles(samples.bare!);
    const ms = (us: number) => `${fmt(us / 1000)} ms`;
    console.log(`bare node -e '': p50 ${ms(bare.p50)}, p99 ${ms(bare.p99)} (${RUNS} runs, interleaved)`);
    for (const k of ["bash", "read", "edit", "status", "nocache", ...(baseline ? ["baseline"] : [])]) {
      const p = percentiles(samples[k]!);
      const label =
        k === "status"
          ? "toolgate sandbox --status"
          : k === "baseline"
            ? `baseline ${baseline} hook claude-code (bash)`
            : k === "nocache"
              ? "hook claude-code (bash, no code cache)"
              : `hook claude-code (${k})`;
      console.log(
        `${label}: p50 ${ms(p.p50)} (+${ms(p.p50 - bare.p50)} over bare node), p99 ${ms(p.p99)}, mean ${ms(p.mean)}`,
      );
    }
    // Which of Toolgate's files one hook answer loads (the entry and what it requires from dist/).
    const probe = spawnSync(
      process.execPath,
      [
        "-e",
        `const M=require("module");const l=M._load;const seen=new Set();M._load=function(r,p,m){if(r.startsWith(".")||r.startsWith("/"))seen.add(require("path").basename(r));return l.apply(this,arguments)};process.on("exit",()=>process.stderr.write("LOADED "+[...seen].join(" ")+"\\n"));process.argv=[process.argv[0],${JSON.stringify(cli)},"hook","claude-code"];require(${JSON.stringify(cli)})`,
      ],
      { input: calls.bash, env, encoding: "utf8" },
    );
    console.log(`dist files a Bash hook answer loads: ${/LOADED (.*)/.exec(probe.stderr)?.[1] || "(only cli.js)"}`);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

main();
