import { errorResult, str, type ToolHandler } from "../types";

export const accessMcpResourceHandler: ToolHandler = {
  name: "access_mcp_resource",
  async execute(call, ctx) {
    const params = call.params;
    const hub = ctx.env.mcp;
    if (!hub) return errorResult("No MCP servers are available in this session.");
    const server = str(params, "server_name");
    const uri = str(params, "uri");
    // A server held in Restricted Mode starts once a call to it was approved (this one).
    await hub.ensureStarted?.(server);
    try {
      const r = await hub.readResource(server, uri, ctx.signal);
      return { content: r.text || "(the resource is empty)", isError: r.isError };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return errorResult(`Reading \`${uri}\` from \`${server}\` failed: ${(e as Error).message}`);
    }
  },
};
