/**
 * The CLI's side of the settings loader: workspace roots, every settings layer (core/settingsFiles.ts), an
 * MCP file, the rule syntax checked up front, and the gate built from them. `check`, `run` and `hook` all
 * come through here, so they decide on the same policy as the VS Code host.
 */
import type { Availability } from "../core/sandboxTier";
import { statSync } from "node:fs";
import * as nodePath from "node:path";
import { Gate } from "../core/gate";
import { nodeGitConfig } from "../agent/git/gitConfigReader";
import type { CommandAnalyzer } from "../core/commands/types";
import type { FsFacts } from "../core/fsFacts";
import { parseRules } from "../core/permissionRules";
import { allowListOf } from "../core/sandbox/sandboxSettings";
import { loadSettingsFiles, readSettingsFile } from "../core/settingsFiles";
import type { HostSettings, SettingsLayer } from "../core/settingsLayers";
import { parseMcpFile, SETTING_KEYS, type McpServers } from "../core/settingsModel";
import type { SettingsArgs } from "./args";

/** A configuration problem: the CLI exits 2 with this message and never falls back to something looser. */
export class ConfigError extends Error {}

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

export async function gateFor(
  policy: Policy,
  o: {
    readonly headless: boolean;
    readonly trusted?: boolean;
    readonly analyzer?: CommandAnalyzer;
    /** For the sandboxed tier; absent (a hook: Toolgate runs nothing itself), that tier asks. */
    readonly sandbox?: Availability;
    readonly checkpoints?: Availability;
    /**
     * The task's file-system facts: `watchedFacts(policy.roots).facts` for a process that decides many times
     * (`check`, `run`); absent, each decision sees the file system afresh (a hook decides once and exits).
     */
    readonly facts?: FsFacts;
  },
): Promise<Gate> {
  try {
    return await Gate.create({
      settings: policy.loaded.settings,
      roots: policy.roots,
      trusted: o.trusted !== false,
      headless: o.headless,
      settingsErrors: policy.loaded.errors,
      sandboxNetwork: allowListOf(policy.loaded.values),
      gitConfig: nodeGitConfig,
      ...(o.analyzer ? { analyzer: o.analyzer } : {}),
      ...(o.sandbox ? { sandbox: o.sandbox } : {}),
      ...(o.checkpoints ? { checkpoints: o.checkpoints } : {}),
      ...(o.facts ? { facts: o.facts } : {}),
    });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}
