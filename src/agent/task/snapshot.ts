/** The persisted shape of a task: enough to show it as it was and to resume it (a pending ask stays pending). */
import type { TaskMessage } from "../../shared/messages";
import type { ConversationMessage, ToolResultPart } from "../providers/types";
import type { PendingSandboxAsk } from "../sandbox/pendingSandboxAsk";
import type { TaintState } from "../../core/taint";

export type TaskState = "running" | "waiting" | "completed" | "cancelled" | "failed" | "interrupted";

export interface PendingCall {
  readonly toolUseId: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly messageId: number;
  /** Malformed arguments: answered with this error, never run. */
  readonly error?: string;
  state: "queued" | "running" | "done";
  /** A command waiting on a sandbox ask after it ran: a reload resumes that ask (see PendingSandboxAsk). */
  sandboxAsk?: PendingSandboxAsk;
}

export interface PendingTurn {
  readonly calls: PendingCall[];
  readonly results: ToolResultPart[];
  /** A call in this turn was rejected: later ones are answered "not run". */
  skipRest: boolean;
  outcome?: "completion" | "handover";
}

/** What names a task and where it stands: the snapshot's head, and (with its cost) a history index entry. */
export interface TaskHeader {
  readonly id: string;
  readonly parentId?: string;
  readonly title: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly state: TaskState;
}

export interface TaskSnapshot extends TaskHeader {
  readonly version: 1;
  readonly messages: readonly TaskMessage[];
  readonly conversation: readonly ConversationMessage[];
  /** Conversation trimming: messages before this index (after the first) are no longer sent. */
  readonly keepFrom: number;
  readonly pending?: PendingTurn;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number };
  /** The untrusted sources the task has read, and those the person trusted (absent: none; core/taint.ts). */
  readonly taint?: TaintState;
}

/** What the task tells its history: something changed (debounced), or write now (asks, the end). */
export interface TaskPersistence {
  changed(): void;
  flush(): Promise<void>;
}
