import { canonicalHost } from "./networkAllowList";

/**
 * The first request a client sends the sandbox's proxy, parsed strictly: `CONNECT host:port HTTP/1.x` (a
 * tunnel, for HTTPS) or an absolute-URI plain HTTP request (`GET http://host[:port]/path HTTP/1.1`). Anything
 * else is refused before a connection is made: origin-form requests, other schemes, userinfo in the target
 * (`allowed.test@evil.com`), percent-escapes or stray characters in a host, a missing or out-of-range port,
 * over-long lines and heads. Invariant: the host returned is canonical (see `canonicalHost`), and it is the
 * host the proxy connects to — never one taken from a header.
 */

/** Longest request line accepted; longer ones are refused (431), not truncated. */
export const MAX_REQUEST_LINE = 8192;
/** Longest request head (request line and headers) accepted. */
export const MAX_REQUEST_HEAD = 32768;

export type ProxyRequest =
  | { readonly kind: "incomplete" }
  | { readonly kind: "bad"; readonly status: 400 | 405 | 431; readonly reason: string }
  | {
      readonly kind: "connect";
      readonly host: string;
      readonly port: number;
      /** Bytes after the head (a client may send its TLS hello right away). */
      readonly rest: Buffer;
    }
  | {
      readonly kind: "http";
      readonly host: string;
      readonly port: number;
      /** The head to send upstream: origin-form request line, hop-by-hop and proxy headers dropped. */
      readonly head: string;
      readonly rest: Buffer;
    };

const METHOD = /^[A-Z]{1,20}$/;
const VERSION = /^HTTP\/1\.[01]$/;
/** Headers meant for the proxy or for this one hop; never forwarded. */
const HOP_HEADERS = new Set([
  "connection",
  "proxy-connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "upgrade",
]);

const bad = (status: 400 | 405 | 431, reason: string): ProxyRequest => ({ kind: "bad", status, reason });

function parsePort(s: string | undefined, fallback: number | undefined): number | undefined {
  if (s === undefined || s === "") return fallback;
  if (!/^[0-9]{1,5}$/.test(s)) return undefined;
  const n = Number(s);
  return n >= 1 && n <= 65535 ? n : undefined;
}

/** `host:port`, `[v6]:port`, or (`defaultPort` given) either without the port; userinfo is never accepted. */
export function parseAuthority(
  authority: string,
  defaultPort: number | undefined,
): { host: string; port: number } | string {
  if (authority.includes("@")) return "a user name in the request target is not accepted";
  let hostPart: string;
  let portPart: string | undefined;
  if (authority.startsWith("[")) {
    const close = authority.indexOf("]");
    if (close < 0) return "malformed IPv6 address";
    hostPart = authority.slice(0, close + 1);
    const after = authority.slice(close + 1);
    if (after !== "" && !after.startsWith(":")) return "malformed host";
    portPart = after === "" ? undefined : after.slice(1);
  } else {
    const colon = authority.lastIndexOf(":");
    hostPart = colon < 0 ? authority : authority.slice(0, colon);
    portPart = colon < 0 ? undefined : authority.slice(colon + 1);
  }
  const host = canonicalHost(hostPart);
  if (host === undefined) return "malformed host";
  const port = parsePort(portPart, defaultPort);
  if (port === undefined) return "missing or invalid port";
  return { host, port };
}

function absoluteTarget(target: string): { host: string; port: number; path: string } | string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(target);
  if (!m) return "the request target is not an absolute http:// URL (is this client configured for a proxy?)";
  if (m[1]!.toLowerCase() !== "http") return `\`${m[1]}://\` is not supported: use CONNECT for https`;
  const auth = parseAuthority(m[2]!, 80);
  if (typeof auth === "string") return auth;
  const rest = m[3]!;
  if (rest.includes("#")) return "a fragment in the request target";
  const path = rest === "" ? "/" : rest.startsWith("?") ? `/${rest}` : rest;
  if (!/^\/[\x21-\x7e]*$/.test(path)) return "malformed path";
  return { ...auth, path };
}

/** Parses the head at the start of `buf` (bytes as received); `incomplete` until the blank line arrived. */
export function parseProxyRequest(buf: Buffer): ProxyRequest {
  const end = buf.indexOf("\r\n\r\n");
  const lineEnd = buf.indexOf("\r\n");
  if ((lineEnd < 0 ? buf.length : lineEnd) > MAX_REQUEST_LINE) return bad(431, "request line too long");
  if (end < 0) return buf.length > MAX_REQUEST_HEAD ? bad(431, "request head too long") : { kind: "incomplete" };
  if (end > MAX_REQUEST_HEAD) return bad(431, "request head too long");
  const headText = buf.subarray(0, end).toString("latin1");
  if (/\r(?!\n)|(^|[^\r])\n|\0/.test(headText)) return bad(400, "malformed line ending");
  const rest = buf.subarray(end + 4);
  const [requestLine = "", ...headerLines] = headText.split("\r\n");
  const parts = requestLine.split(" ");
  if (parts.length !== 3) return bad(400, "malformed request line");
  const [method, target, version] = parts as [string, string, string];
  if (!METHOD.test(method) || !VERSION.test(version) || target === "") return bad(400, "malformed request line");
  const headers: string[] = [];
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon <= 0 || /[\s]/.test(line.slice(0, colon))) return bad(400, "malformed header");
    if (HOP_HEADERS.has(line.slice(0, colon).toLowerCase())) continue;
    headers.push(line);
  }
  if (method === "CONNECT") {
    const auth = parseAuthority(target, undefined);
    if (typeof auth === "string") return bad(400, auth);
    return { kind: "connect", ...auth, rest };
  }
  const abs = absoluteTarget(target);
  if (typeof abs === "string") return bad(400, abs);
  // One request per upstream connection: whatever follows on this connection goes to the same host only.
  const head = [`${method} ${abs.path} ${version}`, ...headers, "Connection: close", "", ""].join("\r\n");
  return { kind: "http", host: abs.host, port: abs.port, head, rest };
}

/** A complete HTTP response the proxy answers with when it refuses; the body says why, naming the setting. */
export function proxyRefusal(status: 400 | 403 | 405 | 431 | 502 | 503 | 504, body: string): string {
  const text = `toolgate sandbox proxy: ${body}\n`;
  const reason: Record<number, string> = {
    400: "Bad Request",
    403: "Forbidden",
    405: "Method Not Allowed",
    431: "Request Header Fields Too Large",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
  };
  return (
    `HTTP/1.1 ${status} ${reason[status]}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
  );
}

/** Why a host is refused, for the 403 body: names the setting and its current entries. */
export function notListedMessage(host: string, port: number, entries: readonly string[]): string {
  const shown = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  return (
    `${shown} is not in \`toolgate.sandbox.network\` (allowed: ${entries.join(", ") || "none"}); ` +
    "the sandbox reaches only the hosts listed there."
  );
}
