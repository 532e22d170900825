import { errorResult, str, type ToolHandler } from "../types";

/**
 * Calls the tool the gate judged: its canonical name was repaired against the server's tool list before the
 * decision. When the server was not running at decision time (its list unknown), the name is repaired now and,
 * if that changes it, the gate decides again on the real name before anything is called.
 */
export const useMcpToolHandler: ToolHandler = {
  name: "use_mcp_tool",
  async execute(call, ctx) {
    const hub = ctx.env.mcp;
    if (!hub) return errorResult("No MCP servers are available in this session.");
    let decided = call;
    const server = decided.mcp?.server ?? str(call.params, "server_name");
    await hub.ensureStarted?.(server);
    const real = hub.resolveToolName(server, str(decided.params, "tool_name"));
    if (!real)
      return errorResult(`The MCP server \`${server}\` has no enabled tool \`${str(call.params, "tool_name")}\`.`);
    // Decided without the server's list (it was not running): the gate judges the real name and the tool's
    // annotations. With the same name and no annotations the decision could not differ, so it is not repeated.
    const info = hub
      .servers()
      .find((x) => x.name === server)
      ?.tools.find((t) => t.name === real);
    const annotated = info?.readOnlyHint !== undefined || info?.destructiveHint !== undefined;
    if (real === decided.mcp?.tool && !decided.mcp.listed && annotated && ctx.approvedByPerson) {
      // The person approved this very name; the annotations can only add a refusal (plan mode, a deny rule).
      const d = ctx.config.callbacks.decide({ tool: "use_mcp_tool", params: decided.params }, ctx.messageId);
      if (d.decision === "deny") return errorResult(`Refused by the gate: ${d.reason} (rule: ${d.rule}).`);
      if (d.resolved) decided = d.resolved;
    } else if (real !== decided.mcp?.tool || (!decided.mcp.listed && annotated)) {
      const again = await ctx.decideAgain({ ...decided.params, tool_name: real });
      if ("result" in again) return again.result;
      decided = again.call;
      if (decided.mcp?.tool !== real)
        return errorResult(`The MCP tool \`${real}\` could not be decided; it was not called.`);
    }
    const rawArgs = str(decided.params, "arguments").trim();
    let args: Record<string, unknown> = {};
    if (rawArgs !== "") {
      try {
        args = JSON.parse(rawArgs) as Record<string, unknown>;
      } catch (e) {
        return errorResult(`\`arguments\` must be a JSON object: ${(e as Error).message}`);
      }
    }
    try {
      const r = await hub.callTool(server, real, args, ctx.signal);
      return { content: r.text || "(the tool returned no content)", isError: r.isError };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return errorResult(
        `The MCP tool \`${real}\` on \`${server}\` failed: ${(e as Error).message}. The server may have stopped; you can try again or continue without it.`,
      );
    }
  },
};
