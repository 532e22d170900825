/**
 * One MCP server connection (stdio or streamable HTTP). Lists tools (with annotations) and resources after
 * connecting; when the connection drops unexpectedly it reconnects with exponential backoff. Calls in flight
 * when the server dies are rejected by the SDK with a connection-closed error, which the tool handler turns
 * into a message the model can act on.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "../../core/settingsModel";
import { annotate } from "./format";
import type { McpResourceInfo, McpServerSummary, McpToolInfo } from "./types";

export interface ReconnectPolicy {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxAttempts: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { baseDelayMs: 1000, maxDelayMs: 30_000, maxAttempts: 8 };

export interface ConnectionOptions {
  readonly clientName: string;
  readonly clientVersion: string;
  readonly reconnect: ReconnectPolicy;
  readonly connectTimeoutMs: number;
  readonly cwd?: string;
  readonly onChange: () => void;
}

/** What, if changed, needs a new process or connection. alwaysAllow and disabledTools never do. */
export function connectionKey(c: McpServerConfig): string {
  return JSON.stringify([c.command ?? null, c.args ?? [], Object.entries(c.env ?? {}).sort(), c.url ?? null]);
}

export class McpConnection {
  private client: Client | undefined;
  private transport: Transport | undefined;
  private status: McpServerSummary["status"] = "connecting";
  private error: string | undefined;
  private tools: McpToolInfo[] = [];
  private resources: McpResourceInfo[] = [];
  private closing = false;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stderrTail: string[] = [];
  private connecting: Promise<void> | undefined;

  constructor(
    readonly name: string,
    public config: McpServerConfig,
    private readonly opts: ConnectionOptions,
  ) {}

  get key(): string {
    return connectionKey(this.config);
  }

  /** Process id of a stdio server (tests kill it to simulate a crash). */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  summary(): McpServerSummary {
    const disabled = new Set(this.config.disabledTools);
    return {
      name: this.name,
      status: this.status,
      ...(this.error ? { error: this.error } : {}),
      tools: this.tools.filter((t) => !disabled.has(t.name)),
      resources: this.resources,
    };
  }

  connect(): Promise<void> {
    this.connecting ??= this.doConnect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private makeTransport(): Transport {
    const c = this.config;
    if (c.url) return new StreamableHTTPClientTransport(new URL(c.url));
    const t = new StdioClientTransport({
      command: c.command!,
      args: [...(c.args ?? [])],
      ...(c.env ? { env: { ...defaultEnv(), ...c.env } } : {}),
      ...(this.opts.cwd ? { cwd: this.opts.cwd } : {}),
      stderr: "pipe",
    });
    t.stderr?.on("data", (d: Buffer) => {
      this.stderrTail.push(d.toString("utf8"));
      if (this.stderrTail.length > 20) this.stderrTail.shift();
    });
    return t;
  }

  private async doConnect(): Promise<void> {
    this.status = "connecting";
    this.opts.onChange();
    const client = new Client({ name: this.opts.clientName, version: this.opts.clientVersion });
    const transport = this.makeTransport();
    this.client = client;
    this.transport = transport;
    client.onclose = () => this.onClosed(client);
    try {
      await client.connect(transport, { timeout: this.opts.connectTimeoutMs });
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.opts.connectTimeoutMs });
        tools.push(...page.tools.map((t) => annotate(this.name, t)));
        cursor = page.nextCursor;
      } while (cursor);
      const resources: McpResourceInfo[] = [];
      if (client.getServerCapabilities()?.resources) {
        const page = await client.listResources(undefined, { timeout: this.opts.connectTimeoutMs });
        for (const r of page.resources) {
          resources.push({
            server: this.name,
            uri: r.uri,
            name: r.name,
            ...(r.description ? { description: r.description } : {}),
            ...(r.mimeType ? { mimeType: r.mimeType } : {}),
          });
        }
      }
      if (this.client !== client) return; // replaced while connecting
      this.tools = tools;
      this.resources = resources;
      this.status = "connected";
      this.error = undefined;
      this.attempts = 0;
      this.opts.onChange();
    } catch (e) {
      if (this.client !== client) return;
      this.error = `${(e as Error).message}${this.stderrTail.length ? ` — ${this.stderrTail.join("").trim().split("\n").slice(-3).join(" / ")}` : ""}`;
      await client.close().catch(() => undefined);
      this.scheduleReconnect();
    }
  }

  private onClosed(client: Client): void {
    if (this.client !== client || this.closing) return;
    if (this.status === "connected")
      this.error = `the server stopped${this.stderrTail.length ? `: ${this.stderrTail.join("").trim().split("\n").slice(-2).join(" / ")}` : ""}`;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closing) return;
    this.client = undefined;
    this.transport = undefined;
    if (this.attempts >= this.opts.reconnect.maxAttempts) {
      this.status = "error";
      this.opts.onChange();
      return;
    }
    this.status = "disconnected";
    const delay = Math.min(this.opts.reconnect.maxDelayMs, this.opts.reconnect.baseDelayMs * 2 ** this.attempts);
    this.attempts++;
    this.opts.onChange();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, delay);
  }

  private live(): Client {
    if (this.status !== "connected" || !this.client) {
      throw new Error(
        `the MCP server \`${this.name}\` is not connected (${this.status}${this.error ? `: ${this.error}` : ""})`,
      );
    }
    return this.client;
  }

  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number) {
    return this.live().callTool({ name: tool, arguments: args }, undefined, {
      signal,
      timeout: timeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: () => undefined,
    });
  }

  async readResource(uri: string, signal: AbortSignal, timeoutMs: number) {
    return this.live().readResource({ uri }, { signal, timeout: timeoutMs });
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const c = this.client;
    this.client = undefined;
    this.transport = undefined;
    this.status = "disabled";
    await c?.close().catch(() => undefined);
  }
}

/** The environment a stdio server inherits: enough to find programs and a home, not the editor's secrets. */
function defaultEnv(): Record<string, string> {
  const keep =
    process.platform === "win32"
      ? [
          "APPDATA",
          "HOMEDRIVE",
          "HOMEPATH",
          "LOCALAPPDATA",
          "PATH",
          "PROCESSOR_ARCHITECTURE",
          "SYSTEMDRIVE",
          "SYSTEMROOT",
          "TEMP",
          "USERNAME",
          "USERPROFILE",
          "PROGRAMFILES",
        ]
      : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG"];
  const out: Record<string, string> = {};
  for (const k of keep) {
    const v = process.env[k];
    if (v !== undefined && !v.startsWith("()")) out[k] = v;
  }
  return out;
}
