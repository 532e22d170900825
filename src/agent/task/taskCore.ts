/**
 * What the parts of a task share (task.ts runs the loop, modelTurn.ts one model turn, toolCalls.ts the calls
 * of a turn, asks.ts the person's verdicts): its messages, its conversation with the model, the calls still to
 * be answered, its state and who listens to it, saving, and the cancel signal.
 *
 * Invariant: `state` changes through `setState` (which saves and tells the listeners); only restoring a
 * saved task sets it directly.
 */
import type { CheckpointService } from "../checkpoints/types";
import type { AskChannel } from "../env";
import type { TaskConfig } from "../executor/taskConfig";
import type { ContentPart, ConversationMessage, ModelProvider } from "../providers/types";
import type { ToolEnv } from "../tools/types";
import { parseTaintState } from "../../core/taint";
import { MessageStore, type MessageStoreOptions } from "./messageStore";
import type { PendingTurn, TaskPersistence, TaskSnapshot, TaskState } from "./snapshot";

export interface TaskDeps {
  readonly provider: ModelProvider;
  readonly config: TaskConfig;
  readonly env: ToolEnv;
  readonly ask: AskChannel;
  /** Where the task is saved: a writer, or a factory given the task's snapshot function (`history.writer`). */
  readonly persistence?: TaskPersistence | ((snapshot: () => TaskSnapshot) => TaskPersistence);
  readonly parentId?: string;
  readonly customInstructions?: string;
  /** Reserve for the model's answer when trimming (tokens). */
  readonly outputReserve?: number;
  /** Turns in a row without a tool call before the task stops and asks the person. */
  readonly maxTurnsWithoutTools?: number;
  readonly store?: MessageStoreOptions;
  /** Called once when the task stops (to release its executor config). */
  readonly onEnd?: (state: TaskState) => void;
  /** Records a checkpoint before each call that may change files, so the row can restore to before it. */
  readonly checkpoints?: CheckpointService;
}

/** Thrown through the loop when the task is cancelled; the loop answers what is pending and ends "cancelled". */
export class Cancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

export class TaskCore {
  readonly store: MessageStore;
  /** Replaced only by `renewCancel`, while no run is in progress: every use reads it afresh. */
  private controller = new AbortController();
  conversation: ConversationMessage[];
  /** Conversation trimming: messages before this index (after the first) are no longer sent. */
  keepFrom: number;
  /** The calls of the last model turn, until every one has its result. */
  pending: PendingTurn | undefined;
  state: TaskState;
  readonly persistence: TaskPersistence | undefined;
  private readonly stateListeners = new Set<(s: TaskState) => void>();

  constructor(
    readonly deps: TaskDeps,
    snapshot: Partial<TaskSnapshot>,
    snapshotOf: () => TaskSnapshot,
  ) {
    this.store = new MessageStore(snapshot.messages ?? [], deps.store);
    this.conversation = [...(snapshot.conversation ?? [])];
    this.keepFrom = snapshot.keepFrom ?? 1;
    this.pending = snapshot.pending
      ? {
          ...snapshot.pending,
          calls: snapshot.pending.calls.map((c) => ({ ...c })),
          results: [...snapshot.pending.results],
        }
      : undefined;
    this.state = snapshot.state ?? "running";
    this.persistence = typeof deps.persistence === "function" ? deps.persistence(snapshotOf) : deps.persistence;
    this.store.onChange(() => this.persistence?.changed());
    // A saved task keeps what it read (a malformed record reads as tainted by `unknown`); the config may
    // already hold a parent's sources, which add up.
    if ("taint" in snapshot) deps.config.taint.merge(parseTaintState(snapshot.taint));
    deps.config.taint.onChange(() => this.persistence?.changed());
  }

  get abort(): AbortController {
    return this.controller;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A cancelled task the person replies to runs again: its next run gets a signal of its own. */
  renewCancel(): void {
    if (this.controller.signal.aborted) this.controller = new AbortController();
  }

  setState(s: TaskState): void {
    const changed = s !== this.state;
    this.state = s;
    this.persistence?.changed();
    if (changed) for (const l of [...this.stateListeners]) l(s);
  }

  onStateChange(listener: (s: TaskState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  throwIfCancelled(): void {
    if (this.controller.signal.aborted) throw new Cancelled();
  }

  /** Writes the messages and the task now (an ask waits, a call with effects starts, the task ends): await it. */
  saveNow(): Promise<void> | undefined {
    this.store.flush();
    return this.persistence?.flush();
  }

  /** Adds to the conversation's last user message, or starts one (the API requires alternation). */
  pushUser(parts: readonly ContentPart[]): void {
    const last = this.conversation[this.conversation.length - 1];
    if (last?.role === "user")
      this.conversation[this.conversation.length - 1] = { role: "user", content: [...last.content, ...parts] };
    else this.conversation.push({ role: "user", content: [...parts] });
    this.persistence?.changed();
  }
}
