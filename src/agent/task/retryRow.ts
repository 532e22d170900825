/**
 * One row for all automatic retries of a model turn: created at the first failure, then updated in place with
 * the next attempt's time ("Retrying in 8 s… (attempt 2 of 6)"), never a new message per attempt. While it
 * counts down it is an ask the task does not wait on: the person may retry at once (approve) or stop (reject);
 * the task stays "running", so nothing claims the person's attention for a retry that happens on its own.
 * When the retries are used up, the same row becomes the turn's "retry or stop" ask.
 */
import { ProviderError, type RetryInfo } from "../providers/types";
import { sleep } from "../providers/http";
import type { TaskCore } from "./taskCore";

export class RetryRow {
  private id: number | undefined;
  private attempts = 0;

  constructor(private readonly core: TaskCore) {}

  /** The row's id once a failure was shown. */
  get messageId(): number | undefined {
    return this.id;
  }

  /** The provider's wait before attempt `info.attempt + 1`: resolves when it is due or the person says "now". */
  readonly wait = async (info: RetryInfo, signal: AbortSignal): Promise<void> => {
    const store = this.core.store;
    this.attempts = info.attempt;
    const fields = {
      text: info.reason,
      askState: "pending" as const,
      retry: { attempt: info.attempt + 1, of: info.maxAttempts, at: Date.now() + info.delayMs },
    };
    if (this.id === undefined) this.id = store.add({ role: "ask", kind: "error", ...fields });
    else store.patch(this.id, fields);
    const withdraw = new AbortController();
    const stop = (): void => withdraw.abort();
    signal.addEventListener("abort", stop, { once: true });
    const answer = this.core.deps.ask.ask(this.id, withdraw.signal).catch(() => undefined);
    try {
      const due = sleep(info.delayMs, withdraw.signal).then(
        () => undefined,
        () => undefined,
      );
      const r = await Promise.race([answer, due]);
      if (signal.aborted) throw new ProviderError("cancelled", "aborted");
      if (r?.kind === "reject") throw new ProviderError(info.reason, "stopped");
    } finally {
      withdraw.abort(); // the ask is withdrawn whichever way the wait ended
      signal.removeEventListener("abort", stop);
      store.patch(this.id, { askState: "answered" });
    }
  };

  /**
   * The turn failed for good: the row (or a new one) asks "retry or stop". Returns its id; undefined when the
   * person already chose Stop (the row then says so, and nothing more is asked).
   */
  fail(message: string, stopped: boolean): number | undefined {
    const store = this.core.store;
    const tried = Math.max(1, this.attempts + (stopped ? 0 : 1));
    if (stopped) {
      const text = `${message} Stopped after ${tried} ${tried === 1 ? "attempt" : "attempts"}.`;
      if (this.id === undefined) store.add({ role: "say", kind: "error", text });
      else store.patch(this.id, { role: "say", text, askState: "answered", retry: { attempt: tried, of: tried } });
      return undefined;
    }
    const fields = { text: message, askState: "pending" as const, retry: { attempt: tried, of: tried } };
    if (this.id === undefined) this.id = store.add({ role: "ask", kind: "error", ...fields });
    else store.patch(this.id, { role: "ask", ...fields });
    return this.id;
  }
}
