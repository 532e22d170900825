/**
 * The MCP hub: one connection per enabled server of `toolgate.mcpServers`. `updateConfig` diffs the new
 * config against the running one and restarts only servers whose command, args, env or url changed — so
 * toggling "always allow" (or disabledTools) never restarts a server nor cancels a call in flight.
 */
import { mcpServerNameProblem, repairMcpToolName } from "../../core/mcp";
import type { McpServers } from "../../core/settingsModel";
import { connectionKey, DEFAULT_RECONNECT, McpConnection, type ReconnectPolicy } from "./connection";
import { contentToText, resourceContentsToText, toolCountWarning } from "./format";
import type { McpCallResult, McpClientHub, McpServerSummary } from "./types";

export interface McpHubOptions {
  readonly clientName?: string;
  readonly clientVersion?: string;
  readonly reconnect?: ReconnectPolicy;
  readonly connectTimeoutMs?: number;
  readonly callTimeoutMs?: number;
  readonly cwd?: string;
  /** Server list or statuses changed (for the UI). */
  readonly onChange?: (servers: readonly McpServerSummary[]) => void;
  /**
   * True while no server may start on its own (Restricted Mode: the folder is not trusted). Servers then wait
   * until `ensureStarted` (a call to one was approved) or `startWaiting` (the folder became trusted).
   */
  readonly holdStart?: () => boolean;
}

export class McpHub implements McpClientHub {
  private readonly connections = new Map<string, McpConnection>();
  private readonly disabled = new Map<string, McpServers[string]>();
  /** Configured but not started (held by `holdStart`). */
  private readonly waiting = new Set<string>();
  private changeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: McpHubOptions = {}) {}

  /** Applies a new config. Resolves once every (re)started server has connected or failed its first attempt. */
  async updateConfig(servers: McpServers): Promise<void> {
    const starting: Promise<void>[] = [];
    for (const [name, conn] of [...this.connections]) {
      const next = Object.prototype.hasOwnProperty.call(servers, name) ? servers[name] : undefined;
      if (!next || next.disabled || connectionKey(next) !== conn.key) {
        this.connections.delete(name);
        await conn.close();
      } else {
        conn.config = next; // alwaysAllow / disabledTools: applied in place
      }
    }
    this.disabled.clear();
    for (const name of [...this.waiting]) if (!this.connections.has(name)) this.waiting.delete(name);
    for (const [name, cfg] of Object.entries(servers)) {
      // `mcp__server__tool` must name one server: a name with `__` is never started.
      if (mcpServerNameProblem(name)) continue;
      if (cfg.disabled) {
        this.disabled.set(name, cfg);
        continue;
      }
      if (this.connections.has(name)) continue;
      const conn = new McpConnection(name, cfg, {
        clientName: this.opts.clientName ?? "toolgate",
        clientVersion: this.opts.clientVersion ?? "0.1.0",
        reconnect: this.opts.reconnect ?? DEFAULT_RECONNECT,
        connectTimeoutMs: this.opts.connectTimeoutMs ?? 30_000,
        ...(this.opts.cwd ? { cwd: this.opts.cwd } : {}),
        onChange: () => this.changed(),
      });
      this.connections.set(name, conn);
      if (this.opts.holdStart?.()) this.waiting.add(name);
      else starting.push(conn.connect());
    }
    this.changed();
    await Promise.all(starting);
  }

  private changed(): void {
    if (!this.opts.onChange || this.changeTimer) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      this.opts.onChange?.(this.servers());
    }, 0);
  }

  /** Starts one held server (its call was approved); resolves once it connected or failed its first attempt. */
  async ensureStarted(server: string): Promise<void> {
    const conn = this.connections.get(server);
    if (!conn || !this.waiting.delete(server)) return;
    await conn.connect();
  }

  /** Starts every held server (the folder became trusted). */
  async startWaiting(): Promise<void> {
    const names = [...this.waiting];
    await Promise.all(names.map((n) => this.ensureStarted(n)));
  }

  servers(): McpServerSummary[] {
    const out = [...this.connections.values()].map((c) => {
      const sum = c.summary();
      return this.waiting.has(c.name)
        ? {
            ...sum,
            status: "disconnected" as const,
            error: "waits until the folder is trusted or a call to it is approved",
          }
        : sum;
    });
    for (const name of this.disabled.keys()) out.push({ name, status: "disabled", tools: [], resources: [] });
    return out;
  }

  /** A warning for the person when more than 60 tools are enabled, else undefined. */
  warning(): string | undefined {
    return toolCountWarning(this.servers());
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  resolveToolName(server: string, tool: string): string | undefined {
    const s = this.connections.get(server)?.summary();
    return s
      ? repairMcpToolName(
          tool,
          s.tools.map((t) => t.name),
        )
      : undefined;
  }

  private conn(server: string): McpConnection {
    const c = this.connections.get(server);
    if (c) return c;
    if (this.disabled.has(server)) throw new Error(`the MCP server \`${server}\` is disabled`);
    throw new Error(`there is no MCP server named \`${server}\``);
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<McpCallResult> {
    const conn = this.conn(server);
    if (!conn.summary().tools.some((t) => t.name === tool))
      throw new Error(`the tool \`${tool}\` of \`${server}\` is disabled or does not exist`);
    const r = await conn.callTool(tool, args, signal, this.opts.callTimeoutMs ?? 10 * 60_000);
    const content = "content" in r && Array.isArray(r.content) ? r.content : [];
    return {
      text: contentToText(content, "structuredContent" in r ? r.structuredContent : undefined),
      isError: r.isError === true,
    };
  }

  async readResource(server: string, uri: string, signal: AbortSignal): Promise<McpCallResult> {
    const r = await this.conn(server).readResource(uri, signal, this.opts.callTimeoutMs ?? 60_000);
    return {
      text: resourceContentsToText(r.contents as { uri: string; text?: string; blob?: string; mimeType?: string }[]),
      isError: false,
    };
  }

  async dispose(): Promise<void> {
    if (this.changeTimer) clearTimeout(this.changeTimer);
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
