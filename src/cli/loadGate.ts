import { readFileSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import { Gate } from "../core/gate";
import { parseJsonc } from "../core/jsonc";
import { DEFAULT_SETTINGS, parseMcpFile, parseSettings, type ToolgateSettings } from "../core/settingsModel";
import { parseRules } from "../core/permissionRules";
import type { CommandAnalyzer } from "../core/commands/types";
import type { CliArgs } from "./args";

/** A configuration problem: the CLI exits 2 with this message and never falls back to something looser. */
export class ConfigError extends Error {}

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ConfigError(`cannot read ${what} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return parseJsonc(text);
  } catch (e) {
    throw new ConfigError(`${what} ${file} is not valid JSON: ${(e as Error).message}`);
  }
}

export function loadSettings(args: CliArgs): ToolgateSettings {
  let settings = DEFAULT_SETTINGS;
  if (args.settingsFile) {
    const r = parseSettings(readJson(args.settingsFile, "settings file"), args.settingsFile);
    if (!r.ok) throw new ConfigError(r.errors.join("\n"));
    settings = r.value;
  }
  if (args.mcpFile) {
    const r = parseMcpFile(readJson(args.mcpFile, "MCP file"), args.mcpFile);
    if (!r.ok) throw new ConfigError(r.errors.join("\n"));
    settings = { ...settings, mcpServers: r.value };
  }
  const rules = parseRules([
    { effect: "allow", layer: "settings", sources: settings.permissions.allow },
    { effect: "ask", layer: "settings", sources: settings.permissions.ask },
    { effect: "deny", layer: "settings", sources: settings.permissions.deny },
  ]);
  if (rules.errors.length > 0) throw new ConfigError(rules.errors.join("\n"));
  return settings;
}

export function resolveWorkspaces(args: CliArgs): string[] {
  const dirs = args.workspaces.length > 0 ? args.workspaces : [process.cwd()];
  return dirs.map((d) => {
    const abs = nodePath.resolve(d);
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

export async function loadGate(args: CliArgs, analyzer?: CommandAnalyzer): Promise<Gate> {
  const settings = loadSettings(args);
  const roots = resolveWorkspaces(args);
  try {
    return await Gate.create({
      settings,
      roots,
      trusted: !args.untrusted,
      headless: args.headless,
      ...(analyzer ? { analyzer } : {}),
    });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}
