/**
 * Coalesces a task's deltas so the host posts at most one `deltas` message per interval (~one frame), however
 * fast tokens arrive. Adjacent appends to the same message are merged into one, so a 1 MB stream in thousands
 * of chunks crosses the channel as a few hundred messages whose text adds up to the 1 MB, never re-sent.
 *
 * Order is preserved: merging only touches adjacent deltas of the same message, which commute with nothing
 * else in between.
 */
import type { MessageDelta } from "../shared/messages";

export interface Timer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimer: Timer = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export const FRAME_MS = 16;

export class DeltaBatcher {
  private pending: MessageDelta[] = [];
  private handle: unknown = undefined;

  constructor(
    private readonly flushFn: (deltas: readonly MessageDelta[]) => void,
    private readonly intervalMs = FRAME_MS,
    private readonly timer: Timer = realTimer,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  push(delta: MessageDelta): void {
    const last = this.pending[this.pending.length - 1];
    const merged = last ? merge(last, delta) : undefined;
    if (merged) this.pending[this.pending.length - 1] = merged;
    else this.pending.push(delta);
    if (this.handle === undefined) this.handle = this.timer.set(() => this.flush(), this.intervalMs);
  }

  /** Sends what is pending now (before a snapshot or a task-state change, so order holds). */
  flush(): void {
    if (this.handle !== undefined) {
      this.timer.clear(this.handle);
      this.handle = undefined;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushFn(batch);
  }

  dispose(): void {
    if (this.handle !== undefined) this.timer.clear(this.handle);
    this.handle = undefined;
    this.pending = [];
  }
}

/** Merges `b` into `a` when applying the result equals applying `a` then `b`; otherwise undefined. */
function merge(a: MessageDelta, b: MessageDelta): MessageDelta | undefined {
  if (b.type === "append") {
    if (a.type === "append" && a.id === b.id) return { type: "append", id: a.id, text: a.text + b.text };
    if (a.type === "add" && a.message.id === b.id)
      return { type: "add", message: { ...a.message, text: a.message.text + b.text } };
    return undefined;
  }
  if (b.type === "patch") {
    if (a.type === "patch" && a.id === b.id) return { type: "patch", id: a.id, patch: { ...a.patch, ...b.patch } };
    if (a.type === "add" && a.message.id === b.id) return { type: "add", message: { ...a.message, ...b.patch } };
  }
  return undefined;
}
