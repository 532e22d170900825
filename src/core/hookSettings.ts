/**
 * `toolgate.hooks.*`: how Toolgate's hooks for other agents behave.
 *
 * `toolgate.hooks.sandboxWrap` (default true): an allowed command of an agent whose hook may rewrite the call
 * (Claude Code's `updatedInput`) is rewritten to run inside Toolgate's OS sandbox. False is for people who run
 * the agent's own sandbox, inside which Toolgate's cannot start. It is ignored while `toolgate.sandbox.mode` is
 * "required". Only the user and managed layers may set it: a workspace layer keeps only tightening keys
 * (settingsLayers.ts), so a repository cannot turn the wrapping off.
 *
 * Fails closed: a value that is not a boolean is reported (and, as every settings error does, stops every
 * auto-approval) and reads as true, the wrapping on.
 */

export const HOOK_SETTING_KEYS = {
  sandboxWrap: "toolgate.hooks.sandboxWrap",
} as const;

export interface HookSettingsResult {
  readonly sandboxWrap: boolean;
  readonly errors: readonly string[];
}

/** Reads the keys from the effective flat settings (HostSettings.values). */
export function parseHookSettings(flat: Readonly<Record<string, unknown>>, source = "settings"): HookSettingsResult {
  const raw = flat[HOOK_SETTING_KEYS.sandboxWrap];
  if (raw === undefined || typeof raw === "boolean") return { sandboxWrap: raw !== false, errors: [] };
  return {
    sandboxWrap: true,
    errors: [`${source}: \`${HOOK_SETTING_KEYS.sandboxWrap}\` must be true or false, got ${JSON.stringify(raw)}`],
  };
}
