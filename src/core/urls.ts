import { isIP } from "node:net";

/**
 * Hosts a web fetch must never reach unasked: loopback, private ranges, link-local (cloud metadata
 * endpoints live there) and unspecified addresses. A model told to "fetch http://169.254.169.254/…" by a
 * prompt injection is the classic server-side request forgery; the webFetch switch does not cover it.
 */
export function privateHostReason(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return "the URL cannot be parsed";
  }
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal"))
    return `\`${host}\` is a local host name`;
  const v = isIP(host);
  if (v === 4) {
    const [a, b] = host.split(".").map(Number) as [number, number];
    if (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    ) {
      return `\`${host}\` is a loopback, private or link-local address`;
    }
  } else if (v === 6) {
    if (host === "::1" || host === "::" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith("::ffff:"))
      return `\`${host}\` is a loopback, private or link-local address`;
  } else if (/^[0-9.]+$/.test(host) || /^0x/i.test(host)) {
    // Shorthand or hex IPv4 spellings (`127.1`, `0x7f.1`) that URL parsing left alone: refuse to guess.
    return `\`${host}\` is an unusual spelling of an address`;
  }
  return undefined;
}
