/**
 * What the host needs from the agent runtime. The lead connects the agent's real task and MCP hub to these;
 * the host never imports `src/agent` directly, so the panel works (state, settings, MCP config) before the
 * runtime is wired, and tests drive it with fakes.
 */
import type { AskResponse, MessageDelta, TaskMessage } from "../shared/messages";
import type { HistoryItemView, McpServerState, McpToolView, TaskState } from "../shared/protocol";
import type { TaintState } from "../core/taint";

export interface Disposable {
  dispose(): void;
}

export type Listener<T> = (value: T) => void;

/** Rules saved with "always allow/deny" for this task or this workspace; the gate adds them to its layers. */
export interface ExtraRules {
  /** argv-prefix command rules (same syntax as toolgate.commands.allow / .deny). */
  readonly commandsAllow: readonly string[];
  readonly commandsDeny: readonly string[];
  /** `Tool(pattern)` rules (same syntax as toolgate.permissions.allow / .deny). */
  readonly permissionsAllow: readonly string[];
  readonly permissionsDeny: readonly string[];
}

/** Task states in which the task waits for nothing and a follow-up message continues it. */
export const IDLE_STATES: readonly TaskState[] = ["done", "cancelled", "error"];

/**
 * One running (or restored) task. The agent implements it in src/agent/session/agentTaskSession.ts.
 *
 * Invariants the host relies on:
 * - Deltas are emitted synchronously and in order. `snapshot()` may first emit deltas the runtime still
 *   buffers (e.g. `MessageStore.flush()`); the list it returns reflects every delta emitted before it returns.
 *   The host answers a webview's `ready` with `snapshot()` and then forwards only deltas emitted after it.
 * - `answerAsk` accepts an answer for a pending ask exactly once: the first call for a pending ask returns
 *   true, every other call (same ask again, unknown id, an ask that is not pending) returns false and changes
 *   nothing. Two webviews answering the same ask therefore cannot both win.
 */
export interface TaskSession {
  readonly id: string;
  readonly state: TaskState;
  /** Starts the task. The person's text arrives back as the first `user` message delta. */
  start(text: string): void;
  /** A follow-up from the person while the task is idle (see IDLE_STATES): continues it. Optional: without it
   *  the panel says the task cannot be continued. */
  sendMessage?(text: string): void;
  onDelta(listener: Listener<MessageDelta>): Disposable;
  onStateChange(listener: Listener<TaskState>): Disposable;
  answerAsk(messageId: number, response: AskResponse): boolean;
  /**
   * A rule was granted (on the card of ask `answering`, if given): rebuild the running task's gate before its next
   * decision; that ask keeps waiting for the person's answer, which follows.
   */
  rulesChanged?(answering?: number): Promise<void>;
  /** Stops the task; a running command is killed. Idempotent. */
  cancel(): void;
  snapshot(): readonly TaskMessage[];
  /** Opened from the task history (not started in this window). */
  readonly fromHistory?: boolean;
  /** False when a reply cannot continue it (see TaskView.canContinue); absent means it can. */
  readonly canContinue?: boolean;
  /** The untrusted sources the task has read and that still count (core/taint.ts). */
  untrustedSources?(): readonly string[];
  onTaintChange?(listener: Listener<readonly string[]>): Disposable;
}

export interface TaskSessionOptions {
  /** Read per decision: rules saved for this task and this workspace (user rules live in settings). */
  readonly extraRules: () => ExtraRules;
  /** The id to give the task (a handover names its successor before it exists); default: a new one. */
  readonly id?: string;
  /** A handover: the untrusted sources the handing task had read, which the new task starts from. */
  readonly taint?: TaintState;
}

export interface TaskSessionFactory {
  create(options: TaskSessionOptions): TaskSession;
  /** After a window reload: the unfinished task from history, if any, with a pending ask still pending. */
  restore?(options: TaskSessionOptions): TaskSession | undefined;
  /** Past tasks, newest first (subtasks included). */
  history?(): Promise<readonly HistoryItemView[]>;
  /**
   * A past task as a session: shown as it was; a reply continues it; one left waiting on the person is resumed
   * (its ask asked again). Undefined when the history does not hold it.
   */
  open?(id: string, options: TaskSessionOptions): Promise<TaskSession | undefined>;
  /** Deletes a past task from the history, and its checkpoints with it. */
  delete?(id: string): Promise<void>;
}

/** A tool as the hub reports it: the same shape the panel shows (always-allow and enabled come from settings). */
export type McpToolStatus = McpToolView;

export interface McpServerStatus {
  readonly name: string;
  readonly status: McpServerState;
  /** Set when status is "error": the message a person can act on. */
  readonly error?: string;
  readonly tools: readonly McpToolStatus[];
}

/** The MCP hub as the panel sees it. Toggles do not go through here: the host rewrites toolgate.mcpServers. */
export interface McpStatusSource {
  readonly servers: readonly McpServerStatus[];
  onDidChange(listener: () => void): Disposable;
}
