/**
 * The CLI's side of the settings loader: workspace roots, every settings layer (core/settingsFiles.ts), an
 * MCP file and the rule syntax checked up front. `check`, `run`, `hook` and `sandbox` all come through here, so
 * they decide on the same policy as the VS Code host. No gate here (loadGate.ts builds it): `toolgate sandbox`
 * reads the policy without loading the gate.
 */
import { statSync } from "node:fs";
import * as nodePath from "node:path";
import { parseRules } from "../core/permissionRules";
import { loadSettingsFiles, readSettingsFile } from "../core/settingsFiles";
import type { HostSettings, SettingsLayer } from "../core/settingsLayers";
import { parseMcpFile, SETTING_KEYS, type McpServers } from "../core/settingsModel";
import type { SettingsArgs } from "./args";
import { ConfigError } from "./errors";

export { ConfigError };

export interface Policy {
  readonly roots: readonly string[];
  /** Settings with their errors: each error is reported; the surfaces fail closed while there are any. */
  readonly loaded: HostSettings;
}

export function resolveWorkspaces(dirs: readonly string[], cwd: string = process.cwd()): string[] {
  return (dirs.length > 0 ? dirs : [cwd]).map((d) => {
    const abs = nodePath.resolve(cwd, d);
    let isDir = false;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      /* reported below */
    }
    if (!isDir) throw new ConfigError(`workspace ${d} is not a directory`);
    return abs;
  });
}

/**
 * An `--mcp` file may be a repository's own (`.mcp.json`): its `trusted` marks are dropped, as `trusted` counts
 * only from user and managed settings.
 */
function withoutTrust(servers: McpServers): McpServers {
  return Object.fromEntries(
    Object.entries(servers).map(([name, { trusted: _trusted, ...cfg }]) => [name, cfg]),
  ) as McpServers;
}

/** Loads the policy; collects every settings problem in `loaded.errors` instead of throwing. */
export function loadPolicy(
  args: SettingsArgs,
  o: { readonly flags?: SettingsLayer; readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Policy {
  const roots = resolveWorkspaces(args.workspaces, o.cwd);
  let loaded = loadSettingsFiles({
    roots,
    ...(args.settingsFile ? { settingsFile: args.settingsFile } : {}),
    ...(args.userSettingsFile ? { userSettingsFile: args.userSettingsFile } : {}),
    ...(args.managedFile ? { managedFile: args.managedFile } : {}),
    ...(o.flags ? { flags: o.flags } : {}),
    ...(o.env ? { env: o.env } : {}),
  });
  const errors = [...loaded.errors];
  if (args.mcpFile) {
    const r = readSettingsFile(args.mcpFile);
    const parsed =
      "flat" in r
        ? parseMcpFile(r.flat, args.mcpFile)
        : { ok: false as const, errors: ["error" in r ? r.error : `cannot read MCP file ${args.mcpFile}: ENOENT`] };
    if (!parsed.ok) errors.push(...parsed.errors);
    else if (loaded.locked.includes(SETTING_KEYS.mcpServers))
      errors.push(`${args.mcpFile}: the managed policy fixes toolgate.mcpServers, so --mcp cannot replace it`);
    else loaded = { ...loaded, settings: { ...loaded.settings, mcpServers: withoutTrust(parsed.value) } };
  }
  const p = loaded.settings.permissions;
  const rules = parseRules([
    { effect: "allow", layer: "settings", sources: p.allow },
    { effect: "ask", layer: "settings", sources: p.ask },
    { effect: "deny", layer: "settings", sources: p.deny },
  ]);
  errors.push(...rules.errors);
  return { roots, loaded: { ...loaded, errors } };
}

/** For `check` and `run`: a person reads stderr, so any settings problem stops the command (exit 2). */
export function strictPolicy(policy: Policy): Policy {
  if (policy.loaded.errors.length > 0) throw new ConfigError(policy.loaded.errors.join("\n"));
  return policy;
}
