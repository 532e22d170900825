/**
 * Scenario 4 of issue 6, against the real @modelcontextprotocol/server-everything over stdio.
 * Not implemented yet: the runner reports it SKIPPED (with the missing features) until its features land on
 * main and `run` is written against them.
 */
import type { Scenario } from "../harness/scenario";

export const mcpAlwaysAllow: Scenario = {
  id: "s4",
  title: "MCP: 'always allow' on one server-everything tool runs it without asking; another still asks; survives a reload",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "settings: toolgate.mcpServers.everything (stdio) and autoApprove useMcp on; the MCP view shows it connected with its tools",
    "tick 'always allow' for echo: user settings.json alwaysAllow contains echo",
    "the model calls use_mcp_tool(everything, echo): runs without an ask, result row shows the echo",
    "the model calls use_mcp_tool(everything, get-sum): an ask appears",
    "reload the window: the echo checkbox is still ticked",
  ],
};
