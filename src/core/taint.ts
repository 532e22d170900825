/**
 * Untrusted content in, data out needs a person (DESIGN, Principles; decision order step 3).
 *
 * A task's taint is a set of *sources*: the places it has read content from that someone else may have written.
 * A source is a plain string chosen to read well in a sentence:
 * - a `web_fetch` result: the URL's host (`docs.example.com`);
 * - an MCP tool result: `server/tool`; an MCP resource: `server (resource)` — unless the server is `trusted`;
 * - a command's output: `command: LINE` (shortened), when it may have reached the network;
 * - `unknown`: the state that should name the sources could not be read (fail closed).
 *
 * Invariants:
 * - Sources are only ever added by results; no tool result removes one. Only the person can stop a source
 *   counting ("Trust this source for this task"), and that, too, is kept for the rest of the task.
 * - The set is deterministic: sorted, no duplicates, so the same history gives the same reason.
 */
import type { McpServers } from "./settingsModel";
import type { ResolvedCall } from "./resolvedCall";

export const UNTRUSTED_CONTENT_RULE = "untrusted-content";

/** The source named when the record of a task's or session's sources could not be read. */
export const UNKNOWN_SOURCE = "unknown";

/** What is saved with a task (and in a hook's session file). */
export interface TaintState {
  /** Every source read so far, sorted. */
  readonly sources: readonly string[];
  /** Sources the person trusted for this task: they no longer count, even if read again. */
  readonly trusted: readonly string[];
}

export const EMPTY_TAINT: TaintState = { sources: [], trusted: [] };

function sortedUnique(xs: Iterable<string>): string[] {
  return [...new Set(xs)].sort();
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === "string" && x !== "");
}

/**
 * A saved state read back. Absent means none was saved (a task from before taint existed: nothing read
 * then counted); anything malformed is read as tainted by `unknown`, never as clean.
 */
export function parseTaintState(raw: unknown): TaintState {
  if (raw === undefined) return EMPTY_TAINT;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { sources: [UNKNOWN_SOURCE], trusted: [] };
  const r = raw as Record<string, unknown>;
  const sources = isStringList(r.sources) ? r.sources : undefined;
  const trusted = r.trusted === undefined ? [] : isStringList(r.trusted) ? r.trusted : undefined;
  if (!sources || !trusted) return { sources: sortedUnique([...(sources ?? []), UNKNOWN_SOURCE]), trusted: [] };
  return { sources: sortedUnique(sources), trusted: sortedUnique(trusted) };
}

/** The sources that count: read and not trusted by the person. */
export function activeSources(state: TaintState): readonly string[] {
  const trusted = new Set(state.trusted);
  return state.sources.filter((s) => !trusted.has(s));
}

/** One task's taint (a sub-task starts from a copy of its parent's). Listeners hear every change. */
export class TaskTaint {
  private readonly sources: Set<string>;
  private readonly trustedSources: Set<string>;
  private readonly listeners = new Set<() => void>();

  constructor(state: TaintState = EMPTY_TAINT) {
    this.sources = new Set(state.sources);
    this.trustedSources = new Set(state.trusted);
  }

  /** Adds sources; true when the set changed. */
  add(sources: Iterable<string>): boolean {
    let changed = false;
    for (const s of sources) {
      if (s === "" || this.sources.has(s)) continue;
      this.sources.add(s);
      changed = true;
    }
    if (changed) this.emit();
    return changed;
  }

  /** The person trusted `source` for the rest of this task; true when that changed anything. */
  trust(source: string): boolean {
    if (!this.sources.has(source) || this.trustedSources.has(source)) return false;
    this.trustedSources.add(source);
    this.emit();
    return true;
  }

  /** Everything of another state: its sources and the sources its person trusted (a sub-task's, a parent's). */
  merge(state: TaintState): boolean {
    const before = this.sources.size + this.trustedSources.size;
    for (const s of state.trusted) if (state.sources.includes(s)) this.trustedSources.add(s);
    for (const s of state.sources) this.sources.add(s);
    const changed = this.sources.size + this.trustedSources.size !== before;
    if (changed) this.emit();
    return changed;
  }

  get active(): readonly string[] {
    return activeSources(this.state());
  }

  state(): TaintState {
    return { sources: sortedUnique(this.sources), trusted: sortedUnique(this.trustedSources) };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }
}

/** How a finished call ran, as far as taint cares. */
export interface CallOutcome {
  /** A command: it ran inside the OS sandbox (undefined: not known, read as outside). */
  readonly sandboxed?: boolean;
}

const MAX_COMMAND_LABEL = 60;

/** The source a command's output is named by (`command: LINE`, shortened). */
export function commandLabel(line: string): string {
  const one = line.replace(/\s+/g, " ").trim();
  return `command: ${one.length > MAX_COMMAND_LABEL ? one.slice(0, MAX_COMMAND_LABEL - 1) + "…" : one}`;
}

/** Whether the settings mark `server` trusted (only user and managed settings can: see settingsLayers.ts). */
export function mcpServerTrusted(servers: McpServers, server: string): boolean {
  return Object.prototype.hasOwnProperty.call(servers, server) && servers[server]?.trusted === true;
}

/**
 * The source a call's result brings into the task, or undefined when what it returns cannot carry someone
 * else's words. Judged on the resolved call that ran. A command taints when the line was granted hosts, or when
 * it ran outside the sandbox without being judged read-only: the analysis does not say whether such a line
 * reached the network, so it is taken to have.
 */
export function taintSourceOf(call: ResolvedCall, servers: McpServers, outcome: CallOutcome = {}): string | undefined {
  if (call.tool === "web_fetch") return call.url?.host || "the web";
  if (call.tool === "use_mcp_tool" || call.tool === "access_mcp_resource") {
    const server = call.mcp?.server ?? String(call.params.server_name ?? "");
    if (mcpServerTrusted(servers, server)) return undefined;
    return call.tool === "use_mcp_tool"
      ? `${server}/${call.mcp?.tool ?? String(call.params.tool_name ?? "")}`
      : `${server} (resource)`;
  }
  if (call.command && (call.tool === "execute_command" || call.tool === "attempt_completion")) {
    const hosts = call.command.grant?.hosts ?? [];
    if (hosts.length > 0) return commandLabel(call.command.line);
    if (outcome.sandboxed !== true && call.command.readOnly !== true) return commandLabel(call.command.line);
  }
  return undefined;
}

/** The sources, as one phrase: "tracker/fetch_issue", "a, b and c". */
export function describeSources(sources: readonly string[]): string {
  if (sources.length <= 1) return sources[0] ?? "";
  return `${sources.slice(0, -1).join(", ")} and ${sources[sources.length - 1]}`;
}

/** The hard ask's reason: who may have written what the task read, and where the data would go. */
export function untrustedContentReason(sources: readonly string[], destination: string): string {
  return (
    `This task read content from ${describeSources(sources)}, which may carry instructions from someone else. ` +
    `Sending data to ${destination} needs your approval.`
  );
}

/** The chip's and the audit log's line. */
export function taintLine(sources: readonly string[]): string {
  return sources.length === 0 ? "no untrusted content read" : `read untrusted content from ${describeSources(sources)}`;
}
