import { BlockList, isIP } from "node:net";

/**
 * Addresses a web fetch must never reach unasked: loopback, private ranges, link-local (cloud metadata
 * endpoints live there), carrier-grade NAT, unspecified, multicast and reserved ranges — also when an IPv6
 * address embeds one of them (IPv4-mapped, IPv4-compatible, NAT64, 6to4). A model told by a prompt
 * injection to "fetch http://169.254.169.254/…" is the classic server-side request forgery: these ask in
 * every mode, after DNS resolution (a public-looking name may resolve to any of them).
 */
const V4_RANGES: readonly [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const V6_RANGES: readonly [string, number][] = [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["2001:db8::", 32],
  ["100::", 64],
];

const blocked = new BlockList();
for (const [a, p] of V4_RANGES) blocked.addSubnet(a, p, "ipv4");
for (const [a, p] of V6_RANGES) blocked.addSubnet(a, p, "ipv6");

/** The 8 groups of an IPv6 address as numbers (handles `::` and a dotted IPv4 tail), or undefined. */
function v6Groups(addr: string): number[] | undefined {
  let s = addr.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const o = dotted[1]!.split(".").map(Number);
    if (o.some((n) => n > 255)) return undefined;
    s =
      s.slice(0, -dotted[1]!.length) + `${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<string>(Math.max(fill, 0)).fill("0"), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function v4FromGroups(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** An IPv4 address an IPv6 address carries (mapped, compatible, NAT64 64:ff9b::/96 and /48, 6to4), if any. */
function embeddedV4(addr: string): string | undefined {
  const g = v6Groups(addr);
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return v4FromGroups(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b) return v4FromGroups(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4FromGroups(g[1]!, g[2]!);
  return undefined;
}

/** Why an IP address (v4 or v6, no brackets) must not be fetched unasked, or undefined for a public one. */
export function privateAddressReason(address: string): string | undefined {
  const v = isIP(address);
  if (v === 0) return `\`${address}\` is not an IP address`;
  if (v === 4)
    return blocked.check(address, "ipv4") ? `\`${address}\` is a loopback, private or reserved address` : undefined;
  if (blocked.check(address, "ipv6")) return `\`${address}\` is a loopback, private or reserved address`;
  const inner = embeddedV4(address);
  if (inner && (inner === "0.0.0.0" || blocked.check(inner, "ipv4")))
    return `\`${address}\` embeds the private address ${inner}`;
  return undefined;
}

/** The host of a URL as the network will see it: lower-case, brackets and one trailing dot removed. */
export function urlHost(url: string): string | undefined {
  try {
    return new URL(url).hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, "")
      .replace(/\.$/, "");
  } catch {
    return undefined;
  }
}

/**
 * What a URL says about its destination before any DNS lookup: an address literal in a private range, or a
 * name that is local by definition (`localhost`, `*.localhost`, `.local`, `.internal`, also with a final dot).
 * Names that need DNS are judged on their answers (see `privateAddressReason`).
 */
export function privateHostReason(url: string): string | undefined {
  const host = urlHost(url);
  if (host === undefined) return "the URL cannot be parsed";
  if (host === "" || host === "localhost" || /\.(localhost|local|internal|home\.arpa)$/.test(host) || host === "local")
    return `\`${host}\` is a local host name`;
  if (isIP(host) !== 0) return privateAddressReason(host);
  if (/^[0-9.]+$/.test(host) || /^0x/i.test(host) || (/^[0-9a-f:.]+$/.test(host) && host.includes(":")))
    return `\`${host}\` is an unusual spelling of an address`;
  return undefined;
}
