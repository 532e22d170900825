/**
 * One schema definition per tool. The same definition produces the system-prompt description and each
 * provider's native tool schema, so what the model reads and what it can call never drift apart.
 */
import type { ToolName } from "../../core/types";

export type ParamType = "string" | "boolean" | "array";

export interface ToolParam {
  readonly name: string;
  readonly type: ParamType;
  readonly description: string;
  readonly required: boolean;
}

export interface ToolDefinition {
  readonly name: ToolName;
  readonly description: string;
  readonly params: readonly ToolParam[];
  /**
   * The long parameter the person watches stream (file content, a diff, a command). The runtime streams it as
   * the tool message's text; every other parameter goes into `tool.params`.
   */
  readonly body?: string;
}

const p = (name: string, type: ParamType, description: string, required = true): ToolParam => ({
  name,
  type,
  description,
  required,
});

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  {
    name: "read_file",
    description: "Read a file's contents. The path is relative to the first workspace folder unless absolute.",
    params: [p("path", "string", "Path of the file to read.")],
  },
  {
    name: "write_to_file",
    description: "Create a file or replace its whole content. Always send the complete content; parents are created.",
    params: [
      p("path", "string", "Path of the file to write."),
      p("content", "string", "The complete new file content."),
    ],
    body: "content",
  },
  {
    name: "replace_in_file",
    description:
      "Edit part of a file with SEARCH/REPLACE blocks. Each block is:\n------- SEARCH\n<exact lines to find>\n=======\n<replacement>\n+++++++ REPLACE\n" +
      "SEARCH text must match the file exactly (whitespace included) and blocks must be in file order.",
    params: [
      p("path", "string", "Path of the file to edit."),
      p("diff", "string", "One or more SEARCH/REPLACE blocks."),
    ],
    body: "diff",
  },
  {
    name: "list_files",
    description: "List files and directories. Ignored files, .git and node_modules are left out.",
    params: [
      p("path", "string", "Directory to list."),
      p("recursive", "boolean", "List the whole tree instead of one level.", false),
    ],
  },
  {
    name: "search_files",
    description:
      "Search file contents with a regular expression (Rust/JavaScript syntax); returns matching lines with context.",
    params: [
      p("path", "string", "Directory to search in, recursively."),
      p("regex", "string", "Regular expression to search for."),
      p("file_pattern", "string", "Glob to filter file names, e.g. *.ts.", false),
    ],
  },
  {
    name: "execute_command",
    description:
      "Run a shell command in the first workspace folder. Output is captured and capped; long-running servers should not be started.",
    params: [
      p("command", "string", "The command line to run."),
      p(
        "requires_approval",
        "boolean",
        "Set true for commands that change state, delete, install or reach the network.",
        false,
      ),
      p(
        "sandbox",
        "boolean",
        "Set false only to ask the person to run this command outside the OS sandbox (after it failed because of the sandbox); needs `reason`. The person always decides.",
        false,
      ),
      p("reason", "string", "With sandbox: false, why the command must run outside the sandbox.", false),
    ],
    body: "command",
  },
  {
    name: "use_mcp_tool",
    description: "Call a tool of a connected MCP server (listed below with their input schemas).",
    params: [
      p("server_name", "string", "Name of the MCP server."),
      p("tool_name", "string", "Name of the tool."),
      p("arguments", "string", "The tool's arguments as a JSON object string."),
    ],
    body: "arguments",
  },
  {
    name: "access_mcp_resource",
    description: "Read a resource of a connected MCP server.",
    params: [p("server_name", "string", "Name of the MCP server."), p("uri", "string", "URI of the resource.")],
  },
  {
    name: "web_fetch",
    description: "Fetch a URL and return its content as readable text (HTML converted to Markdown), capped in size.",
    params: [p("url", "string", "http(s) URL to fetch.")],
  },
  {
    name: "ask_followup_question",
    description: "Ask the person a question when you cannot go on without their answer.",
    params: [
      p("question", "string", "The question."),
      p("options", "array", "Up to 5 short answers the person can pick.", false),
    ],
    body: "question",
  },
  {
    name: "attempt_completion",
    description:
      "Present the result once the task is done. Optionally give a command that shows the result (it is checked like any command).",
    params: [
      p("result", "string", "What was done, as a final statement."),
      p("command", "string", "A command that demonstrates the result.", false),
    ],
    body: "result",
  },
  {
    name: "new_task",
    description: "Propose starting a new task with the given context (the person decides).",
    params: [p("context", "string", "Everything the new task needs to know.")],
    body: "context",
  },
];

const BY_NAME = new Map<string, ToolDefinition>(TOOL_DEFINITIONS.map((d) => [d.name, d]));

export function toolDefinition(name: string): ToolDefinition | undefined {
  return BY_NAME.get(name);
}

/** Tools the model may see: every definition except those the gate refuses outright. */
export function visibleTools(denied: readonly string[]): ToolDefinition[] {
  const hidden = new Set(denied);
  return TOOL_DEFINITIONS.filter((d) => !hidden.has(d.name));
}

export interface JsonSchemaObject {
  readonly type: "object";
  readonly properties: Record<string, { type: string; description: string; items?: { type: string } }>;
  readonly required: string[];
  readonly additionalProperties: false;
}

export function inputSchema(def: ToolDefinition): JsonSchemaObject {
  const properties: JsonSchemaObject["properties"] = {};
  for (const prm of def.params) {
    properties[prm.name] =
      prm.type === "array"
        ? { type: "array", description: prm.description, items: { type: "string" } }
        : { type: prm.type, description: prm.description };
  }
  return {
    type: "object",
    properties,
    required: def.params.filter((x) => x.required).map((x) => x.name),
    additionalProperties: false,
  };
}

export function openAiTools(defs: readonly ToolDefinition[]): unknown[] {
  return defs.map((d) => ({
    type: "function",
    function: { name: d.name, description: d.description, parameters: inputSchema(d) },
  }));
}

export function anthropicTools(defs: readonly ToolDefinition[]): unknown[] {
  return defs.map((d) => ({ name: d.name, description: d.description, input_schema: inputSchema(d) }));
}

/** The tool section of the system prompt, from the same definitions. */
export function describeTools(defs: readonly ToolDefinition[]): string {
  return defs
    .map((d) => {
      const params = d.params
        .map((x) => `- ${x.name} (${x.type}${x.required ? ", required" : ", optional"}): ${x.description}`)
        .join("\n");
      return `## ${d.name}\n${d.description}\nParameters:\n${params}`;
    })
    .join("\n\n");
}
