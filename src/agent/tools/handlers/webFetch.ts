import { errorResult, str, type ToolHandler } from "../types";
import { pinnedRequest, type PinnedResponse } from "../../node/pinnedHttp";

/** Redirect hops followed before giving up; each hop is decided like a new call. */
export const MAX_REDIRECTS = 5;

/**
 * Fetches the decided URL from the decided address. A redirect is a new URL: the gate decides it again (DNS
 * looked up afresh, private addresses asked about in every mode) before the next hop connects.
 */
export const webFetchHandler: ToolHandler = {
  name: "web_fetch",
  async execute(call, ctx) {
    let decided = call;
    const first = str(call.params, "url").trim();
    for (let hop = 0; ; hop++) {
      const target = decided.url;
      if (!target) return errorResult(`\`${first}\` is not a URL that can be fetched.`);
      const url = target.href;
      const address = target.addresses?.[0];
      if (address === undefined)
        return errorResult(`Could not fetch ${url}: the host name \`${target.host}\` did not resolve.`);
      const timeout = AbortSignal.timeout(ctx.limits.fetchTimeoutMs);
      let res: PinnedResponse;
      try {
        res = await pinnedRequest({
          url,
          address,
          signal: AbortSignal.any([ctx.signal, timeout]),
          maxBytes: ctx.limits.maxFetchBytes,
          headers: { accept: "text/html,text/plain,application/json;q=0.9,*/*;q=0.5" },
        });
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        return errorResult(`Could not fetch ${url}: ${timeout.aborted ? "timed out" : (e as Error).message}`);
      }
      if (res.status >= 300 && res.status < 400 && res.location !== undefined) {
        if (hop >= MAX_REDIRECTS) return errorResult(`Fetching ${first} stopped after ${MAX_REDIRECTS} redirects.`);
        let next: string;
        try {
          next = new URL(res.location, url).href;
        } catch {
          return errorResult(`${url} redirected to \`${res.location}\`, which is not a URL.`);
        }
        const again = await ctx.decideAgain({ ...decided.params, url: next });
        if ("result" in again) return again.result;
        decided = again.call;
        continue;
      }
      if (res.status < 200 || res.status >= 300)
        return errorResult(`Fetching ${url} failed: HTTP ${res.status} ${res.statusText}`);
      const { bytes, truncated } = res;
      const type = res.contentType;
      if (!/text|json|xml|javascript/i.test(type) && type !== "")
        return errorResult(`${url} returned ${type}, which is not text (${bytes.length} bytes read).`);
      const raw = new TextDecoder().decode(bytes);
      const text =
        /html/i.test(type) || /^\s*<(!doctype html|html)/i.test(raw)
          ? (await import("../htmlToText")).htmlToText(raw)
          : raw;
      const note = truncated
        ? `\n\n[The page was larger than ${ctx.limits.maxFetchBytes} bytes; the rest was not read.]`
        : "";
      return { content: text + note, display: `${text.length} characters` };
    }
  },
};
