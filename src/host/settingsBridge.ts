/**
 * The one typed module for Toolgate's settings keys, extension-storage keys and secret keys, and the bridge
 * between VS Code settings and the panel. No `vscode` import: it works over `ConfigStore`, which the host
 * implements with `workspace.getConfiguration("toolgate")` and tests implement in memory.
 *
 * Scope policy (DESIGN.md): settings that can loosen the gate are read only from user/application scope
 * (`globalValue ?? defaultValue`), so a repository's `.vscode/settings.json` cannot grant itself approvals;
 * a workspace only adds deny/ask lists. Reading goes through the gate's own `settingsFromInspect`, so the
 * panel shows what the gate uses. Every write from the panel goes to user (global) scope: one source of truth.
 */
import { ACTION_KEYS, SETTING_KEYS } from "../core/settingsModel";
import { MODE_RANK, settingsFromInspect, type HostSettings } from "../core/settingsLayers";
import type { Mode } from "../core/types";
import type { AutoApproveAction, LockedSetting, SettingChange, SettingsView } from "../shared/protocol";
import type { Preset } from "../shared/presets";
import { sandboxView } from "./sandboxStatus";

export const SECTION = "toolgate";

type WithoutSection<K> = K extends `${typeof SECTION}.${infer Rest}` ? Rest : never;

/** The same keys relative to the `toolgate` section (how `getConfiguration("toolgate")` names them). */
function withoutSection<T extends Readonly<Record<string, string>>>(
  keys: T,
): { readonly [P in keyof T]: WithoutSection<T[P]> } {
  const out: Record<string, string> = {};
  for (const [name, key] of Object.entries(keys)) {
    if (!key.startsWith(`${SECTION}.`)) throw new Error(`setting ${key} is outside the ${SECTION} section`);
    out[name] = key.slice(SECTION.length + 1);
  }
  return out as { readonly [P in keyof T]: WithoutSection<T[P]> };
}

/** The gate's setting keys (core's SETTING_KEYS) relative to the `toolgate` section, as in package.json. */
export const SettingKey = withoutSection(SETTING_KEYS);
export type SettingKey = (typeof SettingKey)[keyof typeof SettingKey];

/** `ExtensionContext.workspaceState` keys. */
export const StorageKey = {
  /** Rules saved with "always allow/deny … for this workspace": `{commandsAllow, commandsDeny, permissionsAllow, permissionsDeny}`. */
  workspaceRules: "toolgate.workspaceRules",
} as const;

/** `ExtensionContext.secrets` keys. API keys live only here. */
export const SecretKey = {
  // src/host/adapters/secrets.ts stores and reads the providers' keys under these names.
  openAiCompatible: "toolgate.apiKey.openai",
  anthropic: "toolgate.apiKey.anthropic",
} as const;
export type SecretKey = (typeof SecretKey)[keyof typeof SecretKey];

/** The gate's action keys, typed as the protocol's names (the compiler checks each is one). */
export const AUTO_APPROVE_ACTIONS: readonly AutoApproveAction[] = ACTION_KEYS;

export const MODES: readonly Mode[] = ["normal", "plan", "auto"];

export interface ConfigInspection {
  readonly defaultValue?: unknown;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/** The slice of `WorkspaceConfiguration` the bridge needs. Keys are relative to `toolgate`. */
export interface ConfigStore {
  inspect(key: SettingKey): ConfigInspection | undefined;
  /** Writes at user (global) scope. */
  updateGlobal(key: SettingKey, value: unknown): Promise<void>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

export class SettingsBridge {
  private reader: (() => HostSettings) | undefined;

  constructor(
    private readonly store: ConfigStore,
    private readonly isTrusted: () => boolean,
    private readonly toggleShortcut = "Ctrl+Alt+A",
  ) {}

  /**
   * Reads settings the way the gate does. By default: the gate's own `settingsFromInspect` over this store.
   * The host may pass the gate service's reader instead, so the panel also reflects the managed policy file.
   */
  useReader(read: (() => HostSettings) | undefined): void {
    this.reader = read;
  }

  hostSettings(): HostSettings {
    if (this.reader) return this.reader();
    return settingsFromInspect((key) =>
      key.startsWith(`${SECTION}.`) ? this.store.inspect(key.slice(SECTION.length + 1) as SettingKey) : undefined,
    );
  }

