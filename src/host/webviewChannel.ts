/**
 * One connected webview (the sidebar view or an editor tab), seen from the host.
 *
 * Handshake invariant: nothing is posted before the webview said `ready`. A `ready` is answered with a full
 * state snapshot (by the controller), so state messages posted before it are dropped, not queued: replaying
 * them after the snapshot would apply a delta twice. One-off messages (`result`, `reveal`) are queued and
 * delivered right after the snapshot. When a webview goes away (hidden view, reload) it is "not ready" again
 * until its next `ready`.
 */
import type { HostToWebview } from "../shared/protocol";

export type PostFn = (message: HostToWebview) => PromiseLike<boolean> | boolean;

const QUEUED: ReadonlySet<HostToWebview["type"]> = new Set(["result", "reveal"]);
/** A webview that never becomes ready must not make the host hold an unbounded queue. */
const MAX_QUEUE = 100;

export class WebviewChannel {
  private isReady = false;
  /** Bumped by every open(): a failed post from an earlier document must not close a newer one. */
  private generation = 0;
  private queue: HostToWebview[] = [];

  constructor(
    readonly name: string,
    private readonly postFn: PostFn,
  ) {}

  get ready(): boolean {
    return this.isReady;
  }

  /** Posts now if ready; otherwise queues one-off messages and drops state (the snapshot will cover it). */
  post(message: HostToWebview): void {
    if (this.isReady) {
      this.send(message);
    } else if (QUEUED.has(message.type)) {
      this.queue.push(message);
      if (this.queue.length > MAX_QUEUE) this.queue.shift();
    }
  }

  /** Called by the controller on `ready`: the snapshot first, then what was queued. */
  open(snapshot: HostToWebview): void {
    this.isReady = true;
    this.generation++;
    this.send(snapshot);
    const queued = this.queue;
    this.queue = [];
    for (const m of queued) this.send(m);
  }

  /** The webview's document is gone (hidden, reloading, disposed). */
  close(): void {
    this.isReady = false;
  }

  private send(message: HostToWebview): void {
    // postMessage resolves false when the webview is gone; the next `ready` brings a fresh snapshot.
    const generation = this.generation;
    const lost = (): void => {
      if (generation === this.generation) this.isReady = false;
    };
    let result: PromiseLike<boolean> | boolean;
    try {
      result = this.postFn(message);
    } catch {
      lost();
      return;
    }
    void Promise.resolve(result).then((delivered) => {
      if (!delivered) lost();
    }, lost);
  }
}
