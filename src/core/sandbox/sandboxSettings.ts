/**
 * `toolgate.sandbox.mode` and `toolgate.sandbox.network`: how auto-approved commands are confined. Both are
 * application-scoped (a repository cannot loosen them). Parsing fails closed: a malformed value is an error the
 * caller reports, and until it is fixed the caller uses FAIL_CLOSED_SANDBOX_SETTINGS (sandbox required, no
 * network) — never a looser reading of the value.
 */

export type SandboxMode = "auto" | "required" | "off";

/** `off`: no network at all. `hosts`: only these hosts, through a local proxy (`*.example.com` allowed). */
export type SandboxNetwork = { readonly kind: "off" } | { readonly kind: "hosts"; readonly hosts: readonly string[] };

export interface SandboxSettings {
  readonly mode: SandboxMode;
  readonly network: SandboxNetwork;
}

export const SANDBOX_SETTING_KEYS = {
  mode: "toolgate.sandbox.mode",
  network: "toolgate.sandbox.network",
} as const;

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { mode: "auto", network: { kind: "off" } };

/** What a caller runs with while the settings are malformed: the strictest reading. */
export const FAIL_CLOSED_SANDBOX_SETTINGS: SandboxSettings = { mode: "required", network: { kind: "off" } };

export type SandboxSettingsResult =
  { readonly ok: true; readonly value: SandboxSettings } | { readonly ok: false; readonly error: string };

/** A host name (letters, digits, `-`, dots), optionally `*.`-prefixed, optionally with `:port`. */
const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[0-9]{1,5})?$/;

function parseNetwork(raw: unknown): SandboxNetwork | string {
  if (raw === undefined || raw === "off") return { kind: "off" };
  if (!Array.isArray(raw)) return `\`${SANDBOX_SETTING_KEYS.network}\` must be "off" or a list of host names`;
  const hosts: string[] = [];
  for (const h of raw as unknown[]) {
    if (typeof h !== "string") return `\`${SANDBOX_SETTING_KEYS.network}\`: every entry must be a host name`;
    const host = h.trim().toLowerCase();
    const port = /:([0-9]+)$/.exec(host)?.[1];
    if (!HOST.test(host) || (port !== undefined && Number(port) > 65535))
      return `\`${SANDBOX_SETTING_KEYS.network}\`: \`${h}\` is not a host name (\`example.com\`, \`*.example.com\`, \`host:443\`)`;
    if (!hosts.includes(host)) hosts.push(host);
  }
  return hosts.length === 0 ? { kind: "off" } : { kind: "hosts", hosts };
}

/** Reads the two keys from a flat `toolgate.*` settings object; other keys are not looked at. */
export function parseSandboxSettings(flat: unknown): SandboxSettingsResult {
  if (flat === undefined) return { ok: true, value: DEFAULT_SANDBOX_SETTINGS };
  if (typeof flat !== "object" || flat === null || Array.isArray(flat))
    return { ok: false, error: "settings: expected a JSON object of settings" };
  const rec = flat as Record<string, unknown>;
  const modeRaw = rec[SANDBOX_SETTING_KEYS.mode];
  let mode: SandboxMode = DEFAULT_SANDBOX_SETTINGS.mode;
  if (modeRaw !== undefined) {
    if (modeRaw !== "auto" && modeRaw !== "required" && modeRaw !== "off")
      return { ok: false, error: `\`${SANDBOX_SETTING_KEYS.mode}\` must be "auto", "required" or "off"` };
    mode = modeRaw;
  }
  const network = parseNetwork(rec[SANDBOX_SETTING_KEYS.network]);
  if (typeof network === "string") return { ok: false, error: network };
  return { ok: true, value: { mode, network } };
}

/**
 * The host list a grant may draw from, from the flat settings: empty when the network is "off" or the value is
 * malformed (a malformed setting never gives a line the network).
 */
export function allowListOf(flat: unknown): readonly string[] {
  const parsed = parseSandboxSettings(flat);
  return parsed.ok && parsed.value.network.kind === "hosts" ? parsed.value.network.hosts : [];
}
