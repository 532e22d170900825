/**
 * The installed wrapper against the real Gemini CLI (0.61.0 from npm, in ~/.cache/toolgate-agents), driven by a
 * loopback Gemini API (`streamGenerateContent` SSE, plus the non-streaming router call) that asks for one
 * `run_shell_command` creating a file. Asserted on disk and on the functionResponse that reached the model:
 * without a hook, and with a bare hook that exits 1, the file is created (Gemini fails open); with the
 * wrapper, a missing dist/cli.js or a failing interpreter blocks the call with Toolgate's reason.
 * Skipped (with the reason printed) when the agent is not installed.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../support/cli";
import { tempTree } from "../support/workspace";
import { installedAgent } from "./support/installed";

// The suite never skips: a missing agent fails it (scripts/agents/setup.mjs installs them).
const GEMINI = installedAgent("gemini-cli").bin;

const trees: { cleanup(): void }[] = [];
afterAll(() => trees.forEach((t) => t.cleanup()));

let cli = "";
beforeAll(async () => {
  cli = await buildCli();
}, 60_000);

/** A loopback Gemini API: the first streamed turn asks for the shell call, every later one says "done". */
async function geminiServer(command: string): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  let turns = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      bodies.push(body);
      const url = req.url ?? "";
      const answer = (part: unknown) => ({
        candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 },
      });
      if (url.includes(":streamGenerateContent")) {
        const part =
          ++turns === 1 ? { functionCall: { name: "run_shell_command", args: { command } } } : { text: "done" };
        res
          .writeHead(200, { "content-type": "text/event-stream" })
          .end(`data: ${JSON.stringify(answer(part))}\r\n\r\n`);
      } else if (url.includes(":generateContent")) {
        // The model router's classification call.
        const text = JSON.stringify({ complexity_reasoning: "simple", complexity_score: 10 });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer({ text })));
      } else if (url.includes(":countTokens")) {
        res.writeHead(200, { "content-type": "application/json" }).end('{"totalTokens":5}');
      } else {
        res.writeHead(404, { "content-type": "application/json" }).end("{}");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Run {
  readonly harmed: boolean;
  /** What the model was told about the shell call. */
  readonly response: string;
}

async function geminiRun(prepare: (home: string, env: NodeJS.ProcessEnv, root: string) => void): Promise<Run> {
  const t = tempTree({
    "ws/.keep": "",
    "home/.gemini/settings.json": JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    }),
  });
  trees.push(t);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: t.path("home") };
  prepare(t.path("home"), env, t.dir);
  const harm = t.path("ws/harm.txt");
  const server = await geminiServer(`touch ${harm}`);
  try {
    await new Promise<void>((resolve, reject) => {
      const p = spawn(GEMINI, ["--skip-trust", "-y", "-p", "create the file"], {
        cwd: t.path("ws"),
        env: { ...env, GEMINI_API_KEY: "loopback", GOOGLE_GEMINI_BASE_URL: server.url },
        stdio: ["ignore", "ignore", "ignore"],
      });
      const timer = setTimeout(() => p.kill("SIGKILL"), 60_000);
      p.on("error", reject);
      p.on("close", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const last = server.bodies.filter((b) => b.includes('"functionResponse"')).pop() ?? "";
    return { harmed: existsSync(harm), response: /"functionResponse":\{.*?\}\}/.exec(last)?.[0] ?? "" };
  } finally {
    await server.close();
  }
}

/** `toolgate hook install gemini-cli --user` from a copy of the CLI under `root` (so the test can remove it). */
function install(env: NodeJS.ProcessEnv, root: string): { cli: string; settings: string; wrapper: string } {
  const dist = path.join(root, "cli", "dist");
  cpSync(path.dirname(cli), dist, { recursive: true });
  const copy = path.join(dist, path.basename(cli));
  const r = spawnSync(process.execPath, [copy, "hook", "install", "gemini-cli", "--user", "--", "--headless"], {
    env,
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return {
    cli: copy,
    settings: path.join(env.HOME ?? "", ".gemini", "settings.json"),
    wrapper: path.join(env.HOME ?? "", ".local/share/toolgate/hooks/gemini-cli.sh"),
  };
}

describe("the installed wrapper in the real Gemini CLI 0.61.0", () => {
  it("without a hook, the shell call runs (the harm is real)", async () => {
    expect((await geminiRun(() => {})).harmed).toBe(true);
  }, 90_000);

  it("a bare hook command that exits 1 lets the call through (why the wrapper exists)", async () => {
    const r = await geminiRun((_home, env, root) => {
      const f = install(env, root);
      writeFileSync(f.settings, readFileSync(f.settings, "utf8").replace(/"command": "[^"]*"/, '"command": "exit 1"'));
    });
    expect(r.harmed).toBe(true);
  }, 90_000);

  it("with the wrapper and a missing dist/cli.js, the call is blocked and the model is told why", async () => {
    const r = await geminiRun((_home, env, root) => rmSync(path.dirname(install(env, root).cli), { recursive: true }));
    expect(r.harmed).toBe(false);
    expect(r.response).toContain("Tool execution blocked: Toolgate: Toolgate's dist/cli.js is missing");
  }, 90_000);

  it("with the wrapper and an interpreter that exits 1, the call is blocked", async () => {
    const r = await geminiRun((_home, env, root) => {
      const f = install(env, root);
      const fake = path.join(root, "fake-node");
      writeFileSync(fake, "#!/bin/sh\nexit 1\n");
      chmodSync(fake, 0o755);
      const w = readFileSync(f.wrapper, "utf8").replace(/^NODE=.*$/m, `NODE='${fake}'`);
      writeFileSync(f.wrapper, w);
    });
    expect(r.harmed).toBe(false);
    expect(r.response).toContain("Toolgate: the hook process failed, so the call is refused");
  }, 90_000);
});
