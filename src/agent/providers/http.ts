/**
 * HTTP with retries for model requests. A request is retried on 429, 5xx and network failures, waiting
 * `retry-after` when the server gives one and exponential backoff otherwise, but only while nothing has
 * been yielded: after partial output a retry would duplicate what the person already saw.
 */
import { ProviderError, type ModelRequest, type StreamEvent } from "./types";

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 30_000 };

export function isRetryable(e: unknown): boolean {
  if (!(e instanceof ProviderError) || e.afterOutput) return false;
  if (e.kind === "network") return true;
  if (e.kind === "http" || e.kind === "api")
    return e.status === 429 || e.status === 408 || e.status === 529 || (e.status !== undefined && e.status >= 500);
  return false;
}

/** `retry-after-ms`, `retry-after` in seconds or as an HTTP date; undefined when absent or unusable. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const ra = headers.get("retry-after");
  if (!ra) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Number(ra) * 1000;
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export class HttpStatusError extends ProviderError {
  constructor(
    message: string,
    status: number,
    readonly headers: Headers,
  ) {
    super(message, "http", status);
  }
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ProviderError("cancelled", "aborted"));
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(new ProviderError("cancelled", "aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** POSTs JSON; returns the response when 2xx, else throws HttpStatusError with the server's message. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (signal.aborted) throw new ProviderError("cancelled", "aborted");
    throw new ProviderError(connectFailure(url, e), "network");
  }
  if (!res.ok) {
    const text = await res.text().catch(() => "");
    throw new HttpStatusError(`${res.status} ${res.statusText}: ${summariseErrorBody(text)}`, res.status, res.headers);
  }
  if (!res.body) throw new ProviderError("the response had no body", "protocol", res.status);
  return res;
}

/** Node's error codes for a request that never got an answer, in words. */
const NETWORK_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "Could not connect to",
  ECONNRESET: "The connection was dropped by",
  ENOTFOUND: "Could not find the server",
  EAI_AGAIN: "Could not look up the server",
  ETIMEDOUT: "Timed out connecting to",
  UND_ERR_CONNECT_TIMEOUT: "Timed out connecting to",
  EHOSTUNREACH: "No route to",
  ENETUNREACH: "No network route to",
  CERT_HAS_EXPIRED: "The server's certificate has expired:",
};

/**
 * What happened when a request got no answer: "Could not connect to http://127.0.0.1:1/v1/chat/completions
 * (ECONNREFUSED)". fetch reports only "fetch failed"; the reason is in its `cause` (and nested causes).
 */
export function connectFailure(url: string, e: unknown): string {
  const u = new URL(url);
  const where = `${u.origin}${u.pathname}`;
  let code: string | undefined;
  let detail: string | undefined;
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 4; depth++) {
    const own = (c as Error & { code?: unknown }).code;
    if (typeof own === "string" && !code) code = own;
    if (c !== e && !detail) detail = c.message;
    c = (c as Error & { cause?: unknown }).cause;
  }
  if (code) return `${NETWORK_WORDS[code] ?? "Could not connect to"} ${where} (${code})`;
  return `Could not connect to ${where} (${detail ?? (e instanceof Error ? e.message : String(e))})`;
}

function summariseErrorBody(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const m = typeof j.error === "string" ? j.error : (j.error?.message ?? j.message);
    if (m) return m.slice(0, 500);
  } catch {
    // not JSON
  }
  return text.slice(0, 500) || "(no message)";
}

export function errorText(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}

/**
 * Runs `attempt` and re-runs it on retryable failures that happen before its first event. Errors after
 * output are re-thrown marked `afterOutput`.
 */
export async function* withRetries(
  request: ModelRequest,
  policy: RetryPolicy,
  attempt: () => AsyncGenerator<StreamEvent>,
): AsyncGenerator<StreamEvent> {
  for (let n = 0; ; n++) {
    let yielded = false;
    try {
      for await (const ev of attempt()) {
        // Usage and end markers are not output the person saw; text and tool events are.
        if (ev.type !== "usage" && ev.type !== "end") yielded = true;
        yield ev;
      }
      return;
    } catch (e) {
      if (request.signal.aborted) throw new ProviderError("cancelled", "aborted", undefined, yielded);
      const err = e instanceof ProviderError ? e : new ProviderError(errorText(e), "network");
      if (yielded) throw new ProviderError(err.message, err.kind, err.status, true);
      if (n >= policy.maxRetries || !isRetryable(err)) throw err;
      const hinted = err instanceof HttpStatusError ? retryAfterMs(err.headers) : undefined;
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n);
      const delayMs = Math.min(policy.maxDelayMs * 4, hinted ?? backoff);
      const info = { attempt: n + 1, maxAttempts: policy.maxRetries + 1, delayMs, reason: err.message };
      request.onRetry?.(info);
      if (request.waitBeforeRetry) await request.waitBeforeRetry(info, request.signal);
      else await sleep(delayMs, request.signal);
    }
  }
}
