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

  answer(messageId: number, response: AskResponse): boolean {
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
