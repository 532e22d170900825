/**
 * One real `codex exec` run in a fresh `CODEX_HOME`, its model a scripted Responses API on loopback, with the
 * given PreToolUse hook commands installed and trusted. Set-up facts (0.171.0, as in codex.test.ts): a custom
 * `model_providers` entry with `wire_api = "responses"` and `env_key` needs no login; hooks need `[features]
 * hooks = true`; Codex runs a hook only once it is trusted — `[hooks.state."<key>"] trusted_hash = …`, both read
 * from `codex app-server`'s `hooks/list` (an untrusted hook is skipped silently).
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import * as path from "node:path";
import type { InstalledAgent } from "./installed";
import type { Route } from "./loopbackServer";
import { startResponsesServer, type ResponsesServer, type ResponsesTurn } from "./responsesServer";

export interface CodexRunOptions {
  readonly codex: InstalledAgent;
  /** An existing, empty folder the run may fill (its `codex-home`, settings, state). */
  readonly root: string;
  /** The session's directory (`codex -C`). */
  readonly ws: string;
  readonly turns: (url: string) => ResponsesTurn[];
  /** Hook commands, one `[[hooks.PreToolUse]]` entry each, in this order. */
  readonly hooks: readonly string[];
  readonly apiKey: string;
  /** Codex's own approval and sandbox flags (default: `--dangerously-bypass-approvals-and-sandbox`). */
  readonly codexFlags?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Resume this session (`codex exec resume ID`) instead of starting one; `root` is then the earlier run's. */
  readonly resume?: string;
  /** More routes for the loopback server (a page a command fetches). */
  readonly routes?: readonly Route[];
}

export interface CodexRun {
  readonly server: ResponsesServer;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly home: string;
}

function spawnRun(
  bin: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Trusts every hook Codex lists for `ws`, the way the /hooks review does: the key and hash it reports. */
export async function trustCodexHooks(
  codex: InstalledAgent,
  env: NodeJS.ProcessEnv,
  ws: string,
  config: string,
): Promise<number> {
  const requests = [
    { id: 1, method: "initialize", params: { clientInfo: { name: "toolgate-test", version: "1" } } },
    { method: "initialized" },
    { id: 2, method: "hooks/list", params: { cwds: [ws] } },
  ];
  const child = spawn(codex.bin, ["app-server"], { env, cwd: ws, stdio: ["pipe", "pipe", "ignore"] });
  const listed = await new Promise<{ key: string; currentHash: string }[]>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`codex app-server did not answer hooks/list: ${out}`)), 30_000);
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const m = JSON.parse(line) as {
          id?: number;
          result?: { data: { hooks: { key: string; currentHash: string }[] }[] };
        };
        if (m.id === 2 && m.result) {
          clearTimeout(timer);
          resolve(m.result.data.flatMap((d) => d.hooks));
        }
      }
    });
    for (const r of requests) child.stdin.write(JSON.stringify(r) + "\n");
  });
  child.kill();
  for (const h of listed)
    appendFileSync(
      config,
      `\n[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.currentHash)}\n`,
    );
  return listed.length;
}

export async function runCodex(o: CodexRunOptions): Promise<CodexRun> {
  const home = path.join(o.root, "codex-home");
  mkdirSync(home, { recursive: true });
  const turns: ResponsesTurn[] = [];
  const server = await startResponsesServer(turns, o.routes);
  try {
    turns.push(...o.turns(server.url));
    const config = path.join(home, "config.toml");
    const q = (s: string) => JSON.stringify(s);
    const hookLines = o.hooks.flatMap((command) => [
      "[[hooks.PreToolUse]]",
      'matcher = "*"',
      "[[hooks.PreToolUse.hooks]]",
      'type = "command"',
      `command = ${q(command)}`,
      "timeout = 30",
    ]);
    writeFileSync(
      config,
      [
        'model = "test-model"',
        'model_provider = "loopback"',
        "check_for_update_on_startup = false",
        "[model_providers.loopback]",
        'name = "loopback"',
        `base_url = ${q(`${server.url}/v1`)}`,
        'wire_api = "responses"',
        'env_key = "OPENAI_API_KEY"',
        "[analytics]",
        "enabled = false",
        "[features]",
        `hooks = ${o.hooks.length > 0}`,
        ...hookLines,
        "",
      ].join("\n"),
    );
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      CODEX_HOME: home,
      OPENAI_API_KEY: o.apiKey,
      XDG_STATE_HOME: path.join(o.root, "state"),
      VSCODE_APPDATA: path.join(o.root, "no-vscode"),
      ...o.env,
    };
    if (o.hooks.length > 0) {
      const trusted = await trustCodexHooks(o.codex, env, o.ws, config);
      if (trusted !== o.hooks.length) throw new Error(`Codex listed ${trusted} hooks, ${o.hooks.length} installed`);
    }
    const flags = o.codexFlags ?? ["--dangerously-bypass-approvals-and-sandbox"];
    const start = o.resume !== undefined ? ["resume", o.resume] : [];
    const args = ["exec", "--skip-git-repo-check", ...flags, "-C", o.ws, ...start, "please do the task"];
    const r = await spawnRun(o.codex.bin, args, env, o.ws);
    return { server, home, ...r };
  } finally {
    await server.close();
  }
}
