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
  /**
   * The sources of untrusted content the task has read so far (core/taint.ts), given by the task on every
   * decision; absent or empty: none.
   */
  readonly taintedBy?: readonly string[];
  /**
   * Commands: the absolute directory the command starts in (a hook's agent after the model's `cd`); absent: the
   * first workspace root. The command's relative paths and `cd` resolve against it; the roots stay the workspace.
   */
  readonly cwd?: string;
  /** Commands: an auto-approved command would run inside a working OS sandbox now (absent: not known, read as no). */
  readonly commandSandboxed?: boolean;
}

export type DecisionKind = "allow" | "ask" | "deny";

/** A stretch of a command line: `line.slice(start, end)`, offsets in UTF-16 code units. */
export interface SourceSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * Why a call deserves a second look before approving, for the person's view (never an input to a decision):
 * it deletes, writes or reads outside the workspace, writes a protected path, or is a command the analysis
 * could not fully model.
 */
export type CallDanger = "deletes" | "outside" | "protected" | "unparseable";

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
  /** Commands: the parts of the line that decided (sorted, disjoint offsets into the command), when known. */
  readonly spans?: readonly SourceSpan[];
  /** Asks: what makes approving this call risky (display only). */
  readonly danger?: readonly CallDanger[];
  /**
   * Restricted Mode: the decision the rest of the decision order gives when the workspace is treated as trusted,
   * so the person sees the call's own risks. Display only: the call is decided by the untrusted answer.
   */
  readonly ifTrusted?: Omit<Decision, "ifTrusted">;
  /** Untrusted-content asks: the sources behind the ask, which "Trust this source for this task" trusts. */
  readonly taintedBy?: readonly string[];
}

export type Mode = "normal" | "plan" | "auto";
