/**
 * Server-sent events reader over a fetch body. Keeps only the unfinished line between chunks, so the
 * work is linear in the bytes received. Yields one event per blank-line-terminated record.
 */

import { ProviderError } from "./types";
import { errorText } from "./http";

export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

export async function* readSse(body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const onAbort = (): void => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", onAbort, { once: true });
  // Parts of the line still open: a newline is looked for only in new text, so a long line split over many
  // reads is never rescanned.
  let pending: string[] = [];
  let event: string | undefined;
  let data: string[] = [];
  const onLine = (raw: string): SseEvent | undefined => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line === "") {
      const out = data.length > 0 ? { event, data: data.join("\n") } : undefined;
      event = undefined;
      data = [];
      return out;
    }
    if (line.startsWith(":")) return undefined; // comment / keep-alive
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let val = colon < 0 ? "" : line.slice(colon + 1);
    if (val.startsWith(" ")) val = val.slice(1);
    if (field === "data") data.push(val);
    else if (field === "event") event = val;
    return undefined;
  };
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (e) {
        if (signal.aborted) throw new ProviderError("cancelled", "aborted");
        throw new ProviderError(`the response stream was cut (${errorText(e)})`, "cut");
      }
      const { done, value } = chunk;
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      for (;;) {
        const nl = text.indexOf("\n", start);
        if (nl < 0) break;
        let line = text.slice(start, nl);
        if (pending.length > 0) {
          line = pending.join("") + line;
          pending = [];
        }
        start = nl + 1;
        const ev = onLine(line);
        if (ev) yield ev;
      }
      if (start < text.length) pending.push(text.slice(start));
      if (done) break;
    }
    // A last record without its blank line still counts (some servers close right after the last data line).
    if (pending.length > 0) onLine(pending.join(""));
    const last = onLine("");
    if (last) yield last;
  } finally {
    signal.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
}
