import { isIP } from "node:net";

/**
 * The host allow-list of `toolgate.sandbox.network`, as the sandbox's proxy applies it. An entry is an exact
 * host (`registry.npmjs.org`, `127.0.0.1`), or `*.example.com` (every name below example.com, not
 * example.com itself), optionally with `:port` (that port only; without one, any port). Invariants:
 * - a request's host is compared in one canonical spelling (lower case, no trailing dot, IPv6 without
 *   brackets); anything that is not a plain host name or an IP address literal matches nothing;
 * - a wildcard matches names only, never an IP address literal;
 * - only an exact entry may lead to a loopback, private or link-local address (`explicit`); a wildcard match
 *   must resolve to public addresses (the proxy checks, after its own DNS lookup).
 */

export interface AllowEntry {
  /** `*.example.com` is stored as `example.com` with `wildcard`. */
  readonly host: string;
  readonly wildcard: boolean;
  readonly port?: number;
}

export type AllowDecision =
  { readonly allowed: true; readonly explicit: boolean; readonly entry: string } | { readonly allowed: false };

/** Longest host name DNS can carry. */
const MAX_HOST = 253;
const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * The canonical spelling of a request's host, or undefined when it is neither a host name nor an IP literal
 * (percent-escapes, userinfo, empty labels, a port, stray characters all fail here).
 */
export function canonicalHost(raw: string): string | undefined {
  if (raw.length === 0 || raw.length > MAX_HOST + 3) return undefined;
  let h = raw.toLowerCase();
  if (h.startsWith("[") || h.endsWith("]")) {
    if (!h.startsWith("[") || !h.endsWith("]")) return undefined;
    h = h.slice(1, -1);
    return isIP(h) === 6 && !h.includes("%") ? h : undefined;
  }
  if (h.endsWith(".")) h = h.slice(0, -1);
  if (h.length === 0 || h.length > MAX_HOST) return undefined;
  if (isIP(h) === 4) return h;
  if (isIP(h) === 6) return h.includes("%") ? undefined : h;
  const labels = h.split(".");
  if (!labels.every((l) => LABEL.test(l))) return undefined;
  // All-numeric names are addresses in another spelling (`2130706433`, `127.1`): never names.
  if (labels.every((l) => /^[0-9]+$/.test(l)) || /^0x/.test(labels[0] ?? "")) return undefined;
  return h;
}

/** Entries as `parseSandboxSettings` validated them (lower case, `*.` prefix, `:port`). */
export function compileAllowList(hosts: readonly string[]): AllowEntry[] {
  const out: AllowEntry[] = [];
  for (const raw of hosts) {
    const m = /^(\*\.)?(.+?)(?::([0-9]{1,5}))?$/.exec(raw.trim().toLowerCase());
    if (!m) continue;
    const host = canonicalHost(m[2]!);
    const port = m[3] === undefined ? undefined : Number(m[3]);
    if (host === undefined || (port !== undefined && (port < 1 || port > 65535))) continue;
    const wildcard = m[1] !== undefined;
    if (wildcard && isIP(host) !== 0) continue;
    out.push({ host, wildcard, ...(port !== undefined ? { port } : {}) });
  }
  return out;
}

export function entryText(e: AllowEntry): string {
  return `${e.wildcard ? "*." : ""}${e.host}${e.port !== undefined ? `:${e.port}` : ""}`;
}

/** Whether `host:port` (host already canonical) may be reached, and whether an exact entry named it. */
export function matchAllowList(list: readonly AllowEntry[], host: string, port: number): AllowDecision {
  let wildcardHit: AllowEntry | undefined;
  for (const e of list) {
    if (e.port !== undefined && e.port !== port) continue;
    if (!e.wildcard && e.host === host) return { allowed: true, explicit: true, entry: entryText(e) };
    if (e.wildcard && isIP(host) === 0 && host.endsWith(`.${e.host}`)) wildcardHit ??= e;
  }
  return wildcardHit ? { allowed: true, explicit: false, entry: entryText(wildcardHit) } : { allowed: false };
}

/** Names a client could use for its own loopback; they bypass the proxy unless an entry names one of them. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"];

/**
 * The variables that send a sandboxed command's HTTP(S) traffic to the proxy bridge on `127.0.0.1:port`
 * (both spellings: curl reads the lower-case ones, many tools the upper-case ones). The sandbox's own
 * loopback stays direct (a test server the command starts itself), except a loopback host the list names:
 * that one means the host machine's, reached through the proxy.
 */
export function proxyEnvironment(port: number, list: readonly AllowEntry[]): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const listed = new Set(list.filter((e) => !e.wildcard).map((e) => e.host));
  const noProxy = LOOPBACK_NAMES.filter((n) => !listed.has(n)).join(",");
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
  };
}