  /** The user-scope value of a key (never a workspace value), unparsed: used to rewrite it faithfully. */
  user(key: SettingKey): unknown {
    const i = this.store.inspect(key);
    return i?.globalValue ?? i?.defaultValue;
  }

  /**
   * What the panel shows: exactly the values the gate uses (parsed, layered, workspace tighten-only), plus
   * the errors that make the gate auto-approve nothing until they are fixed.
   */
  view(): SettingsView {
    const { settings, errors, ignoredWorkspaceKeys, locked, modeCeiling, values } = this.hostSettings();
    const a = settings.autoApprove;
    const actions = {} as Record<AutoApproveAction, boolean>;
    for (const k of AUTO_APPROVE_ACTIONS) actions[k] = a.actions[k] === true;
    return {
      mode: settings.mode,
      autoApprove: { enabled: a.enabled, all: a.all, actions, maxRequests: a.maxRequests, maxCost: a.maxCost },
      workspaceTrusted: this.isTrusted(),
      errors,
      ignoredWorkspaceKeys,
      toggleShortcut: this.toggleShortcut,
      locked: lockedControls(locked),
      ...(modeCeiling ? { modeCeiling } : {}),
      sandbox: sandboxView(values),
      untrustedContent: settings.untrustedContent,
    };
  }

  /**
   * Applies a panel toggle at user scope. Rejects values of the wrong type instead of writing them, and
   * changes to a setting the managed policy fixes (the write would be overridden anyway).
   */
  async apply(change: SettingChange): Promise<void> {
    const current = this.hostSettings();
    if (change.key === "mode") {
      const ceiling = current.modeCeiling;
      if (ceiling && MODES.includes(change.value) && MODE_RANK[change.value] > MODE_RANK[ceiling])
        throw new Error(`Your administrator does not allow ${change.value} mode (managed policy).`);
    } else {
      const control: LockedSetting =
        change.key === "autoApprove.action" ? `autoApprove.action:${change.action}` : change.key;
      if (lockedControls(current.locked).includes(control))
        throw new Error("This setting is set by your administrator (managed policy).");
    }
    switch (change.key) {
      case "mode":
        if (!MODES.includes(change.value)) throw new Error(`Unknown mode: ${String(change.value)}`);
        return this.store.updateGlobal(SettingKey.mode, change.value);
      case "autoApprove.enabled":
        return this.store.updateGlobal(SettingKey.enabled, requireBool(change.value));
      case "autoApprove.all":
        return this.store.updateGlobal(SettingKey.all, requireBool(change.value));
      case "autoApprove.action": {
        if (!AUTO_APPROVE_ACTIONS.includes(change.action)) throw new Error(`Unknown action: ${String(change.action)}`);
        // Keep the user's other keys as they are (missing keys keep taking their defaults).
        const current = this.store.inspect(SettingKey.actions)?.globalValue;
        const next = { ...(isRecord(current) ? current : {}), [change.action]: requireBool(change.value) };
        return this.store.updateGlobal(SettingKey.actions, next);
      }
      case "autoApprove.maxRequests":
        return this.store.updateGlobal(SettingKey.maxRequests, requireLimit(change.value, true));
      case "autoApprove.maxCost":
        return this.store.updateGlobal(SettingKey.maxCost, requireLimit(change.value, false));
      case "untrustedContent":
        if (change.value !== "ask" && change.value !== "off") throw new Error("Expected ask or off");
        return this.store.updateGlobal(SettingKey.untrustedContent, change.value);
    }
  }

