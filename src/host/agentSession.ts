/**
 * Glue between the agent's `Task` (src/agent/task/task.ts) and the host's `TaskSession`. The host answers
 * asks through `answerAsk`; the runtime waits on them through the `AskChannel` this session hands it.
 *
 * Exactly once: an ask is answerable from the moment the runtime registers it until the first answer, a
 * cancel, or the runtime withdrawing it (gate changed while waiting). The runtime marks the message
 * "answered" only after it resumes, so the map of waiting asks, not the message, is the authority.
 */
import type { AskChannel } from "../agent/env";
import type { AskResponse, MessageDelta, TaskMessage } from "../shared/messages";
import type { TaskState } from "../shared/protocol";
import type { Disposable, Listener, TaskSession } from "./taskSession";

/** The parts of the agent's `Task` the session uses (structural, so tests can drive it with a fake). */
export interface RuntimeTask {
  readonly id: string;
  readonly currentState: TaskState;
  readonly store: {
    readonly messages: readonly TaskMessage[];
    /** Emits buffered appends now. */
    flush(): void;
    onDelta(listener: (d: MessageDelta) => void): () => void;
  };
  run(): Promise<TaskState>;
  sendMessage(text: string): Promise<TaskState>;
  cancel(): void;
}

interface Waiting {
  resolve(r: AskResponse): void;
  reject(e: Error): void;
}

export class AgentTaskSession implements TaskSession {
  private task: RuntimeTask | undefined;
  private current: TaskState = "running";
  private readonly waiting = new Map<number, Waiting>();
  private readonly deltaListeners = new Set<Listener<MessageDelta>>();
  private readonly stateListeners = new Set<Listener<TaskState>>();
  private unsubscribe: (() => void) | undefined;

  /** Give this to the runtime as `TaskDeps.ask`. */
  readonly askChannel: AskChannel = { ask: (id, signal) => this.register(id, signal) };

  /**
   * @param createTask builds the runtime task for the person's first message (with `askChannel` as its ask
   *   channel); called by `start`.
   */
  constructor(
    readonly id: string,
    private readonly createTask: (text: string, ask: AskChannel) => RuntimeTask,
  ) {}

  /**
   * A task restored from history after a window reload: shown as it was; a pending ask is waited on again
   * (the runtime re-registers it when it runs), an interrupted task waits for a message to resume.
   */
  static restore(id: string, restoreTask: (ask: AskChannel) => RuntimeTask): AgentTaskSession {
    const s = new AgentTaskSession(id, () => {
      throw new Error("a restored task is already started");
    });
    const task = restoreTask(s.askChannel);
    s.attach(task);
    s.current = task.currentState;
    if (task.currentState === "waiting" || task.currentState === "running") s.track(task.run());
    return s;
  }

  get state(): TaskState {
    return this.current;
  }

  start(text: string): void {
    if (this.task) throw new Error("the task has already started");
    const task = this.createTask(text, this.askChannel);
    this.attach(task);
    this.setState("running");
    this.track(task.run());
  }

  sendMessage(text: string): void {
    if (!this.task) throw new Error("the task has not started");
    this.setState("running");
    this.track(this.task.sendMessage(text));
  }

  onDelta(listener: Listener<MessageDelta>): Disposable {
    this.deltaListeners.add(listener);
    return { dispose: () => this.deltaListeners.delete(listener) };
  }

  onStateChange(listener: Listener<TaskState>): Disposable {
    this.stateListeners.add(listener);
    return { dispose: () => this.stateListeners.delete(listener) };
  }

  answerAsk(messageId: number, response: AskResponse): boolean {
    const w = this.waiting.get(messageId);
    if (!w) return false;
    this.waiting.delete(messageId);
    if (this.waiting.size === 0 && this.current === "waiting") this.setState("running");
    w.resolve(response);
    return true;
  }

  cancel(): void {
    this.task?.cancel();
    for (const [id, w] of this.waiting) {
      this.waiting.delete(id);
      w.reject(new Error("cancelled"));
    }
  }

  /** Flushes the runtime's buffered appends first (they reach listeners before the list is returned). */
  snapshot(): readonly TaskMessage[] {
    if (!this.task) return [];
    this.task.store.flush();
    return this.task.store.messages.slice();
  }

  dispose(): void {
    this.unsubscribe?.();
    this.deltaListeners.clear();
    this.stateListeners.clear();
  }

  // ---------------------------------------------------------------------------------------------------

  private attach(task: RuntimeTask): void {
    this.task = task;
    // Messages the runtime created before we could listen (the person's first message) go out as adds,
    // so a webview that took a snapshot before `start` sees them exactly once.
    for (const m of task.store.messages) this.emit({ type: "add", message: m });
    this.unsubscribe = task.store.onDelta((d) => this.emit(d));
  }

  private register(messageId: number, signal: AbortSignal): Promise<AskResponse> {
    return new Promise<AskResponse>((resolve, reject) => {
      if (signal.aborted) return reject(new Error("withdrawn"));
      this.waiting.get(messageId)?.reject(new Error("asked again"));
      const entry: Waiting = {
        resolve: (r) => {
          signal.removeEventListener("abort", onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      const onAbort = (): void => {
        if (this.waiting.get(messageId) === entry) this.waiting.delete(messageId);
        reject(new Error("withdrawn"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(messageId, entry);
      this.setState("waiting");
    });
  }

  private track(run: Promise<TaskState>): void {
    run.then(
      (s) => this.setState(s),
      () => this.setState("failed"),
    );
  }

  private setState(s: TaskState): void {
    if (s === this.current) return;
    this.current = s;
    for (const l of this.stateListeners) l(s);
  }

  private emit(d: MessageDelta): void {
    for (const l of this.deltaListeners) l(d);
  }
}
