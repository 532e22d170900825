/**
 * The installed hook against the real Claude Code (2.1.332 from npm, in ~/.cache/toolgate-agents), driven by a
 * loopback Anthropic-format model that asks for one Bash call which creates a file. Asserted on disk and on
 * what reached the model: without the hook the file is created (so these tests can fail); with
 * `toolgate hook install`'s wrapper the call is blocked even when dist/cli.js or the wrapper itself is gone;
 * and `onFailure: "block"` is what blocks when the command line has no fallback of its own.
 * Skipped (with the reason printed) when the agent is not installed.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../support/cli";
import { startScriptedModel, type RecordedRequest } from "../support/scriptedModel";
import { tempTree } from "../support/workspace";
import { installedAgent } from "./support/installed";

// The suite never skips: a missing agent fails it (scripts/agents/setup.mjs installs them).
const CLAUDE = installedAgent("claude-code").bin;

const trees: { cleanup(): void }[] = [];
afterAll(() => trees.forEach((t) => t.cleanup()));

let cli = "";
beforeAll(async () => {
  cli = await buildCli();
}, 60_000);

interface Run {
  readonly harmed: boolean;
  readonly toolResult: { content?: unknown; is_error?: boolean } | undefined;
}

function lastToolResult(requests: readonly RecordedRequest[]): Run["toolResult"] {
  for (const r of [...requests].reverse()) {
    const messages = (r.body.messages as { content: unknown }[] | undefined) ?? [];
    for (const m of [...messages].reverse())
      if (Array.isArray(m.content))
        for (const c of m.content as { type?: string; content?: unknown; is_error?: boolean }[])
          if (c.type === "tool_result") return c;
  }
  return undefined;
}

/** One `claude -p` run in a fresh home and workspace; `prepare` installs (or not) before it starts. */
async function claudeRun(prepare: (ws: string, env: NodeJS.ProcessEnv) => void): Promise<Run> {
  const t = tempTree({ "ws/.keep": "", "home/.keep": "" });
  trees.push(t);
  const ws = t.path("ws");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: t.path("home"),
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  };
  prepare(ws, env);
  const harm = path.join(ws, "harm.txt");
  const model = await startScriptedModel([
    { steps: [{ tool: "Bash", args: { command: `touch ${harm}`, description: "create a file" }, id: "toolu_1" }] },
    { steps: [{ text: "done" }] },
    { steps: [{ text: "done" }] },
  ]);
  try {
    // Async: the model server answers from this process, so the agent must not block its event loop.
    await new Promise<void>((resolve, reject) => {
      const p = spawn(CLAUDE, ["-p", "create the file", "--allowedTools", "Bash", "--model", "claude-sonnet-4-5"], {
        cwd: ws,
        env: { ...env, ANTHROPIC_BASE_URL: model.anthropicBaseUrl, ANTHROPIC_API_KEY: "sk-loopback" },
        stdio: ["ignore", "ignore", "ignore"],
      });
      const timer = setTimeout(() => p.kill("SIGKILL"), 60_000);
      p.on("error", reject);
      p.on("close", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return { harmed: existsSync(harm), toolResult: lastToolResult(model.requests) };
  } finally {
    await model.close();
  }
}

function install(ws: string, env: NodeJS.ProcessEnv): { settings: string; wrapper: string } {
  const r = spawnSync(
    process.execPath,
    [cli, "hook", "install", "claude-code", "--project", ws, "--agent-bin", CLAUDE],
    {
      env,
      encoding: "utf8",
    },
  );
  expect(r.status, r.stderr).toBe(0);
  return {
    settings: path.join(ws, ".claude", "settings.json"),
    wrapper: path.join(env.HOME ?? "", ".local/share/toolgate/hooks/claude-code.sh"),
  };
}

const text = (r: Run): string => JSON.stringify(r.toolResult?.content ?? "");

describe("the installed hook in the real Claude Code 2.1.332", () => {
  it("without a hook, the Bash call runs (the harm is real)", async () => {
    const r = await claudeRun(() => {});
    expect(r.harmed).toBe(true);
  }, 90_000);

  it("with the wrapper and a missing dist/cli.js, the call is blocked and the model is told why", async () => {
    const r = await claudeRun((ws, env) => {
      const copy = path.join(path.dirname(cli), "..", `gone-${Date.now()}`, "cli.js");
      mkdirSync(path.dirname(copy), { recursive: true });
      writeFileSync(copy, readFileSync(cli));
      spawnSync(process.execPath, [copy, "hook", "install", "claude-code", "--project", ws, "--agent-bin", CLAUDE], {
        env,
      });
      rmSync(path.dirname(copy), { recursive: true });
    });
    expect(r.harmed).toBe(false);
    expect(r.toolResult?.is_error).toBe(true);
    expect(text(r)).toContain("dist/cli.js is missing, so the call is refused");
  }, 90_000);

  it("with the wrapper itself deleted, the command line's `|| exit 2` still blocks", async () => {
    const r = await claudeRun((ws, env) => rmSync(install(ws, env).wrapper));
    expect(r.harmed).toBe(false);
    expect(text(r)).toMatch(/claude-code\.sh/);
  }, 90_000);

  it('onFailure: "block" blocks a failing command with no fallback; without it the call runs', async () => {
    const strip = (withOnFailure: boolean) => (ws: string, env: NodeJS.ProcessEnv) => {
      const f = install(ws, env);
      const v = JSON.parse(readFileSync(f.settings, "utf8")) as {
        hooks: { PreToolUse: { hooks: Record<string, unknown>[] }[] };
      };
      const hook = v.hooks.PreToolUse[0]?.hooks[0] ?? {};
      hook.command = String(hook.command).replace(" || exit 2", "");
      if (!withOnFailure) delete hook.onFailure;
      writeFileSync(f.settings, JSON.stringify(v));
      rmSync(f.wrapper);
    };
    expect((await claudeRun(strip(true))).harmed).toBe(false);
    expect((await claudeRun(strip(false))).harmed).toBe(true);
  }, 180_000);

  it("with a working install, Toolgate decides (the write is not auto-approved, so -p refuses it)", async () => {
    const r = await claudeRun((ws, env) => install(ws, env));
    expect(r.harmed).toBe(false);
    expect(text(r)).toContain("Toolgate: writes a file");
  }, 90_000);
});
