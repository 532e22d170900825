/**
 * Where the hook wrappers live and how they are written. The folder is per user and stable
 * (`$XDG_DATA_HOME/toolgate/hooks`, default `~/.local/share/toolgate/hooks`), so an agent's configuration
 * names one path that an extension update never moves; the update only re-renders the wrapper in place.
 *
 * Invariants: a wrapper is replaced atomically (temp file in the same folder, then rename), so an agent never
 * runs half a script; it is rewritten only when its content differs (activation stays one read per wrapper);
 * the folder is created private (0700) and each wrapper is 0755.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { parseWrapperSpec, renderWrapper, type WrapperSpec } from "./wrapperScript";

export function wrapperDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? homedir(), ".local", "share");
  return path.join(base, "toolgate", "hooks");
}

export function wrapperPath(agent: string, env: NodeJS.ProcessEnv): string {
  return path.join(wrapperDir(env), `${agent}.sh`);
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Writes `content` to `file` (mode 0755) unless it already holds exactly that. */
export function writeExecutableIfChanged(file: string, content: string): "written" | "unchanged" {
  if (readOrUndefined(file) === content) {
    chmodSync(file, 0o755);
    return "unchanged";
  }
  // Only the leaf folder is private: parents like ~/.local/share keep the default mode.
  mkdirSync(path.dirname(path.dirname(file)), { recursive: true });
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, content, { mode: 0o755 });
    chmodSync(tmp, 0o755);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return "written";
}

export function writeWrapper(
  spec: WrapperSpec,
  env: NodeJS.ProcessEnv,
): { path: string; result: "written" | "unchanged" } {
  const file = wrapperPath(spec.agent, env);
  return { path: file, result: writeExecutableIfChanged(file, renderWrapper(spec)) };
}

/**
 * For the extension's activation: re-renders every installed wrapper with the extension's own `dist/cli.js`
 * (the node and the rest as recorded at install), writing only those whose content changes. Wrappers that are
 * not Toolgate's (no `# toolgate-wrapper:` line) are left alone; it never creates a wrapper for an agent the
 * person did not install. Returns the wrappers rewritten.
 */
export function refreshInstalledWrappers(cliPath: string, env: NodeJS.ProcessEnv): string[] {
  const dir = wrapperDir(env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".sh"));
  } catch {
    return [];
  }
  const written: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const text = readOrUndefined(file);
    const spec = text === undefined ? undefined : parseWrapperSpec(text);
    if (spec === undefined || `${spec.agent}.sh` !== name) continue;
    if (writeExecutableIfChanged(file, renderWrapper({ ...spec, cli: cliPath })) === "written") written.push(file);
  }
  return written;
}
