/**
 * The task message model shared by the agent runtime, the host and the webview. Type-only.
 * The host owns the list; the webview renders it. A message is appended once and then changed only
 * by deltas (text appended, fields patched), so a 1 MB stream never re-sends what was already sent.
 */
import type { Decision } from "../core/types";

export type MessageRole = "say" | "ask";

export type MessageKind =
  | "user" // the task text or a follow-up the person typed
  | "text" // assistant prose
  | "reasoning"
  | "tool" // a tool call: read, edit, command, MCP, fetch...
  | "command_output"
  | "followup" // ask_followup_question
  | "completion" // attempt_completion result
  | "api_request" // one model turn: tokens and cost when it ends
  | "limit" // maxRequests / maxCost reached: "reset and continue"
  | "error"
  | "info"; // trimming notices, retries, interruptions

export type ToolStatus =
  | "streaming" // arguments still arriving
  | "pending" // waiting for the person
  | "approved"
  | "running"
  | "done"
  | "rejected"
  | "denied" // refused by the gate
  | "error"
  | "interrupted"; // the stream was cut: never executed

export interface ToolInfo {
  readonly name: string;
  /** Best-effort params, string-valued for display; complete once `status` leaves "streaming". */
  readonly params: Readonly<Record<string, string>>;
  readonly status: ToolStatus;
  readonly decision?: Decision;
  /** For file edits: the path shown in the diff. For MCP: server and tool. */
  readonly serverName?: string;
  readonly toolName?: string;
  /** Result text (truncated for display) once done. */
  readonly result?: string;
  /** Commands: the working directory the decided command runs in (shown on the approval card). */
  readonly cwd?: string;
  /** Commands: whether it ran inside the OS sandbox (absent: not known, or no sandbox configured). */
  readonly sandboxed?: boolean;
}

export interface TaskMessage {
  readonly id: number;
  readonly ts: number;
  readonly role: MessageRole;
  readonly kind: MessageKind;
  readonly text: string;
  readonly partial: boolean;
  readonly tool?: ToolInfo;
  /** For `followup`: clickable options. */
  readonly options?: readonly string[];
  /** Present on asks: pending until answered exactly once. */
  readonly askState?: "pending" | "answered";
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number };
  /**
   * A failed model request that is retried automatically: one row for every attempt of the turn. While `at`
   * is set, attempt number `attempt` (of `of`) starts at that time (epoch ms), unless the person retries at
   * once or stops; without `at` the retries are used up (`attempt` attempts were made) and the row asks.
   */
  readonly retry?: { readonly attempt: number; readonly of: number; readonly at?: number };
}

/** A person's answer to an ask. Feedback text goes to the model with either answer. */
export interface AskResponse {
  readonly kind: "approve" | "reject" | "message" | "resetLimits";
  readonly text?: string;
}

/** One change to a task's message list, as the host broadcasts it. */
export type MessageDelta =
  | { readonly type: "add"; readonly message: TaskMessage }
  | { readonly type: "append"; readonly id: number; readonly text: string }
  | { readonly type: "patch"; readonly id: number; readonly patch: Partial<Omit<TaskMessage, "id">> };
