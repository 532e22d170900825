/**
 * The webview's side of the channel: posts intents to the host and matches `result`s to requests.
 * `acquireVsCodeApi` may be called once per page load; tests pass a fake `VsCodeApi`.
 */
import type { WebviewToHost } from "../../../src/shared/protocol";
import type { ResultMessage, Store } from "./store";

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}

/** Messages that carry a requestId, without it: the bridge assigns one. */
type RequestBody<T = WebviewToHost> = T extends { requestId: number } ? Omit<T, "requestId"> : never;
export type Request = RequestBody;

export class Bridge {
  // Random start: a result for a request sent before a webview reload must not match a new request.
  private nextId = Math.floor(Math.random() * 1_000_000_000);
  private readonly waiting = new Map<number, (r: ResultMessage) => void>();
  private readonly errorListeners = new Set<(error: string) => void>();

  constructor(
    private readonly api: VsCodeApi,
    store: Store,
  ) {
    store.onResult((id, result) => {
      const done = this.waiting.get(id);
      this.waiting.delete(id);
      if (result.error) for (const l of this.errorListeners) l(result.error);
      done?.(result);
    });
  }

  post(message: WebviewToHost): void {
    this.api.postMessage(message);
  }

  /** Sends a request and resolves with the host's `result` (errors are also reported to onError). */
  request(body: Request): Promise<ResultMessage> {
    const requestId = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(requestId, resolve);
      this.api.postMessage({ ...body, requestId });
    });
  }

  onError(listener: (error: string) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** UI-only state that survives a webview reload (draft text, open panels); task state comes from the host. */
  getUiState<T extends object>(): Partial<T> {
    const s = this.api.getState();
    return typeof s === "object" && s !== null ? (s as Partial<T>) : {};
  }

  setUiState(patch: object): void {
    this.api.setState({ ...this.getUiState(), ...patch });
  }
}
