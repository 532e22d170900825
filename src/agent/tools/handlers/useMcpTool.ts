import { errorResult, str, type ToolHandler } from "../types";

export const useMcpToolHandler: ToolHandler = {
  name: "use_mcp_tool",
  async execute(params, ctx) {
    const hub = ctx.env.mcp;
    if (!hub) return errorResult("No MCP servers are available in this session.");
    const server = str(params, "server_name");
    const tool = hub.resolveToolName(server, str(params, "tool_name"));
    if (!tool) return errorResult(`The MCP server \`${server}\` has no enabled tool \`${str(params, "tool_name")}\`.`);
    const rawArgs = str(params, "arguments").trim();
    let args: Record<string, unknown> = {};
    if (rawArgs !== "") {
      try {
        args = JSON.parse(rawArgs) as Record<string, unknown>;
      } catch (e) {
        return errorResult(`\`arguments\` must be a JSON object: ${(e as Error).message}`);
      }
    }
    try {
      const r = await hub.callTool(server, tool, args, ctx.signal);
      return { content: r.text || "(the tool returned no content)", isError: r.isError };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return errorResult(
        `The MCP tool \`${tool}\` on \`${server}\` failed: ${(e as Error).message}. The server may have stopped; you can try again or continue without it.`,
      );
    }
  },
};
