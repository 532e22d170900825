/**
 * The task loop: model turn → streamed assistant message → tool blocks → gate → (the person) → execute →
 * results back to the model → next turn, until attempt_completion is accepted, the task is cancelled, or an
 * error the person chooses not to retry. This file owns the task's life (create, restore, snapshot, run,
 * cancel, end) and the loop; the parts it drives are modelTurn.ts (one turn), toolCalls.ts (the turn's
 * calls) and asks.ts (the person's verdicts), over the shared state in taskCore.ts.
 *
 * Invariants:
 * - Tool calls of a turn are executed only after the turn's stream ended cleanly; if it was cut, failed or
 *   was cancelled, none of them runs (they are shown as interrupted) and the turn can be retried.
 * - Every tool_use in the conversation is answered by a tool_result (denied, rejected, skipped, cancelled
 *   calls included), so the conversation stays valid for every provider and after a reload.
 * - Deltas only: the body of a tool call and assistant text stream as appends, never re-sent whole.
 */
import { randomUUID } from "node:crypto";
import { completionMessage, completionVerdict, retryVerdict } from "./asks";
import type { MessageStore } from "./messageStore";
import { ModelTurns } from "./modelTurn";
import type { TaskSnapshot, TaskState } from "./snapshot";
import { Cancelled, TaskCore, type TaskDeps } from "./taskCore";
import { ToolCalls } from "./toolCalls";

export type { TaskDeps } from "./taskCore";

export class Task {
  readonly store: MessageStore;
  private readonly core: TaskCore;
  private readonly calls: ToolCalls;
  private readonly turns: ModelTurns;
  private readonly createdAt: number;
  private readonly title: string;
  private running: Promise<TaskState> | undefined;

  private constructor(
    readonly id: string,
    private readonly deps: TaskDeps,
    snapshot: Partial<TaskSnapshot> & Pick<TaskSnapshot, "title" | "createdAt">,
  ) {
    this.core = new TaskCore(deps, snapshot, () => this.snapshot());
    this.store = this.core.store;
    this.calls = new ToolCalls(this.core, id);
    this.turns = new ModelTurns(this.core, this.calls);
    this.createdAt = snapshot.createdAt;
    this.title = snapshot.title;
  }

  /** A new task for `text`; call `run()` to start it. */
  static create(deps: TaskDeps, text: string, id: string = randomUUID()): Task {
    const t = new Task(id, deps, {
      title: text.slice(0, 120),
      createdAt: Date.now(),
      conversation: [{ role: "user", content: [{ type: "text", text: `<task>\n${text}\n</task>` }] }],
    });
    t.store.add({ role: "say", kind: "user", text });
    return t;
  }

  /**
   * A task from history. Messages left mid-stream are shown as interrupted; a pending ask stays pending and
   * `run()` waits on it again; a call that was running when the window closed is reported to the model as
   * of unknown outcome.
   */
  static restore(deps: TaskDeps, snap: TaskSnapshot): Task {
    const t = new Task(snap.id, deps, snap);
    for (const m of t.store.messages) {
      if (m.tool && (m.tool.status === "streaming" || m.tool.status === "running" || m.tool.status === "approved")) {
        const inPending = t.core.pending?.calls.find((c) => c.messageId === m.id);
        if (!inPending || m.tool.status === "streaming")
          t.store.patch(m.id, { partial: false, tool: { ...m.tool, status: "interrupted" } });
      } else if (m.partial) t.store.patch(m.id, { partial: false });
      // An automatic retry's countdown does not survive a reload: it becomes the "retry or stop" ask.
      if (m.kind === "error" && m.retry?.at !== undefined && m.askState === "pending")
        t.store.patch(m.id, { role: "ask", retry: { attempt: m.retry.attempt - 1, of: m.retry.of } });
    }
    if (snap.state === "running") t.core.state = "interrupted";
    return t;
  }

  get currentState(): TaskState {
    return this.core.state;
  }

  get signal(): AbortSignal {
    return this.core.signal;
  }

  snapshot(): TaskSnapshot {
    const core = this.core;
    core.store.flush();
    const tree = this.deps.config.tree;
    const taint = this.deps.config.taint.state();
    return {
      version: 1,
      id: this.id,
      ...(this.deps.parentId ? { parentId: this.deps.parentId } : {}),
      title: this.title,
      createdAt: this.createdAt,
      updatedAt: Date.now(),
      state: core.state,
      messages: core.store.messages,
      conversation: core.conversation,
      keepFrom: core.keepFrom,
      ...(core.pending ? { pending: core.pending } : {}),
      usage: { inputTokens: tree.inputTokens, outputTokens: tree.outputTokens, costUsd: tree.costUsd },
      ...(taint.sources.length > 0 ? { taint } : {}),
    };
  }

  /** Runs (or resumes) the loop; resolves with the state it stopped in. Calling it while running returns the same run. */
  run(): Promise<TaskState> {
    this.running ??= this.loop().finally(() => (this.running = undefined));
    return this.running;
  }

  /** A message from the person while the task is idle (completed, failed, cancelled, interrupted): continues it. */
  sendMessage(text: string): Promise<TaskState> {
    if (this.running) throw new Error("the task is running; answer its ask instead");
    this.core.renewCancel();
    this.store.add({ role: "say", kind: "user", text });
    this.core.pushUser([{ type: "text", text }]);
    return this.run();
  }

  cancel(): void {
    this.core.abort.abort();
  }

  /** running ⇄ waiting (an ask is pending), then the end state. */
  onStateChange(listener: (s: TaskState) => void): () => void {
    return this.core.onStateChange(listener);
  }

  private async loop(): Promise<TaskState> {
    const core = this.core;
    core.setState("running");
    try {
      // Asks left pending when the task was saved are waited on again.
      // (A completion whose tool is still pending is an approval of its command: that one is in `pending`.)
      const waiting = this.store.messages.find(
        (m) =>
          m.askState === "pending" && ((m.kind === "completion" && m.tool?.status === "done") || m.kind === "error"),
      );
      if (waiting?.kind === "completion") {
        if (!(await completionVerdict(core, waiting.id))) return this.end("completed");
      } else if (waiting?.kind === "error") {
        if (!(await retryVerdict(core, waiting.id))) return this.end("failed");
      }
      for (;;) {
        core.throwIfCancelled();
        if (core.pending) {
          const outcome = await this.calls.process();
          if (outcome === "handover") return this.end("completed");
          if (outcome === "completion") {
            // The completion message itself becomes the ask: accept, or reply with feedback to go on.
            const msgId = completionMessage(core);
            this.store.patch(msgId, { role: "ask", askState: "pending" });
            if (!(await completionVerdict(core, msgId))) return this.end("completed");
          }
          continue;
        }
        const turn = await this.turns.run();
        if (turn === "stop") return this.end("failed");
      }
    } catch (e) {
      if (e instanceof Cancelled || core.signal.aborted) {
        this.calls.answerAsCancelled();
        // No ask outlives the task (a restored task must not wait on one).
        for (const m of this.store.messages)
          if (m.askState === "pending") this.store.patch(m.id, { askState: "answered" });
        this.store.add({ role: "say", kind: "info", text: "The task was cancelled." });
        return this.end("cancelled");
      }
      this.store.add({
        role: "say",
        kind: "error",
        text: `The task stopped on an internal error: ${(e as Error).message}`,
      });
      return this.end("failed");
    }
  }

  private async end(state: TaskState): Promise<TaskState> {
    this.core.setState(state);
    await this.core.saveNow();
    this.deps.onEnd?.(state);
    return state;
  }
}
