/**
 * Per-key validation of one settings layer (a user, workspace or managed file, or the host's `inspect()`
 * values): each malformed value is reported and left out alone, so one typo never takes a layer's other
 * keys with it. What is kept is valid by construction; layering (settingsLayers.ts) works on these values.
 *
 * Salvage rules, chosen so that a malformed value can only make the gate stricter than the layer meant:
 * - deny and ask lists keep every string entry; a non-string entry is reported and dropped on its own, and a
 *   bare string is taken as a one-entry list (a denial written without brackets still denies);
 * - allow lists drop a malformed entry (a dropped allow can only lead to an ask);
 * - `autoApprove.actions` is checked switch by switch, `mcpServers` server by server;
 * - any other malformed value is dropped and the layer below applies.
 * The errors themselves make the gate auto-approve nothing until they are fixed (GateOptions.settingsErrors),
 * so the fallback value of a dropped key never turns an ask into an allow.
 */
import {
  ACTION_KEYS,
  AGENT_SETTING_KEYS,
  KNOWN_SETTING_KEYS,
  OTHER_SETTING_KEYS,
  parseSettings,
  SETTING_KEYS,
  TIGHTEN_ONLY_KEYS,
} from "./settingsModel";
import { HOOK_SETTING_KEYS } from "./hookSettings";

export interface ValidLayer {
  /** The layer's valid `toolgate.*` values (non-Toolgate keys are left out). */
  readonly flat: Readonly<Record<string, unknown>>;
  readonly errors: readonly string[];
  /** Every known `toolgate.*` key the layer set, valid or not (a managed policy locks even a malformed one). */
  readonly keys: readonly string[];
}

export const LIST_KEYS: readonly string[] = [
  SETTING_KEYS.commandsAllow,
  SETTING_KEYS.commandsDeny,
  SETTING_KEYS.permissionsAllow,
  SETTING_KEYS.permissionsAsk,
  SETTING_KEYS.permissionsDeny,
];

const STRING_AGENT_KEYS: readonly string[] = [
  AGENT_SETTING_KEYS.openAiBaseUrl,
  AGENT_SETTING_KEYS.openAiModel,
  AGENT_SETTING_KEYS.anthropicBaseUrl,
  AGENT_SETTING_KEYS.anthropicModel,
];
const PROVIDERS: readonly unknown[] = ["auto", "vscode-lm", "openai", "anthropic"];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 80 ? s.slice(0, 80) + "…" : s;
}

export function validLayer(flat: unknown, source: string): ValidLayer {
  if (flat === undefined) return { flat: {}, errors: [], keys: [] };
  if (!isRecord(flat)) return { flat: {}, errors: [`${source}: expected a JSON object of settings`], keys: [] };
  const out: Record<string, unknown> = {};
  const errors: string[] = [];
  const keys: string[] = [];
  for (const [key, value] of Object.entries(flat)) {
    if (!key.startsWith("toolgate.")) continue;
    if (!KNOWN_SETTING_KEYS.has(key)) {
      errors.push(`${source}: unknown setting \`${key}\` (ignored)`);
      continue;
    }
    keys.push(key);
    if (value === undefined) continue;
    const kept = validValue(key, value, source, errors);
    if (kept !== undefined) out[key] = kept;
  }
  return { flat: out, errors, keys };
}

/** The valid part of one value, or undefined when nothing of it is usable. Reports what it leaves out. */
function validValue(key: string, value: unknown, source: string, errors: string[]): unknown {
  const fail = (what: string): undefined => {
    errors.push(`${source}: \`${key}\` ${what} (ignored)`);
    return undefined;
  };
  if (LIST_KEYS.includes(key)) {
    const tightening = TIGHTEN_ONLY_KEYS.includes(key);
    if (typeof value === "string") {
      if (!tightening) return fail(`must be a list of strings, got ${show(value)}`);
      errors.push(`${source}: \`${key}\` must be a list of strings; ${show(value)} is taken as a one-entry list`);
      return [value];
    }
    if (!Array.isArray(value)) return fail(`must be a list of strings, got ${show(value)}`);
    const strings: string[] = [];
    value.forEach((entry: unknown, i) => {
      if (typeof entry === "string") strings.push(entry);
      else errors.push(`${source}: \`${key}\` entry ${i + 1} must be a string, got ${show(entry)} (ignored)`);
    });
    return strings;
  }
  if (key === SETTING_KEYS.actions) {
    if (!isRecord(value)) return fail(`must be an object of switches, got ${show(value)}`);
    const actions: Record<string, boolean> = {};
    for (const [name, on] of Object.entries(value)) {
      if (!(ACTION_KEYS as readonly string[]).includes(name))
        errors.push(`${source}: unknown auto-approve action \`${name}\` (known: ${ACTION_KEYS.join(", ")}; ignored)`);
      else if (typeof on !== "boolean")
        errors.push(`${source}: \`${key}.${name}\` must be true or false, got ${show(on)} (ignored)`);
      else actions[name] = on;
    }
    return actions;
  }
  if (key === SETTING_KEYS.mcpServers) {
    if (!isRecord(value)) return fail(`must be an object of servers, got ${show(value)}`);
    const servers: Record<string, unknown> = {};
    for (const [name, cfg] of Object.entries(value)) {
      const r = parseSettings({ [key]: { [name]: cfg } }, source);
      if (r.ok) servers[name] = cfg;
      else errors.push(...r.errors.map((e) => `${e} (server ignored)`));
    }
    return servers;
  }
  if (key === AGENT_SETTING_KEYS.provider)
    return PROVIDERS.includes(value) ? value : fail(`must be one of ${PROVIDERS.join(", ")}, got ${show(value)}`);
  if (STRING_AGENT_KEYS.includes(key)) return typeof value === "string" ? value : fail("must be a string");
  if (key === HOOK_SETTING_KEYS.sandboxWrap)
    return typeof value === "boolean" ? value : fail(`must be true or false, got ${show(value)}`);
  if ((Object.values(OTHER_SETTING_KEYS) as string[]).includes(key)) return value;
  const r = parseSettings({ [key]: value }, source);
  if (r.ok) return value;
  errors.push(...r.errors.map((e) => `${e} (ignored)`));
  return undefined;
}
