/** What a tool call is about, in a person's words: icon, verb, and the subject (path, command, URL…). */
import type { TaskMessage, ToolInfo } from "../../../src/shared/messages";

/**
 * Each tool's "body" parameter (mirrors `body` in src/agent/tools/definitions.ts). The runtime streams the
 * body as the message's text and leaves it out of `tool.params`, so a 1 MB file is never sent twice.
 */
export const TOOL_BODY: Readonly<Record<string, string>> = {
  write_to_file: "content",
  replace_in_file: "diff",
  execute_command: "command",
  use_mcp_tool: "arguments",
  ask_followup_question: "question",
  attempt_completion: "result",
  new_task: "context",
};

/** The body of a tool call: from params when present (older shapes, tests), else the message text. */
export function toolBody(m: TaskMessage): string {
  const key = m.tool ? TOOL_BODY[m.tool.name] : undefined;
  if (!m.tool || key === undefined) return "";
  return m.tool.params[key] ?? m.text;
}

export type ToolFamily = "read" | "edit" | "command" | "mcp" | "fetch" | "other";

export interface ToolSummary {
  readonly family: ToolFamily;
  readonly icon: string;
  readonly title: string;
  /** The thing acted on; rendered with invisible characters made visible. */
  readonly subject?: string;
}

export function toolSummary(tool: ToolInfo, body = ""): ToolSummary {
  const p = tool.params;
  switch (tool.name) {
    case "read_file":
      return { family: "read", icon: "file", title: "Read file", subject: p.path };
    case "list_files":
      return {
        family: "read",
        icon: "list-tree",
        title: p.recursive === "true" ? "List files (recursive)" : "List files",
        subject: p.path,
      };
    case "search_files":
      return {
        family: "read",
        icon: "search",
        title: "Search files",
        subject:
          p.regex !== undefined
            ? `${p.regex}  in  ${p.path ?? "."}${p.file_pattern ? `  (${p.file_pattern})` : ""}`
            : p.path,
      };
    case "write_to_file":
      return { family: "edit", icon: "new-file", title: "Write file", subject: p.path };
    case "replace_in_file":
      return { family: "edit", icon: "edit", title: "Edit file", subject: p.path };
    case "execute_command":
      return { family: "command", icon: "terminal", title: "Run command", subject: p.command ?? body };
    case "use_mcp_tool":
      return {
        family: "mcp",
        icon: "plug",
        title: "MCP tool",
        subject: `${tool.serverName ?? p.server_name ?? "?"} › ${tool.toolName ?? p.tool_name ?? "?"}`,
      };
    case "access_mcp_resource":
      return {
        family: "mcp",
        icon: "plug",
        title: "MCP resource",
        subject: `${tool.serverName ?? p.server_name ?? "?"} › ${p.uri ?? "?"}`,
      };
    case "web_fetch":
      return { family: "fetch", icon: "globe", title: "Fetch web page", subject: p.url };
    case "new_task":
      return { family: "other", icon: "tasklist", title: "Start subtask", subject: p.context ?? body };
    case "attempt_completion":
      return { family: "command", icon: "check-all", title: "Complete task", subject: p.command };
    default:
      return { family: "other", icon: "tools", title: tool.name };
  }
}

/** MCP arguments are a JSON string: pretty-print when it parses, else show it as sent. */
export function prettyArguments(raw: string | undefined): string {
  if (raw === undefined || raw === "") return "{}";
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
