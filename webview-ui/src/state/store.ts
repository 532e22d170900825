/**
 * The webview's copy of host state. Host messages are queued and applied in one batch per animation frame,
 * so however many messages arrive, React renders at most once per frame. Deltas replace only the message
 * objects they touch; unchanged rows keep their identity and their memoised rendering.
 */
import type { MessageDelta, TaskMessage } from "../../../src/shared/messages";
import type {
  HistoryItemView,
  HostToWebview,
  McpView,
  ModelView,
  PresetOffer,
  RulesView,
  SettingsView,
  TaskView,
} from "../../../src/shared/protocol";

export type RevealTarget = "autoApprove" | "input" | "mcp" | "rules" | "askFeedback";

/** Characters of a streaming text the view keeps ready as a tail (rows show at most this much). */
export const TAIL_CHARS = 64_000;
const tails = new WeakMap<TaskMessage, string>();

/**
 * The last TAIL_CHARS characters of a message's text, kept up to date by appends so a row can show the tail
 * of a 1 MB stream without copying the whole text every frame (slicing a string that was built by appends
 * makes the engine flatten all of it first).
 */
export function textTail(m: TaskMessage): string {
  return tails.get(m) ?? (m.text.length > TAIL_CHARS ? m.text.slice(m.text.length - TAIL_CHARS) : m.text);
}

export interface ViewState {
  /** False until the first `state` snapshot arrived. */
  readonly connected: boolean;
  readonly task: TaskView | null;
  readonly settings: SettingsView | null;
  readonly mcp: McpView | null;
  readonly agentAvailable: boolean;
  /** Bumped on each reveal so the same target can be revealed twice. */
  readonly reveal: { readonly target: RevealTarget; readonly seq: number } | null;
  /** Every remembered rule (Rules view); null until the host sent them. */
  readonly rules: RulesView | null;
  /** Past tasks, newest first. */
  readonly history: readonly HistoryItemView[];
  /** The model new tasks use (null until the host has looked). */
  readonly model: ModelView | null;
  /** The first-run preset card, while the host offers it. */
  readonly presetOffer: PresetOffer | null;
}

export type Scheduler = (fn: () => void) => void;

// Read through globalThis so this module also type-checks where the DOM library is absent (host tests drive it).
export const frameScheduler: Scheduler = (fn) => {
  const raf = (globalThis as { requestAnimationFrame?: (cb: () => void) => number }).requestAnimationFrame;
  if (typeof raf === "function") raf(() => fn());
  else setTimeout(fn, 16);
};

const INITIAL: ViewState = {
  connected: false,
  task: null,
  settings: null,
  mcp: null,
  agentAvailable: false,
  reveal: null,
  rules: null,
  history: [],
  model: null,
  presetOffer: null,
};

export interface ResultMessage {
  readonly ok: boolean;
  readonly error?: string;
}

export class Store {
  private state: ViewState = INITIAL;
  private pending: HostToWebview[] = [];
  private scheduled = false;
  private readonly listeners = new Set<() => void>();
  private readonly resultListeners = new Set<(requestId: number, result: ResultMessage) => void>();
  private index = new Map<number, number>();
  /** Number of batches applied (each is at most one React render). */
  flushCount = 0;

  constructor(private readonly schedule: Scheduler = frameScheduler) {}

  getState = (): ViewState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  onResult(listener: (requestId: number, result: ResultMessage) => void): () => void {
    this.resultListeners.add(listener);
    return () => this.resultListeners.delete(listener);
  }

  /** Queue a host message; applied on the next frame together with everything else that arrived. */
  receive(message: HostToWebview): void {
    this.pending.push(message);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Applies everything queued and notifies once. Exposed for tests and the benchmark. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    let s = this.state;
    let messages: TaskMessage[] | undefined; // copy-on-first-write within this batch
    const results: Array<[number, ResultMessage]> = [];
    for (const m of batch) {
      switch (m.type) {
        case "state":
          messages = undefined;
          s = {
            ...s,
            connected: true,
            task: m.state.task,
            settings: m.state.settings,
            mcp: m.state.mcp,
            agentAvailable: m.state.agentAvailable,
            rules: m.state.rules ?? null,
            history: m.state.history ?? [],
            model: m.state.model ?? null,
            presetOffer: m.state.presetOffer ?? null,
          };
          this.reindex(s.task);
          break;
        case "task":
          messages = undefined;
          s = { ...s, task: m.task };
          this.reindex(m.task);
          break;
        case "taskState":
          if (s.task && s.task.id === m.taskId) s = { ...s, task: { ...s.task, state: m.state } };
          break;
        case "taskTaint":
          if (s.task && s.task.id === m.taskId) {
            const { untrustedSources: _old, ...rest } = s.task;
            s = { ...s, task: m.sources.length > 0 ? { ...rest, untrustedSources: m.sources } : rest };
          }
          break;
        case "deltas":
          if (!s.task || s.task.id !== m.taskId) break;
          messages ??= s.task.messages.slice();
          for (const d of m.deltas) this.applyDelta(messages, d);
          s = { ...s, task: { ...s.task, messages } };
          break;
        case "settings":
          s = { ...s, settings: m.settings };
          break;
        case "mcp":
          s = { ...s, mcp: m.mcp };
          break;
        case "rules":
          s = { ...s, rules: m.rules };
          break;
        case "reveal":
          s = { ...s, reveal: { target: m.target, seq: (s.reveal?.seq ?? 0) + 1 } };
          break;
        case "history":
          s = { ...s, history: m.history };
          break;
        case "model":
          s = { ...s, model: m.model };
          break;
        case "restoreMarks":
          if (s.task && s.task.id === m.taskId) s = { ...s, task: { ...s.task, restoreMarks: m.marks } };
          break;
        case "result":
          results.push([m.requestId, m.error !== undefined ? { ok: m.ok, error: m.error } : { ok: m.ok }]);
          break;
      }
    }
    this.state = s;
    this.flushCount++;
    for (const l of this.listeners) l();
    for (const [id, r] of results) for (const l of this.resultListeners) l(id, r);
  }

  private reindex(task: TaskView | null): void {
    this.index = new Map();
    task?.messages.forEach((m, i) => this.index.set(m.id, i));
  }

  private applyDelta(messages: TaskMessage[], d: MessageDelta): void {
    if (d.type === "add") {
      const at = this.index.get(d.message.id);
      if (at !== undefined)
        messages[at] = d.message; // re-add replaces (idempotent)
      else {
        this.index.set(d.message.id, messages.length);
        messages.push(d.message);
      }
      return;
    }
    const at = this.index.get(d.id);
    if (at === undefined) return; // a delta for a message we never saw: the next snapshot will fix it
    const old = messages[at]!;
    if (d.type === "append") {
      const next = { ...old, text: old.text + d.text };
      if (next.text.length > TAIL_CHARS) {
        const tail = textTail(old) + d.text;
        tails.set(next, tail.length > TAIL_CHARS ? tail.slice(tail.length - TAIL_CHARS) : tail);
      }
      messages[at] = next;
    } else {
      messages[at] = { ...old, ...d.patch, id: old.id };
    }
  }
}
