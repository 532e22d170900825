/**
 * Command-line flags, parsed the same way for every subcommand: `--flag VALUE` or `--flag=VALUE`, repeatable
 * flags collect, an unknown flag or a missing value is a usage error (exit 2). Nothing is ever read from
 * argv that should be secret: API keys come from the environment only.
 */

export { UsageError } from "./errors";
import { UsageError } from "./errors";

export type FlagKind = "value" | "list" | "bool";
export type FlagSpec = Readonly<Record<string, FlagKind>>;

export interface ParsedFlags {
  readonly values: Readonly<Record<string, string>>;
  readonly lists: Readonly<Record<string, readonly string[]>>;
  readonly bools: ReadonlySet<string>;
  readonly help: boolean;
}

/** The settings flags every gate-using subcommand takes. */
export const SETTINGS_FLAGS: FlagSpec = {
  "--settings": "value",
  "--user-settings": "value",
  "--managed": "value",
  "--mcp": "value",
  "--workspace": "list",
};

export const SETTINGS_USAGE = `  --settings FILE       Toolgate settings (flat toolgate.* keys, JSONC) as the user layer
  --user-settings FILE  the VS Code user settings.json to read (default: VS Code's own, per OS)
  --managed FILE        an extra managed-policy file (the system one is always read)
  --mcp FILE            MCP servers ({"mcpServers": {...}}), replacing toolgate.mcpServers
  --workspace DIR       a workspace root (repeatable; default: the current directory); its
                        .vscode/settings.json may only tighten`;

export function parseFlags(argv: readonly string[], spec: FlagSpec): ParsedFlags {
  const values: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  const bools = new Set<string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--help" || a === "-h") {
      help = true;
      continue;
    }
    const eq = a.indexOf("=");
    const [flag, inline] = a.startsWith("--") && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const kind = Object.prototype.hasOwnProperty.call(spec, flag) ? spec[flag] : undefined;
    if (!kind) throw new UsageError(`unknown option \`${a}\``);
    if (kind === "bool") {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
      bools.add(flag);
      continue;
    }
    const v = inline ?? argv[++i];
    if (v === undefined || v === "") throw new UsageError(`${flag} needs a value`);
    if (kind === "list") (lists[flag] ??= []).push(v);
    else if (values[flag] !== undefined) throw new UsageError(`${flag} is given twice`);
    else values[flag] = v;
  }
  return { values, lists, bools, help };
}

/** Where the settings come from, as the loader takes them. */
export interface SettingsArgs {
  readonly settingsFile?: string;
  readonly userSettingsFile?: string;
  readonly managedFile?: string;
  readonly mcpFile?: string;
  readonly workspaces: readonly string[];
}

export function settingsArgs(f: ParsedFlags): SettingsArgs {
  const v = f.values;
  if (v["--settings"] !== undefined && v["--user-settings"] !== undefined)
    throw new UsageError("give --settings or --user-settings, not both (each is the user layer)");
  return {
    workspaces: f.lists["--workspace"] ?? [],
    ...(v["--settings"] !== undefined ? { settingsFile: v["--settings"] } : {}),
    ...(v["--user-settings"] !== undefined ? { userSettingsFile: v["--user-settings"] } : {}),
    ...(v["--managed"] !== undefined ? { managedFile: v["--managed"] } : {}),
    ...(v["--mcp"] !== undefined ? { mcpFile: v["--mcp"] } : {}),
  };
}
