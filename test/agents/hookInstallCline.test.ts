/**
 * The installed hook file against the real Cline CLI (3.0.65 from npm, in ~/.cache/toolgate-agents), with its
 * OpenAI-compatible provider pointed at the loopback scripted model, which asks for one `run_commands` call
 * creating a file. Asserted on disk: without a hook, and with a hook file that just fails, the file is created
 * (Cline ignores exit codes and empty output); with Toolgate's hook file and wrapper, a missing dist/cli.js, or
 * the wrapper itself deleted, cancel the task before the command runs.
 * Skipped (with the reason printed) when the agent is not installed.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../support/cli";
import { startScriptedModel } from "../support/scriptedModel";
import { tempTree } from "../support/workspace";
import { installedAgent } from "./support/installed";

// The suite never skips: a missing agent fails it (scripts/agents/setup.mjs installs them).
const CLINE = installedAgent("cline").bin;

const trees: { cleanup(): void }[] = [];
afterAll(() => trees.forEach((t) => t.cleanup()));

let cli = "";
beforeAll(async () => {
  cli = await buildCli();
}, 60_000);

function runAsync(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd, env, stdio: ["ignore", "ignore", "ignore"] });
    const timer = setTimeout(() => p.kill("SIGKILL"), 60_000);
    p.on("error", reject);
    p.on("close", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

async function clineRun(prepare: (ws: string, env: NodeJS.ProcessEnv, root: string) => void): Promise<boolean> {
  const t = tempTree({ "ws/.keep": "", "home/.keep": "" });
  trees.push(t);
  const ws = t.path("ws");
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: t.path("home") };
  const harm = path.join(ws, "harm.txt");
  const model = await startScriptedModel([
    { steps: [{ tool: "run_commands", args: { commands: [`touch ${harm}`] }, id: "call_1" }] },
    { steps: [{ text: "done" }] },
    { steps: [{ text: "done" }] },
  ]);
  try {
    const auth = ["auth", "-p", "openai", "-k", "sk-loopback", "-m", "gpt-4o", "-b", model.openAiBaseUrl];
    expect(await runAsync(CLINE, auth, ws, env)).toBe(0);
    prepare(ws, env, t.dir);
    await runAsync(CLINE, ["--json", "create the file"], ws, env);
    return existsSync(harm);
  } finally {
    await model.close();
  }
}

function install(ws: string, env: NodeJS.ProcessEnv, root: string): { dist: string; wrapper: string } {
  const dist = path.join(root, "cli", "dist");
  cpSync(path.dirname(cli), dist, { recursive: true });
  const r = spawnSync(
    process.execPath,
    [path.join(dist, path.basename(cli)), "hook", "install", "cline", "--project", ws],
    {
      env,
      encoding: "utf8",
    },
  );
  expect(r.status, r.stderr).toBe(0);
  return { dist, wrapper: path.join(env.HOME ?? "", ".local/share/toolgate/hooks/cline.sh") };
}

describe("the installed hook file in the real Cline 3.0.65", () => {
  it("without a hook, the command runs (the harm is real)", async () => {
    expect(await clineRun(() => {})).toBe(true);
  }, 90_000);

  it("a PreToolUse hook that only fails lets the command through (why the wrapper prints cancel JSON)", async () => {
    const harmed = await clineRun((ws, env, root) => {
      install(ws, env, root);
      writeFileSync(path.join(ws, ".clinerules/hooks/PreToolUse"), "#!/bin/sh\nexit 1\n");
    });
    expect(harmed).toBe(true);
  }, 90_000);

  it("with the wrapper and a missing dist/cli.js, the task is cancelled before the command runs", async () => {
    expect(await clineRun((ws, env, root) => rmSync(install(ws, env, root).dist, { recursive: true }))).toBe(false);
  }, 90_000);

  it("with the wrapper deleted, the hook file's own cancel still stops it", async () => {
    expect(await clineRun((ws, env, root) => rmSync(install(ws, env, root).wrapper))).toBe(false);
  }, 90_000);
});
