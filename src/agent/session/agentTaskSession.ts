/**
 * The agent's task as the host's `TaskSession` (src/host/taskSession.ts) sees it — matched structurally, so
 * the agent does not depend on the host. Deltas are forwarded synchronously and in order; `snapshot()` first
 * flushes coalesced appends, so it reflects every delta emitted before it and nothing is sent twice.
 */
import type { AskResponse, MessageDelta, TaskMessage } from "../../shared/messages";
import type { CheckpointService } from "../checkpoints/types";
import type { ToolExecutor } from "../executor/toolExecutor";
import type { TaskHistory } from "../history/taskHistory";
import type { ModelProvider } from "../providers/types";
import { Task } from "../task/task";
import type { TaskSnapshot, TaskState as AgentState } from "../task/snapshot";
import type { ToolEnv } from "../tools/types";
import { activeSources, EMPTY_TAINT, parseTaintState, type TaintState } from "../../core/taint";
import type { TaskConfig } from "../executor/taskConfig";
import { PendingAsks } from "./pendingAsks";

export type SessionState = "running" | "waiting" | "done" | "cancelled" | "error";

export interface AgentSessionDeps {
  readonly executor: ToolExecutor;
  /** The model to use (may ask SecretStorage for a key, hence async). */
  readonly provider: () => ModelProvider | Promise<ModelProvider>;
  readonly env: ToolEnv;
  readonly history?: TaskHistory;
  readonly customInstructions?: string;
  /** The checkpoint service for a task's roots (fixed when the task starts, as its gate's roots are). */
  readonly checkpoints?: (taskId: string, roots: readonly string[]) => CheckpointService | undefined;
}

interface Disposable {
  dispose(): void;
}

/** A task's state as the host's session states name it. */
export function mapState(s: AgentState): SessionState {
  switch (s) {
    case "running":
      return "running";
    case "waiting":
      return "waiting";
    case "completed":
      return "done";
    case "cancelled":
      return "cancelled";
    default:
      return "error"; // failed, interrupted
  }
}

/** How a session begins: a new task, a saved task resumed as it was, or a saved task continued by a reply. */
type Boot =
  | { readonly kind: "new"; readonly text: string }
  | { readonly kind: "resume" }
  | { readonly kind: "reply"; readonly text: string };

/** A saved task can be continued when its conversation with the model was saved with it. */
export function canContinue(snap: TaskSnapshot): boolean {
  return snap.version === 1 && snap.conversation.length > 0;
}

export class AgentTaskSession {
  private task: Task | undefined;
  private currentState: SessionState;
  private booting = false;
  private readonly asks = new PendingAsks();
  private readonly deltaListeners = new Set<(d: MessageDelta) => void>();
  private readonly stateListeners = new Set<(s: SessionState) => void>();
  private readonly taintListeners = new Set<(sources: readonly string[]) => void>();
  private config: TaskConfig | undefined;
  private readonly early: TaskMessage[] = [];
  private cancelled = false;

  constructor(
    readonly id: string,
    private readonly deps: AgentSessionDeps,
    private readonly restoreFrom?: TaskSnapshot,
    /** A sub-task: the untrusted sources its parent had read when it handed over. */
    private readonly inheritedTaint?: TaintState,
  ) {
    // A saved task opened from history shows its own end state until it is resumed or continued.
    this.currentState = restoreFrom ? mapState(restoreFrom.state) : "running";
  }

  /** Opened from history (not started in this window). */
  get fromHistory(): boolean {
    return this.restoreFrom !== undefined;
  }

  /** Whether a reply can continue this task (a new task always can, once it is idle). */
  get canContinue(): boolean {
    return !this.restoreFrom || canContinue(this.restoreFrom);
  }

  get state(): SessionState {
    return this.currentState;
  }

  start(text: string): void {
    void this.boot({ kind: "new", text });
  }

  /** A restored session: resumes the loop, so a pending ask is asked again. */
  resume(): void {
    void this.boot({ kind: "resume" });
  }

  /**
   * A reply while the task is idle continues it: the model gets the whole saved conversation plus the reply.
   * A task opened from history is restored first (not before: opening one only shows it).
   */
  sendMessage(text: string): void {
    // A reply to a cancelled task runs it again (the task renews its own cancel signal).
    this.cancelled = false;
    if (this.task) {
      void this.task.sendMessage(text).then(
        (end) => this.setState(mapState(end)),
        (e: unknown) => this.fail(e),
      );
      return;
    }
    if (!this.canContinue) throw new Error("this saved task cannot be continued; start a new one");
    if (this.booting) throw new Error("the task is starting; wait a moment");
    void this.boot({ kind: "reply", text });
  }

