import { errorResult, str, type ToolHandler } from "../types";

/** Reads at most `cap` bytes of a body, then stops the download. */
async function readCapped(res: Response, cap: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(), truncated: false };
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = cap - size;
    if (value.length > room) {
      parts.push(value.subarray(0, room));
      size += room;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    parts.push(value);
    size += value.length;
  }
  const bytes = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    bytes.set(p, off);
    off += p.length;
  }
  return { bytes, truncated };
}

export const webFetchHandler: ToolHandler = {
  name: "web_fetch",
  async execute(params, ctx) {
    const url = str(params, "url").trim();
    const doFetch = ctx.env.fetch ?? fetch;
    const timeout = AbortSignal.timeout(ctx.limits.fetchTimeoutMs);
    let res: Response;
    try {
      res = await doFetch(url, {
        signal: AbortSignal.any([ctx.signal, timeout]),
        redirect: "follow",
        headers: { accept: "text/html,text/plain,application/json;q=0.9,*/*;q=0.5" },
      });
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return errorResult(`Could not fetch ${url}: ${timeout.aborted ? "timed out" : (e as Error).message}`);
    }
    if (!res.ok) return errorResult(`Fetching ${url} failed: HTTP ${res.status} ${res.statusText}`);
    const { bytes, truncated } = await readCapped(res, ctx.limits.maxFetchBytes);
    const type = res.headers.get("content-type") ?? "";
    if (!/text|json|xml|javascript/i.test(type) && type !== "")
      return errorResult(`${url} returned ${type}, which is not text (${bytes.length} bytes read).`);
    const raw = new TextDecoder().decode(bytes);
    const isHtml = /html/i.test(type) || /^\s*<(!doctype html|html)/i.test(raw);
    const text = isHtml ? (await import("../htmlToText")).htmlToText(raw) : raw;
    const note = truncated
      ? `\n\n[The page was larger than ${ctx.limits.maxFetchBytes} bytes; the rest was not read.]`
      : "";
    return { content: text + note, display: `${text.length} characters` };
  },
};
