/**
 * Settings layers: which layer may set what, and how layers combine. One function, `resolveSettings`, serves
 * every surface (the VS Code host through `inspect()`, `toolgate check`, `run` and `hook` through files).
 *
 * Layers and what each may do:
 * - defaults (package.json's, equal to DEFAULT_SETTINGS);
 * - user: any key;
 * - workspace (`.vscode/settings.json`, every root): tighten only — deny lists, ask rules, deny commands, and
 *   `untrustedContent: "ask"`; any other key or value is ignored and named in `ignoredWorkspaceKeys`;
 * - flags (`toolgate run --allow/--ask/--exclude/--plan/--auto/--max-requests`): rules add to the lists, the
 *   mode replaces the user's, a limit can only be lowered;
 * - managed (the administrator's policy files, system file first): its deny and ask lists add (never
 *   replace); every other key it sets is fixed (`locked`) — the mode and the limits as ceilings (a stricter
 *   user value is kept: plan under a `normal` policy, a lower cost limit), everything else as written, and
 *   `autoApprove.actions` switch by switch. The first managed layer that sets a key fixes it.
 * Invariant: every deny and ask entry of every layer reaches the result, whatever else is malformed.
 */
import {
  DEFAULT_SETTINGS,
  KNOWN_SETTING_KEYS,
  parseSettings,
  SETTING_KEYS,
  TIGHTEN_ONLY_KEYS,
  type ToolgateSettings,
} from "./settingsModel";
import type { Mode } from "./types";
import { LIST_KEYS, validLayer } from "./settingsValidate";

export interface SettingsLayer {
  /** Named in messages: "user settings", a file path. */
  readonly source: string;
  /** Flat `toolgate.*` keys, as in settings.json. */
  readonly flat: unknown;
}

export interface SettingsLayers {
  readonly user?: SettingsLayer;
  readonly workspace?: readonly SettingsLayer[];
  readonly flags?: SettingsLayer;
  readonly managed?: readonly SettingsLayer[];
}

export interface HostSettings {
  readonly settings: ToolgateSettings;
  /** Malformed values, each ignored on its own: while there are any, the gate auto-approves nothing. */
  readonly errors: readonly string[];
  /** Loosening keys a workspace tried to set (ignored), so the host can say so. */
  readonly ignoredWorkspaceKeys: readonly string[];
  /** Keys fixed by the managed policy (`toolgate.autoApprove.actions.NAME` for one switch). */
  readonly locked: readonly string[];
  /** Things a person should know that are not errors (a mode the policy does not allow was lowered). */
  readonly notices: readonly string[];
  /** The effective value of every key some layer set (for keys other parts read, such as the sandbox's). */
  readonly values: Readonly<Record<string, unknown>>;
  /** The most permissive mode the managed policy allows (absent: any). */
  readonly modeCeiling?: Mode;
}

/** Modes from strictest to most permissive. */
export const MODE_RANK: Readonly<Record<Mode, number>> = { plan: 0, normal: 1, auto: 2 };
const LIMIT_KEYS: readonly string[] = [SETTING_KEYS.maxRequests, SETTING_KEYS.maxCost];

/** The stricter of two limits, where 0 means none. */
function stricterLimit(a: number, b: number): number {
  if (a === 0) return b;
  if (b === 0) return a;
  return Math.min(a, b);
}

function concat(a: unknown, b: unknown): string[] {
  return [...((a as string[] | undefined) ?? []), ...((b as string[] | undefined) ?? [])];
}

function modeOf(v: unknown): Mode {
  return v === "plan" || v === "auto" ? v : "normal";
}