  private async boot(how: Boot): Promise<void> {
    this.booting = true;
    if (how.kind === "reply") this.setState("running");
    try {
      const config = await this.deps.executor.asToolConfig(this.id, undefined, this.inheritedTaint);
      this.config = config;
      config.taint.onChange(() => {
        const sources = config.taint.active;
        for (const l of [...this.taintListeners]) l(sources);
      });
      const provider = await this.deps.provider();
      const checkpoints = this.deps.checkpoints?.(this.id, config.roots);
      // The baseline is taken while the model thinks, so the first checkpoint is incremental.
      void checkpoints?.warm().catch(() => undefined);
      const taskDeps = {
        provider,
        config,
        env: this.deps.env,
        ask: this.asks,
        ...(this.deps.history ? { persistence: this.deps.history.writer.bind(this.deps.history) } : {}),
        ...(this.deps.customInstructions ? { customInstructions: this.deps.customInstructions } : {}),
        onEnd: () => {
          this.deps.executor.release(this.id);
          // The task's private sandbox /tmp goes with it (a reply that continues it starts a fresh one).
          this.deps.env.runner.endTask?.(this.id);
        },
        ...(checkpoints ? { checkpoints } : {}),
        store: { flushMs: 16 },
      };
      const task =
        this.restoreFrom && how.kind !== "new"
          ? Task.restore(taskDeps, this.restoreFrom)
          : Task.create(taskDeps, how.kind === "new" ? how.text : "", this.id);
      this.task = task;
      this.booting = false;
      // The saved messages were already shown (snapshot()): only what restoring changed goes out again.
      const shown = new Map(this.restoreFrom?.messages.map((m) => [m.id, m]) ?? []);
      for (const m of task.store.messages) {
        const before = shown.get(m.id);
        if (!before) this.emit({ type: "add", message: { ...m } });
        else if (JSON.stringify(before) !== JSON.stringify(m)) {
          const { id, ...patch } = m;
          this.emit({ type: "patch", id, patch });
        }
      }
      task.store.onDelta((d) => this.emit(d));
      task.onStateChange((s) => this.setState(mapState(s)));
      if (this.cancelled) task.cancel();
      const end = await (how.kind === "reply" ? task.sendMessage(how.text) : task.run());
      this.setState(mapState(end));
    } catch (e) {
      this.booting = false;
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    const message: TaskMessage = {
      id: 1_000_000 + this.early.length,
      ts: Date.now(),
      role: "say",
      kind: "error",
      text: `The task could not ${this.task ? "continue" : "start"}: ${(e as Error).message}`,
      partial: false,
    };
    this.early.push(message);
    this.emit({ type: "add", message });
    this.setState("error");
  }

  private emit(d: MessageDelta): void {
    for (const l of this.deltaListeners) l(d);
  }

  private setState(s: SessionState): void {
    if (s === this.currentState) return;
    this.currentState = s;
    for (const l of this.stateListeners) l(s);
  }

  onDelta(listener: (d: MessageDelta) => void): Disposable {
    this.deltaListeners.add(listener);
    return { dispose: () => this.deltaListeners.delete(listener) };
  }

  /** The task's untrusted sources that still count; before it boots, what its snapshot or parent says. */
  untrustedSources(): readonly string[] {
    if (this.config) return this.config.taint.active;
    const saved = this.restoreFrom && "taint" in this.restoreFrom ? parseTaintState(this.restoreFrom.taint) : undefined;
    return activeSources(saved ?? this.inheritedTaint ?? EMPTY_TAINT);
  }

  onTaintChange(listener: (sources: readonly string[]) => void): Disposable {
    this.taintListeners.add(listener);
    return { dispose: () => this.taintListeners.delete(listener) };
  }

  onStateChange(listener: (s: SessionState) => void): Disposable {
    this.stateListeners.add(listener);
    return { dispose: () => this.stateListeners.delete(listener) };
  }

  /**
   * A rule granted on an approval card: the live gates are rebuilt, so the next decision uses it. `answering`
   * is the ask the rule was granted with: it waits for the person's own answer rather than being settled by
   * the rebuilt gate, so its row says the person approved (or rejected) it.
   */
  rulesChanged(answering?: number): Promise<void> {
    if (answering !== undefined) this.asks.hold(answering);
    return this.deps.executor.settingsChanged();
  }

  answerAsk(messageId: number, response: AskResponse): boolean {
    return this.asks.answer(messageId, response);
  }

  cancel(): void {
    this.cancelled = true;
    this.task?.cancel();
  }

  snapshot(): readonly TaskMessage[] {
    if (!this.task) return [...(this.restoreFrom?.messages.map((m) => ({ ...m })) ?? []), ...this.early];
    this.task.store.flush();
    return [...this.task.store.messages.map((m) => ({ ...m })), ...this.early];
  }

  /** For the history view and tests: the underlying task, once booted. */
  get agentTask(): Task | undefined {
    return this.task;
  }
}
