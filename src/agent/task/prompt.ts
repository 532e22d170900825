/** The system prompt: role, rules, the tools (from the same definitions as the native schemas), MCP servers, environment. */
import { describeTools, type ToolDefinition } from "../tools/definitions";
import type { McpServerSummary } from "../mcp/types";

export interface PromptInput {
  readonly tools: readonly ToolDefinition[];
  readonly roots: readonly string[];
  readonly mcpServers?: readonly McpServerSummary[];
  readonly platform?: string;
  readonly shell?: string;
  readonly customInstructions?: string;
}

function mcpSection(servers: readonly McpServerSummary[] | undefined): string {
  const live = (servers ?? []).filter((s) => s.status === "connected");
  if (live.length === 0) return "No MCP servers are connected.";
  return live
    .map((s) => {
      const tools = s.tools
        .map((t) => {
          const hints = [t.readOnlyHint ? "read-only" : "", t.destructiveHint ? "destructive" : ""]
            .filter(Boolean)
            .join(", ");
          return `- ${t.name}${hints ? ` (${hints})` : ""}: ${t.description ?? ""}\n  Input schema: ${JSON.stringify(t.inputSchema ?? {})}`;
        })
        .join("\n");
      const resources = s.resources
        .map((r) => `- ${r.uri}${r.name ? ` (${r.name})` : ""}${r.description ? `: ${r.description}` : ""}`)
        .join("\n");
      return `## ${s.name}\n### Tools\n${tools || "(none)"}${resources ? `\n### Resources\n${resources}` : ""}`;
    })
    .join("\n\n");
}

export function buildSystemPrompt(p: PromptInput): string {
  const hasMcp = p.tools.some((t) => t.name === "use_mcp_tool" || t.name === "access_mcp_resource");
  return [
    "You are Toolgate, a software engineering agent working in the person's workspace through tools.",
    "",
    "# How to work",
    "- Use one or more tools per message; results come back in the next message. Wait for them before assuming success.",
    "- Every tool call passes a gate: it may run at once, wait for the person's approval, or be refused. A refusal states the reason and the rule; do not retry a refused call in another form to get around it.",
    "- Paths are relative to the first workspace folder unless absolute.",
    "- When the task is done, call attempt_completion with a final result (no questions in it).",
    "- Ask with ask_followup_question only when you cannot go on without the person.",
    "",
    "# Tools",
    describeTools(p.tools),
    ...(hasMcp ? ["", "# MCP servers", mcpSection(p.mcpServers)] : []),
    "",
    "# Environment",
    `Workspace folders: ${p.roots.length > 0 ? p.roots.join(", ") : "(none)"}`,
    `Operating system: ${p.platform ?? process.platform}`,
    `Shell for execute_command: ${p.shell ?? (process.platform === "win32" ? "cmd.exe" : "bash")}`,
    ...(p.customInstructions ? ["", "# The person's instructions", p.customInstructions] : []),
  ].join("\n");
}
