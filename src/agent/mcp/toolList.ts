import type { McpListedTool } from "../../core/mcp";
import type { McpClientHub } from "./types";

/**
 * The gate's view of the hub: a connected server's enabled tools with their annotations, or undefined while
 * the server is not connected (then the gate judges the name as written, and the handler has it decided
 * again once the server's list is known).
 */
export function mcpToolLister(hub: McpClientHub): (server: string) => readonly McpListedTool[] | undefined {
  return (server) => {
    const s = hub.servers().find((x) => x.name === server);
    if (!s || s.status !== "connected") return undefined;
    return s.tools.map((t) => ({
      name: t.name,
      ...(t.readOnlyHint !== undefined ? { readOnlyHint: t.readOnlyHint } : {}),
      ...(t.destructiveHint !== undefined ? { destructiveHint: t.destructiveHint } : {}),
      ...(t.openWorldHint !== undefined ? { openWorldHint: t.openWorldHint } : {}),
    }));
  };
}
