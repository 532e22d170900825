/** The tool vocabulary the model sees (DESIGN.md). */
export const TOOL_NAMES = [
  "read_file",
  "write_to_file",
  "replace_in_file",
  "list_files",
  "search_files",
  "execute_command",
  "use_mcp_tool",
  "access_mcp_resource",
  "web_fetch",
  "ask_followup_question",
  "attempt_completion",
  "new_task",
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

/** One tool call as the model made it. Params are untrusted: any shape may arrive. */
export interface ToolCall {
  readonly tool: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** What the caller found out before deciding (web_fetch: the addresses the host name resolves to now). */
  readonly facts?: CallFacts;
}

export interface CallFacts {
  readonly addresses?: readonly string[];
}

export type DecisionKind = "allow" | "ask" | "deny";

/**
 * Every gate answer. `reason` is for a person ("`curl` is not in your allow list");
 * `rule` names what decided ("commands.deny: rm", "mode:plan", "autoApprove.readFiles").
 */
export interface Decision {
  readonly decision: DecisionKind;
  readonly reason: string;
  readonly rule: string;
  /** The narrowest allow rule that would have allowed this call, when there is one. */
  readonly suggestion?: string;
}

export type Mode = "normal" | "plan" | "auto";
