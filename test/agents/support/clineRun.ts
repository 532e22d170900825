/**
 * One real Cline task (`cline --json -P openai-compatible -c DIR …`) in a fresh HOME, its model a scripted
 * OpenAI chat-completions API on loopback, with the given `PreToolUse` hook scripts installed. Set-up facts
 * (3.0.65, as in cline.test.ts): `CLINE_SESSION_BACKEND_MODE=local` runs the task in the CLI's own process (the
 * default starts a hub daemon that outlives the run); the provider is what `cline auth -p openai-compatible …`
 * writes; hooks are executable files named `PreToolUse` in `~/.cline/hooks/` and `<workspace>/.clinerules/hooks/`.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { InstalledAgent } from "./installed";
import type { Route } from "./loopbackServer";
import { startChatServer, type ChatServer, type ChatTurn } from "./openaiChatServer";

export interface ClineRunOptions {
  readonly cline: InstalledAgent;
  /** An existing folder the run may fill (its `home`, state). */
  readonly root: string;
  readonly ws: string;
  /** The task's directory (`cline -c`), default `ws` (whose `.clinerules/hooks` holds the workspace hook). */
  readonly cwd?: string;
  readonly turns: (url: string) => ChatTurn[];
  /** Hook scripts: `global` in ~/.cline/hooks, `workspace` in .clinerules/hooks. */
  readonly hooks: { readonly global?: string; readonly workspace?: string };
  readonly apiKey: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Routes the server tries before the model's (one returning false lets the model answer). */
  readonly routes?: readonly Route[];
}

export interface ClineRun {
  readonly server: ChatServer;
  readonly code: number | null;
  readonly stdout: string;
  /** The `run_result` event's finishReason (`completed`, `aborted`…). */
  readonly finish: string | undefined;
}

function install(file: string, script: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, script);
  chmodSync(file, 0o755);
}

export async function runCline(o: ClineRunOptions): Promise<ClineRun> {
  const home = path.join(o.root, "home");
  const settingsDir = path.join(home, ".cline", "data", "settings");
  mkdirSync(settingsDir, { recursive: true });
  writeFileSync(
    path.join(settingsDir, "global-settings.json"),
    JSON.stringify({ telemetryOptOut: true, autoUpdateEnabled: false }),
  );
  const turns: ChatTurn[] = [];
  const server = await startChatServer(turns, o.routes);
  try {
    turns.push(...o.turns(server.url));
    const provider = {
      provider: "openai-compatible",
      apiKey: o.apiKey,
      model: "test-model",
      baseUrl: `${server.url}/v1`,
    };
    writeFileSync(
      path.join(settingsDir, "providers.json"),
      JSON.stringify({
        version: 1,
        lastUsedProvider: "openai-compatible",
        modes: {},
        providers: {
          "openai-compatible": { settings: provider, updatedAt: new Date().toISOString(), tokenSource: "manual" },
        },
      }),
    );
    if (o.hooks.global !== undefined) install(path.join(home, ".cline", "hooks", "PreToolUse"), o.hooks.global);
    if (o.hooks.workspace !== undefined)
      install(path.join(o.ws, ".clinerules", "hooks", "PreToolUse"), o.hooks.workspace);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      CLINE_SESSION_BACKEND_MODE: "local",
      CLINE_NO_AUTO_UPDATE: "1",
      OPENAI_API_KEY: o.apiKey,
      XDG_STATE_HOME: path.join(o.root, "state"),
      VSCODE_APPDATA: path.join(o.root, "no-vscode"),
      ...o.env,
    };
    const args = ["--json", "-P", "openai-compatible", "-c", o.cwd ?? o.ws, "please do the task"];
    const r = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(o.cline.bin, args, { env, cwd: o.root, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", () => undefined);
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout });
      });
    });
    const finish = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { type?: string; finishReason?: string })
      .find((e) => e.type === "run_result")?.finishReason;
    return { server, ...r, finish };
  } finally {
    await server.close();
  }
}
