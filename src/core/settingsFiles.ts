/**
 * The settings loader for every surface that reads files (`toolgate check`, `run`, `hook`) and the managed
 * policy for the VS Code host too: where each file lives per OS, how it is read (JSONC, per-key errors),
 * and the layers it makes for `resolveSettings`.
 *
 * Invariants:
 * - The managed policy at its system path is always read when it exists. A `--managed` file or the
 *   TOOLGATE_MANAGED_SETTINGS file is one more managed layer after it, never instead of it: whoever can set
 *   an argument or a variable cannot switch the administrator's policy off.
 * - A file that is missing where none is required (the default user settings, a workspace without
 *   `.vscode/settings.json`, no policy installed) is no layer; a file that cannot be read or parsed is an
 *   error, and the surfaces fail closed on errors (the gate approves nothing; the CLI exits 2; the hook denies).
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import * as nodePath from "node:path";
import { parseJsonc } from "./jsonc";
import { resolveSettings, type HostSettings, type SettingsLayer } from "./settingsLayers";

type Platform = NodeJS.Platform;
type Env = Readonly<Record<string, string | undefined>>;

/** VS Code (stable) default profile's user settings.json, where VS Code itself puts it. */
export function vscodeUserSettingsPath(
  platform: Platform = process.platform,
  env: Env = process.env,
  home: string = homedir(),
): string {
  const path = platform === "win32" ? nodePath.win32 : nodePath.posix;
  const appData =
    env.VSCODE_APPDATA ||
    (platform === "win32"
      ? env.APPDATA || path.join(home, "AppData", "Roaming")
      : platform === "darwin"
        ? path.join(home, "Library", "Application Support")
        : env.XDG_CONFIG_HOME || path.join(home, ".config"));
  return path.join(appData, "Code", "User", "settings.json");
}

/** The administrator's policy file at its system location. */
export function managedSettingsPath(platform: Platform = process.platform, env: Env = process.env): string {
  if (platform === "win32")
    return nodePath.win32.join(env.ProgramData || "C:\\ProgramData", "Toolgate", "managed-settings.json");
  if (platform === "darwin") return "/Library/Application Support/Toolgate/managed-settings.json";
  return "/etc/toolgate/managed-settings.json";
}

export type FileRead = { readonly flat: unknown } | { readonly missing: true } | { readonly error: string };

/** Reads one JSONC settings file. An empty file is an empty layer, as VS Code treats it. */
export function readSettingsFile(file: string): FileRead {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { missing: true };
    return { error: `cannot read ${file}: ${code ?? (e as Error).message}` };
  }
  try {
    return { flat: parseJsonc(text) ?? {} };
  } catch (e) {
    return { error: `${file} is not valid JSON: ${(e as Error).message}` };
  }
}

/** One file as a layer: missing files are no layer unless `required`. */
function layerOf(file: string, required: boolean, errors: string[]): SettingsLayer | undefined {
  const r = readSettingsFile(file);
  if ("flat" in r) return { source: file, flat: r.flat };
  if ("error" in r) errors.push(r.error);
  else if (required) errors.push(`cannot read ${file}: ENOENT`);
  return undefined;
}

/** The managed policy layers: the system file, then the extra file (`--managed` or TOOLGATE_MANAGED_SETTINGS). */
export function managedLayers(
  o: { readonly managedFile?: string; readonly env?: Env; readonly platform?: Platform } = {},
): { readonly layers: SettingsLayer[]; readonly errors: string[] } {
  const env = o.env ?? process.env;
  const errors: string[] = [];
  const layers: SettingsLayer[] = [];
  const system = managedSettingsPath(o.platform ?? process.platform, env);
  const sys = layerOf(system, false, errors);
  if (sys) layers.push(sys);
  const extra = o.managedFile ?? (env.TOOLGATE_MANAGED_SETTINGS || undefined);
  if (extra && nodePath.resolve(extra) !== nodePath.resolve(system)) {
    const x = layerOf(extra, true, errors);
    if (x) layers.push(x);
  }
  return { layers, errors };
}

export interface SettingsFileOptions {
  /** `--settings FILE`: a Toolgate settings file used as the user layer (VS Code's file is then not read). */
  readonly settingsFile?: string;
  /** `--user-settings FILE`: the VS Code user settings.json to read instead of the per-OS default. */
  readonly userSettingsFile?: string;
  readonly managedFile?: string;
  /** Absolute workspace roots: each one's `.vscode/settings.json` is a tighten-only layer. */
  readonly roots: readonly string[];
  /** `toolgate run`'s flags as one more layer. */
  readonly flags?: SettingsLayer;
  readonly env?: Env;
  readonly platform?: Platform;
  readonly home?: string;
}

/** Loads every layer from files and combines them: the one loader of `check`, `run` and `hook`. */
export function loadSettingsFiles(o: SettingsFileOptions): HostSettings {
  const env = o.env ?? process.env;
  const platform = o.platform ?? process.platform;
  const errors: string[] = [];
  const userFile = o.settingsFile ?? o.userSettingsFile ?? vscodeUserSettingsPath(platform, env, o.home ?? homedir());
  const user = layerOf(userFile, o.settingsFile !== undefined || o.userSettingsFile !== undefined, errors);
  const workspace: SettingsLayer[] = [];
  for (const root of o.roots) {
    const ws = layerOf(nodePath.join(root, ".vscode", "settings.json"), false, errors);
    if (ws) workspace.push(ws);
  }
  const managed = managedLayers({ ...(o.managedFile ? { managedFile: o.managedFile } : {}), env, platform });
  errors.push(...managed.errors);
  const r = resolveSettings({
    ...(user ? { user } : {}),
    workspace,
    ...(o.flags ? { flags: o.flags } : {}),
    managed: managed.layers,
  });
  return { ...r, errors: [...errors, ...r.errors] };
}
