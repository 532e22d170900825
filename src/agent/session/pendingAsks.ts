/**
 * An AskChannel the host can answer by message id, exactly once: the first answer to a pending ask wins and
 * returns true; any other answer (again, unknown id, withdrawn ask) returns false and changes nothing, so two
 * webviews answering the same ask cannot both win.
 */
import type { AskResponse } from "../../shared/messages";
import type { AskChannel } from "../env";

export class PendingAsks implements AskChannel {
  private readonly waiting = new Map<number, (r: AskResponse) => void>();
  private readonly listeners = new Set<() => void>();
  /** Asks whose answer the person gave and the host is about to deliver (see `AskChannel.answering`). */
  private readonly held = new Set<number>();

  ask(messageId: number, signal: AbortSignal): Promise<AskResponse> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new Error("withdrawn"));
      this.waiting.set(messageId, (r) => {
        signal.removeEventListener("abort", onAbort);
        resolve(r);
      });
      const onAbort = (): void => {
        this.waiting.delete(messageId);
        this.changed();
        reject(new Error("withdrawn"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.changed();
    });
  }

  /** The person answered this ask; the answer follows once the rule it grants is in effect. */
  hold(messageId: number): void {
    if (this.waiting.has(messageId)) this.held.add(messageId);
  }

  answering(messageId: number): boolean {
    return this.held.has(messageId);
  }

  answer(messageId: number, response: AskResponse): boolean {
    this.held.delete(messageId);
    const resolve = this.waiting.get(messageId);
    if (!resolve) return false;
    this.waiting.delete(messageId);
    resolve(response);
    this.changed();
    return true;
  }

  pending(): number[] {
    return [...this.waiting.keys()];
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
