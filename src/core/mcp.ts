import type { McpServers } from "./settingsModel";

/**
 * MCP approval facts. The gate decides on the exact tool name that will be called: when the model misspells a
 * name (`get-weather` for `get_weather`), the caller repairs it against the server's real tool list with
 * `repairMcpToolName` first, and asks the gate about the repaired name — so a repair can never borrow the
 * approval of another tool.
 */

export type McpLookup =
  | { readonly ok: true; readonly alwaysAllowed: boolean }
  | { readonly ok: false; readonly reason: string; readonly rule: string };

export function lookupMcpTool(servers: McpServers, server: string, tool: string | undefined): McpLookup {
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

/** The real tool a requested name refers to: exact match first, else a unique hyphen/underscore variant. */
export function repairMcpToolName(requested: string, available: readonly string[]): string | undefined {
  if (available.includes(requested)) return requested;
  const matches = available.filter((t) => norm(t) === norm(requested));
  return matches.length === 1 ? matches[0] : undefined;
}
