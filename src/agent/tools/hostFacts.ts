/**
 * What the gate needs to know about a call that it cannot find out itself without I/O: for web_fetch, the
 * addresses the URL's host resolves to right now. Looked up afresh for every decision (each redirect hop
 * too); the handler then connects to the address that was judged, never looking the name up again.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { CallFacts } from "../../core/types";
import { urlHost } from "../../core/urls";

export async function systemResolve(host: string): Promise<readonly string[]> {
  const all = await lookup(host, { all: true, verbatim: true });
  return all.map((a) => a.address);
}

export async function hostFacts(
  tool: string,
  params: Readonly<Record<string, unknown>>,
  resolve: (host: string) => Promise<readonly string[]> = systemResolve,
): Promise<CallFacts | undefined> {
  if (tool !== "web_fetch" || typeof params.url !== "string") return undefined;
  const host = urlHost(params.url.trim());
  if (!host) return undefined;
  if (isIP(host) !== 0) return { addresses: [host] };
  try {
    const addresses = await resolve(host);
    return addresses.length > 0 ? { addresses } : undefined;
  } catch {
    return undefined;
  }
}