export function resolveSettings(layers: SettingsLayers): HostSettings {
  const errors: string[] = [];
  const notices: string[] = [];
  const ignoredWorkspaceKeys: string[] = [];
  const locked = new Set<string>();
  const values: Record<string, unknown> = {};

  const user = validLayer(layers.user?.flat, layers.user?.source ?? "user settings");
  errors.push(...user.errors);
  Object.assign(values, user.flat);

  if (layers.flags) {
    const flags = validLayer(layers.flags.flat, layers.flags.source);
    errors.push(...flags.errors);
    for (const [k, v] of Object.entries(flags.flat)) {
      if (LIST_KEYS.includes(k)) values[k] = concat(values[k], v);
      else if (LIMIT_KEYS.includes(k)) values[k] = stricterLimit((values[k] as number | undefined) ?? 0, v as number);
      else values[k] = v;
    }
  }

  // What the person chose (user, then flags) before the policy applies: used to say what was lowered.
  const chosenMode = modeOf(values[SETTING_KEYS.mode]);
  let modeCeiling: Mode | undefined;
  for (const layer of layers.managed ?? []) {
    const managed = validLayer(layer.flat, layer.source);
    errors.push(...managed.errors);
    for (const k of managed.keys) {
      const v = managed.flat[k];
      if (TIGHTEN_ONLY_KEYS.includes(k)) {
        if (v !== undefined) values[k] = concat(values[k], v);
        continue;
      }
      if (k === SETTING_KEYS.actions) {
        // Each switch the policy names is fixed; the others stay the person's.
        const mine = (values[k] as Record<string, boolean> | undefined) ?? {};
        const theirs = (v as Record<string, boolean> | undefined) ?? {};
        const next = { ...mine };
        for (const [name, on] of Object.entries(theirs)) {
          if (locked.has(`${k}.${name}`)) continue;
          locked.add(`${k}.${name}`);
          next[name] = on;
        }
        values[k] = next;
        continue;
      }
      if (locked.has(k)) continue;
      locked.add(k);
      // A malformed untrustedContent in the policy is read strictly (`ask`), not as the person's value.
      if (v === undefined && k === SETTING_KEYS.untrustedContent) values[k] = "ask";
      if (v === undefined) continue; // malformed in the policy: still locked, the layers below keep their value
      if (k === SETTING_KEYS.mode) {
        const ceiling = modeOf(v);
        modeCeiling = ceiling;
        const mine = modeOf(values[k]);
        values[k] = MODE_RANK[mine] <= MODE_RANK[ceiling] ? mine : ceiling;
      } else if (LIMIT_KEYS.includes(k)) {
        values[k] = stricterLimit((values[k] as number | undefined) ?? 0, v as number);
      } else values[k] = v;
    }
  }
  const finalMode = modeOf(values[SETTING_KEYS.mode]);
  if (MODE_RANK[finalMode] < MODE_RANK[chosenMode] && locked.has(SETTING_KEYS.mode))
    notices.push(`the managed policy does not allow ${chosenMode} mode: working in ${finalMode} mode`);

  for (const layer of layers.workspace ?? []) {
    const raw = layer.flat;
    if (raw === undefined) continue;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      errors.push(`${layer.source}: expected a JSON object of settings`);
      continue;
    }
    const kept: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (!k.startsWith("toolgate.")) continue;
      if (TIGHTEN_ONLY_KEYS.includes(k) || (k === SETTING_KEYS.untrustedContent && v === "ask")) kept[k] = v;
      else if (!ignoredWorkspaceKeys.includes(k)) ignoredWorkspaceKeys.push(k);
    }
    const ws = validLayer(kept, layer.source);
    errors.push(...ws.errors);
    for (const [k, v] of Object.entries(ws.flat)) {
      // A workspace may only turn the untrusted-content ask on; a value the policy fixed stays fixed.
      if (k === SETTING_KEYS.untrustedContent) {
        if (!locked.has(k)) values[k] = "ask";
      } else values[k] = concat(values[k], v);
    }
  }

  // Every value above passed validation, so this parse cannot fail; if it ever did, fail closed on defaults
  // plus every deny and ask entry gathered above.
  const parsed = parseSettings(values, "combined settings");
  const settings: ToolgateSettings = parsed.ok ? parsed.value : defaultsWithRefusals(DEFAULT_SETTINGS, values);
  if (!parsed.ok) errors.push(...parsed.errors);
  return {
    settings,
    errors,
    ignoredWorkspaceKeys,
    locked: [...locked],
    notices,
    values,
    ...(modeCeiling ? { modeCeiling } : {}),
  };
}

function defaultsWithRefusals(base: ToolgateSettings, values: Readonly<Record<string, unknown>>): ToolgateSettings {
  const list = (k: string) =>
    Array.isArray(values[k]) ? (values[k] as unknown[]).filter((x) => typeof x === "string") : [];
  return {
    ...base,
    commands: { allow: [], deny: list(SETTING_KEYS.commandsDeny) as string[] },
    permissions: {
      allow: [],
      ask: list(SETTING_KEYS.permissionsAsk) as string[],
      deny: list(SETTING_KEYS.permissionsDeny) as string[],
    },
  };
}

/** What VS Code's `WorkspaceConfiguration.inspect(key)` reports for one key (the fields the gate reads). */
export interface InspectedValue {
  readonly defaultValue?: unknown;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/**
 * The host's layers from what the editor reports per key: the user layer is the user (global) value,
 * else the default; a workspace's and a folder's values form the workspace layer (tighten only, as from a
 * file). The managed layers come from the policy files (settingsFiles.ts), as on every surface.
 */
export function layersFromInspect(
  inspect: (key: string) => InspectedValue | undefined,
  keys: Iterable<string> = KNOWN_SETTING_KEYS,
): { readonly user: SettingsLayer; readonly workspace: SettingsLayer[] } {
  const user: Record<string, unknown> = {};
  const workspace: Record<string, unknown> = {};
  const folder: Record<string, unknown> = {};
  for (const key of keys) {
    const v = inspect(key);
    if (!v) continue;
    const mine = v.globalValue !== undefined ? v.globalValue : v.defaultValue;
    if (mine !== undefined) user[key] = mine;
    if (v.workspaceValue !== undefined) workspace[key] = v.workspaceValue;
    if (v.workspaceFolderValue !== undefined) folder[key] = v.workspaceFolderValue;
  }
  return {
    user: { source: "user settings", flat: user },
    workspace: [
      { source: "workspace settings", flat: workspace },
      { source: "workspace folder settings", flat: folder },
    ],
  };
}

/** Settings from `inspect()` plus the managed policy layers: what the host's gate and panel use. */
export function settingsFromInspect(
  inspect: (key: string) => InspectedValue | undefined,
  managed: readonly SettingsLayer[] = [],
  keys: Iterable<string> = KNOWN_SETTING_KEYS,
): HostSettings {
  return resolveSettings({ ...layersFromInspect(inspect, keys), managed });
}
