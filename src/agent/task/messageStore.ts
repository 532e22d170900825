/**
 * A task's message list and the deltas that describe its changes. Text is only ever appended, and appends
 * to one message are coalesced (flushed after `flushMs`, when `maxBuffered` characters wait, or before any
 * other delta so order is kept), so a 1 MB stream in 8,000 chunks goes out as a few dozen `append`s and is
 * never re-sent whole.
 */
import type { MessageDelta, TaskMessage } from "../../shared/messages";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
export type NewMessage = Omit<TaskMessage, "id" | "ts" | "partial" | "text"> & {
  readonly text?: string;
  readonly partial?: boolean;
};

export interface MessageStoreOptions {
  readonly flushMs?: number;
  readonly maxBuffered?: number;
  readonly now?: () => number;
}

export class MessageStore {
  private readonly list: Mutable<TaskMessage>[] = [];
  private readonly byId = new Map<number, Mutable<TaskMessage>>();
  private nextId: number;
  private pendingId: number | undefined;
  private pendingText: string[] = [];
  private pendingLength = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<(d: MessageDelta) => void>();
  private readonly changeListeners = new Set<() => void>();
  private readonly flushMs: number;
  private readonly maxBuffered: number;
  private readonly now: () => number;

  constructor(initial: readonly TaskMessage[] = [], opts: MessageStoreOptions = {}) {
    for (const m of initial) {
      const copy = { ...m };
      this.list.push(copy);
      this.byId.set(copy.id, copy);
    }
    this.nextId = initial.reduce((max, m) => Math.max(max, m.id), 0) + 1;
    this.flushMs = opts.flushMs ?? 50;
    this.maxBuffered = opts.maxBuffered ?? 256 * 1024;
    this.now = opts.now ?? Date.now;
  }

  /** Deltas as the host forwards them to the webview. */
  onDelta(listener: (d: MessageDelta) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Any change at all (for the history writer's debounce); called synchronously, must be cheap. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  get messages(): readonly TaskMessage[] {
    return this.list;
  }

  get(id: number): TaskMessage | undefined {
    return this.byId.get(id);
  }

  add(m: NewMessage): number {
    this.flush();
    const message: Mutable<TaskMessage> = {
      ...m,
      id: this.nextId++,
      ts: this.now(),
      text: m.text ?? "",
      partial: m.partial ?? false,
    };
    this.list.push(message);
    this.byId.set(message.id, message);
    this.emit({ type: "add", message: { ...message } });
    return message.id;
  }

  append(id: number, text: string): void {
    const m = this.byId.get(id);
    if (!m || text === "") return;
    m.text += text;
    if (this.pendingId !== undefined && this.pendingId !== id) this.flush();
    this.pendingId = id;
    this.pendingText.push(text);
    this.pendingLength += text.length;
    this.notifyChange();
    if (this.pendingLength >= this.maxBuffered) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  patch(id: number, patch: Partial<Omit<TaskMessage, "id">>): void {
    const m = this.byId.get(id);
    if (!m) return;
    this.flush();
    Object.assign(m, patch);
    this.emit({ type: "patch", id, patch });
  }

  /** Sends buffered appends now. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pendingId === undefined) return;
    const id = this.pendingId;
    const text = this.pendingText.length === 1 ? this.pendingText[0]! : this.pendingText.join("");
    this.pendingId = undefined;
    this.pendingText = [];
    this.pendingLength = 0;
    for (const l of this.listeners) l({ type: "append", id, text });
  }

  private emit(d: MessageDelta): void {
    for (const l of this.listeners) l(d);
    this.notifyChange();
  }

  private notifyChange(): void {
    for (const l of this.changeListeners) l();
  }
}

/** Applies deltas the way a webview would (used by tests and the bench's fake webview). */
export function applyDelta(list: TaskMessage[], d: MessageDelta): void {
  if (d.type === "add") list.push(d.message);
  else {
    const i = list.findIndex((m) => m.id === d.id);
    if (i < 0) return;
    const m = list[i]!;
    list[i] = d.type === "append" ? { ...m, text: m.text + d.text } : { ...m, ...d.patch };
  }
}
