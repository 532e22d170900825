/**
 * Settings layers: which scope may set what, and how layers combine.
 */
import {
  DEFAULT_SETTINGS,
  parseSettings,
  SETTING_KEYS,
  TIGHTEN_ONLY_KEYS,
  type ParseResult,
  type ToolgateSettings,
} from "./settingsModel";

/**
 * Workspace settings may only tighten: of a workspace's values, only deny lists and ask rules are taken.
 * Returns the list of loosening keys the workspace tried to set, so the host can tell the person.
 */
export function workspaceTightenings(flat: Readonly<Record<string, unknown>>): {
  readonly flat: Record<string, unknown>;
  readonly ignored: readonly string[];
} {
  const kept: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [k, v] of Object.entries(flat)) {
    if (!k.startsWith("toolgate.")) continue;
    if (TIGHTEN_ONLY_KEYS.includes(k)) kept[k] = v;
    else ignored.push(k);
  }
  return { flat: kept, ignored };
}

/**
 * The settings layers, lowest first: defaults < workspace (tighten-only) < user < mode < managed.
 * Managed settings (an administrator's policy file) override the user's scalar values; every layer's deny
 * and ask lists add up, so deny wins whatever layer it comes from. The mode layer's rules (plan mode's edit
 * denial) are added by the gate itself.
 */
export function resolveLayers(layers: {
  readonly user: ToolgateSettings;
  readonly workspace?: ToolgateSettings;
  readonly managed?: ToolgateSettings;
  readonly managedKeys?: readonly string[];
}): ToolgateSettings {
  const { user, workspace, managed, managedKeys = [] } = layers;
  let base = user;
  if (managed) {
    const pick = <T>(key: string, mine: T, theirs: T): T => (managedKeys.includes(key) ? theirs : mine);
    base = {
      ...user,
      mode: pick(SETTING_KEYS.mode, user.mode, managed.mode),
      autoApprove: {
        enabled: pick(SETTING_KEYS.enabled, user.autoApprove.enabled, managed.autoApprove.enabled),
        all: pick(SETTING_KEYS.all, user.autoApprove.all, managed.autoApprove.all),
        actions: pick(SETTING_KEYS.actions, user.autoApprove.actions, managed.autoApprove.actions),
        maxRequests: pick(SETTING_KEYS.maxRequests, user.autoApprove.maxRequests, managed.autoApprove.maxRequests),
        maxCost: pick(SETTING_KEYS.maxCost, user.autoApprove.maxCost, managed.autoApprove.maxCost),
      },
      commands: { ...user.commands, allow: [...user.commands.allow, ...managed.commands.allow] },
      permissions: { ...user.permissions, allow: [...user.permissions.allow, ...managed.permissions.allow] },
      ignoreFile: pick(SETTING_KEYS.ignoreFile, user.ignoreFile, managed.ignoreFile),
      mcpServers: pick(SETTING_KEYS.mcpServers, user.mcpServers, managed.mcpServers),
    };
  }
  return withTightenings(base, ...[workspace, managed].filter((l): l is ToolgateSettings => l !== undefined));
}

/** Adds tightening lists from extra layers (workspace, managed) to the user's settings. */
export function withTightenings(base: ToolgateSettings, ...layers: readonly ToolgateSettings[]): ToolgateSettings {
  const cat = (pick: (s: ToolgateSettings) => readonly string[]) => [...pick(base), ...layers.flatMap(pick)];
  return {
    ...base,
    commands: { allow: base.commands.allow, deny: cat((s) => s.commands.deny) },
    permissions: {
      allow: base.permissions.allow,
      ask: cat((s) => s.permissions.ask),
      deny: cat((s) => s.permissions.deny),
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

export interface HostSettings {
  readonly settings: ToolgateSettings;
  /** Malformed values: while there are any, the gate auto-approves nothing. */
  readonly errors: readonly string[];
  /** Loosening keys a workspace tried to set (ignored), so the host can say so. */
  readonly ignoredWorkspaceKeys: readonly string[];
}

/**
 * Builds the gate's settings from what the editor reports per key: loosening values come only from user
 * (global) scope, falling back to the defaults; a workspace or folder contributes tightening lists only.
 */
export function settingsFromInspect(
  inspect: (key: string) => InspectedValue | undefined,
  managed?: { readonly flat: Record<string, unknown> },
): HostSettings {
  const user: Record<string, unknown> = {};
  const workspace: Record<string, unknown> = {};
  for (const key of Object.values(SETTING_KEYS)) {
    const v = inspect(key);
    if (!v) continue;
    const mine = v.globalValue !== undefined ? v.globalValue : v.defaultValue;
    if (mine !== undefined) user[key] = mine;
    const wsLists = [v.workspaceValue, v.workspaceFolderValue].filter((x) => x !== undefined);
    if (wsLists.length > 0)
      workspace[key] = TIGHTEN_ONLY_KEYS.includes(key) && wsLists.every(Array.isArray) ? wsLists.flat() : wsLists[0];
  }
  const { flat: wsFlat, ignored } = workspaceTightenings(workspace);
  const results: ParseResult<ToolgateSettings>[] = [
    parseSettings(user, "user settings"),
    parseSettings(wsFlat, "workspace settings"),
  ];
  if (managed) results.push(parseSettings(managed.flat, "managed settings"));
  const errors = results.flatMap((r) => (r.ok ? [] : r.errors));
  const [u, w, m] = results.map((r) => (r.ok ? r.value : undefined));
  if (!u) {
    // The user's settings are broken: keep only tightening lists, which can never loosen the gate.
    // The gate also gets `errors`, so it auto-approves nothing until they are fixed.
    return {
      settings: resolveLayers({ user: DEFAULT_SETTINGS, ...(w ? { workspace: w } : {}) }),
      errors,
      ignoredWorkspaceKeys: ignored,
    };
  }
  return {
    settings: resolveLayers({
      user: u,
      ...(w ? { workspace: w } : {}),
      ...(m && managed ? { managed: m, managedKeys: Object.keys(managed.flat) } : {}),
    }),
    errors,
    ignoredWorkspaceKeys: ignored,
  };
}
