/**
 * Drives the real Claude Code (`claude -p`) against the fake Anthropic API: a fresh project folder and HOME per
 * run, auto-update and non-essential traffic off, and — when asked — Toolgate's hook in the project's
 * `.claude/settings.json` as an absolute command (`process.execPath dist/cli.js hook claude-code --settings F`).
 * The script's turns are the model's tool calls, in order; requests without tools (titles, summaries) get text.
 */
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startAnthropicServer, toolResults, type AnthropicServer, type Turn } from "./anthropicServer";
import { installedAgent } from "./installed";

export const CLI = path.resolve(__dirname, "../../../dist/cli.js");
/** The key Claude Code holds in its environment; it must never reach the model through a tool result. */
export const API_KEY = "sk-ant-test-3f9c2e71d0a54b8e";

export interface ClaudeRun {
  readonly ws: string;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly server: AnthropicServer;
  /** The tool results the agent sent back, in order (the last request holds them all). */
  readonly results: readonly string[];
}

export interface ClaudeRunOptions {
  /** The model's tool calls; `__WS__` in any string is replaced by the project folder. */
  readonly turns: readonly Turn[];
  readonly mode: "bypassPermissions" | "auto" | "acceptEdits" | "default" | "plan" | "dontAsk";
  /** Install Toolgate's hook, with these Toolgate user settings. Absent: no hook. */
  readonly toolgate?: Record<string, unknown>;
  readonly files?: Readonly<Record<string, string>>;
  /** `git init` the project first (for `.git/hooks/…`). */
  readonly git?: boolean;
  /** MCP servers (`mcpServers` of an `--mcp-config` file, `__WS__` replaced), the only ones the agent loads. */
  readonly mcpServers?: Readonly<Record<string, unknown>>;
}

/** Every folder the runs made (projects, homes, state), removed by `removeRunFolders` after the file's tests. */
const made: string[] = [];

export function removeRunFolders(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

function withWs<T>(v: T, ws: string): T {
  return JSON.parse(JSON.stringify(v).replaceAll("__WS__", ws)) as T;
}

export async function runClaude(o: ClaudeRunOptions): Promise<ClaudeRun> {
  const agent = installedAgent("claude-code");
  const ws = mkdtempSync(path.join(tmpdir(), "tg-cc-ws-"));
  const home = mkdtempSync(path.join(tmpdir(), "tg-cc-home-"));
  const state = mkdtempSync(path.join(tmpdir(), "tg-cc-state-"));
  made.push(ws, home, state);
  if (o.git) execFileSync("git", ["init", "-q", ws]);
  for (const [rel, text] of Object.entries(o.files ?? {})) {
    mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    writeFileSync(path.join(ws, rel), text);
  }
  if (o.toolgate) {
    const settings = path.join(state, "toolgate-user-settings.json");
    writeFileSync(settings, JSON.stringify(o.toolgate));
    const command = [process.execPath, CLI, "hook", "claude-code", "--settings", settings]
      .map((w) => `'${w.replaceAll("'", "'\\''")}'`)
      .join(" ");
    mkdirSync(path.join(ws, ".claude"), { recursive: true });
    writeFileSync(
      path.join(ws, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command }] }] } }),
    );
  }
  const turns = withWs(o.turns, ws);
  let main = 0;
  const server = await startAnthropicServer((body) => {
    if (!body.tools || body.tools.length === 0) return { text: "ok" };
    return turns[main++];
  });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: API_KEY,
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    // As root, Claude Code refuses bypassPermissions unless it is told it runs in a sandbox.
    IS_SANDBOX: "1",
    // The hook inherits this environment: keep the machine's own Toolgate settings and state out of it.
    VSCODE_APPDATA: path.join(state, "no-vscode"),
    XDG_STATE_HOME: state,
    XDG_CONFIG_HOME: path.join(home, ".config"),
  };
  const args = ["-p", "do the task", "--permission-mode", o.mode];
  if (o.mcpServers) {
    const config = path.join(state, "mcp.json");
    writeFileSync(config, JSON.stringify({ mcpServers: withWs(o.mcpServers, ws) }));
    args.push("--mcp-config", config, "--strict-mcp-config");
  }
  const child = spawn(agent.bin, args, {
    cwd: ws,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exitCode = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  await server.close();
  const last = server.bodies[server.bodies.length - 1];
  return { ws, exitCode, stdout, stderr, server, results: last ? toolResults(last) : [] };
}
