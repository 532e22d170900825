import type { McpServers } from "./settingsModel";

/**
 * MCP approval facts. The gate decides on the exact tool name that will be called: when the model misspells a
 * name (`get-weather` for `get_weather`), the caller repairs it against the server's real tool list with
 * `repairMcpToolName` — the gate does this itself in its first step, against the hub's tool list — so rules,
 * `alwaysAllow` and the handler all see the repaired name, and a repair can never borrow another tool's approval.
 */

/** One tool of a running server, as its `tools/list` described it. */
export interface McpListedTool {
  readonly name: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly openWorldHint?: boolean;
}

export type McpLookup =
  | { readonly ok: true; readonly alwaysAllowed: boolean }
  | { readonly ok: false; readonly reason: string; readonly rule: string };

/** `mcp__server__tool` must name one server: a `__` inside a server name makes the rule ambiguous. */
export function mcpServerNameProblem(name: string): string | undefined {
  return name.includes("__")
    ? `the MCP server name \`${name}\` contains \`__\`, which makes \`mcp__server__tool\` rules ambiguous; rename it`
    : undefined;
}

export function lookupMcpTool(servers: McpServers, server: string, tool: string | undefined): McpLookup {
  const bad = mcpServerNameProblem(server);
  if (bad) return { ok: false, reason: bad, rule: "mcp:server-name" };
  const cfg = Object.prototype.hasOwnProperty.call(servers, server) ? servers[server] : undefined;
  if (!cfg) {
    const known = Object.keys(servers);
    const hint = known.length > 0 ? ` (configured: ${known.join(", ")})` : " (none is configured)";
    return { ok: false, reason: `there is no MCP server named \`${server}\`${hint}`, rule: "mcp:unknown-server" };
  }
  if (cfg.disabled)
    return { ok: false, reason: `the MCP server \`${server}\` is disabled`, rule: "mcp:server-disabled" };
  if (tool === undefined) return { ok: true, alwaysAllowed: false };
  if (cfg.disabledTools.includes(tool))
    return { ok: false, reason: `the MCP tool \`${tool}\` of \`${server}\` is disabled`, rule: "mcp:tool-disabled" };
  return { ok: true, alwaysAllowed: cfg.alwaysAllow.includes("*") || cfg.alwaysAllow.includes(tool) };
}

const norm = (s: string) => s.replace(/-/g, "_");

/**
 * One key for every spelling that may name the same MCP server or tool: `-` and `_` alike, letter case folded
 * (servers and agents spell the same tool both ways; Claude Code rewrites names). Deny and ask rules match by
 * this key, so no spelling slips past them; allow rules and `alwaysAllow` never do — they name one exact tool,
 * and a variant spelling could be another tool of the same server.
 */
export function mcpNameKey(name: string): string {
  return norm(name).toLowerCase();
}

/** The real tool a requested name refers to: exact match first, else a unique hyphen/underscore variant. */
export function repairMcpToolName(requested: string, available: readonly string[]): string | undefined {
  if (available.includes(requested)) return requested;
  const matches = available.filter((t) => norm(t) === norm(requested));
  return matches.length === 1 ? matches[0] : undefined;
}