  /**
   * Writes a preset at user scope: its mode, the master switch on, approve-all off and its actions as a whole
   * object (so the dropdown names it). Refused before anything is written when the managed policy fixes one of
   * those keys to another value or caps the mode below it: half a preset would be a "Custom" nobody chose.
   */
  async applyPreset(preset: Preset): Promise<void> {
    const current = this.hostSettings();
    const ceiling = current.modeCeiling;
    if (ceiling && MODE_RANK[preset.mode] > MODE_RANK[ceiling])
      throw new Error(`Your administrator does not allow ${preset.mode} mode (managed policy).`);
    const a = current.settings.autoApprove;
    const locked = lockedControls(current.locked);
    const clash = (c: LockedSetting, wanted: boolean, now: boolean) => locked.includes(c) && wanted !== now;
    if (
      clash("autoApprove.enabled", true, a.enabled) ||
      clash("autoApprove.all", false, a.all) ||
      AUTO_APPROVE_ACTIONS.some((k) => clash(`autoApprove.action:${k}`, preset.actions[k], a.actions[k] === true))
    )
      throw new Error(`"${preset.name}" changes a setting your administrator fixed (managed policy).`);
    await this.store.updateGlobal(SettingKey.actions, { ...preset.actions });
    await this.store.updateGlobal(SettingKey.all, false);
    await this.store.updateGlobal(SettingKey.enabled, true);
    await this.store.updateGlobal(SettingKey.mode, preset.mode);
  }

  /** Adds a rule to a user-scope list (used by "always allow/deny … always"). No duplicate is written. */
  async addUserRule(key: SettingKey, rule: string): Promise<void> {
    const current = this.userRules(key);
    if (!current.ok) throw new Error(current.error);
    if (current.rules.includes(rule)) return;
    await this.store.updateGlobal(key, [...current.rules, rule]);
  }

  /**
   * A user-scope rule list as written. A value that is not a list of strings is an error: writing it back
   * filtered would silently drop what the person wrote.
   */
  userRules(key: SettingKey): { ok: true; rules: string[] } | { ok: false; error: string; rules: string[] } {
    const v = this.store.inspect(key)?.globalValue;
    if (v === undefined) return { ok: true, rules: [] };
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) return { ok: true, rules: [...(v as string[])] };
    return {
      ok: false,
      error: `${SECTION}.${key} in your user settings is not a list of rules (strings); fix it in settings.json`,
      rules: stringList(v),
    };
  }

  /** Removes every copy of `rule` from a user-scope list; the other entries stay as written, in order. */
  async removeUserRule(key: SettingKey, rule: string): Promise<void> {
    const current = this.userRules(key);
    if (!current.ok) throw new Error(current.error);
    if (!current.rules.includes(rule)) throw new Error(`"${rule}" is no longer in ${SECTION}.${key}.`);
    await this.store.updateGlobal(
      key,
      current.rules.filter((r) => r !== rule),
    );
  }

  /** The string entries a workspace (or folder) `.vscode/settings.json` holds for a key (read only). */
  workspaceRules(key: SettingKey): string[] {
    const i = this.store.inspect(key);
    return [...stringList(i?.workspaceValue), ...stringList(i?.workspaceFolderValue)];
  }

  /** toolgate.mcpServers at user scope (a workspace cannot add servers). */
  mcpServers(): Record<string, unknown> {
    const v = this.user(SettingKey.mcpServers);
    return isRecord(v) ? v : {};
  }

  updateMcpServers(next: Record<string, unknown>): Promise<void> {
    return this.store.updateGlobal(SettingKey.mcpServers, next);
  }
}

/** The panel controls behind the setting keys the managed policy fixes. */
export function lockedControls(keys: readonly string[]): LockedSetting[] {
  const out: LockedSetting[] = [];
  const byKey: Readonly<Record<string, LockedSetting>> = {
    [SETTING_KEYS.enabled]: "autoApprove.enabled",
    [SETTING_KEYS.all]: "autoApprove.all",
    [SETTING_KEYS.maxRequests]: "autoApprove.maxRequests",
    [SETTING_KEYS.maxCost]: "autoApprove.maxCost",
    [SETTING_KEYS.untrustedContent]: "untrustedContent",
  };
  for (const k of keys) {
    const direct = byKey[k];
    if (direct) out.push(direct);
    const action = k.startsWith(`${SETTING_KEYS.actions}.`) ? k.slice(SETTING_KEYS.actions.length + 1) : undefined;
    const known = AUTO_APPROVE_ACTIONS.find((a) => a === action);
    if (known) out.push(`autoApprove.action:${known}`);
  }
  return out;
}

function requireBool(v: unknown): boolean {
  if (typeof v !== "boolean") throw new Error("Expected true or false");
  return v;
}

function requireLimit(v: unknown, integer: boolean): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v))) {
    throw new Error(integer ? "Expected a whole number, 0 or more" : "Expected a number, 0 or more");
  }
  return v;
}
