/**
 * Where checkpoints live. One folder per workspace (its set of roots) inside the storage directory:
 *
 *   STORAGE/<workspace key>/workspace.json          the roots, for `toolgate checkpoints` to find them
 *   STORAGE/<workspace key>/lock                     held while an operation runs (any process)
 *   STORAGE/<workspace key>/roots/<root key>/shadow.git   the bare shadow repository of one root
 *   STORAGE/<workspace key>/roots/<root key>/index        its private index (stat cache)
 *   STORAGE/<workspace key>/tasks/<task key>.json    the steps of one task (trees per root)
 *   STORAGE/<workspace key>/skipped/<sha256>.json    what a checkpoint left out (shared by identical steps)
 *   STORAGE/home/                                    the empty HOME git runs with
 *
 * One shadow repository per root keeps each root's objects, index and gc apart; a step of a multi-root
 * workspace is one tree per root.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import * as nodePath from "node:path";

function sha(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The same set of roots gives the same key, whatever their order. */
export function workspaceKey(roots: readonly string[]): string {
  return "ws-" + sha([...new Set(roots)].sort().join("\n")).slice(0, 20);
}

export function rootKey(root: string): string {
  const base =
    nodePath
      .basename(root)
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .slice(0, 40) || "root";
  return `${base}-${sha(root).slice(0, 12)}`;
}

const SAFE_TASK = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A file name for a task id: the id itself when it is plainly safe, else a hash of it. */
export function taskKey(taskId: string): string {
  return SAFE_TASK.test(taskId) ? taskId : "h-" + sha(taskId).slice(0, 32);
}

export interface WorkspaceInfo {
  readonly dir: string;
  readonly roots: readonly string[];
}

/** The CLI's store: `$XDG_STATE_HOME/toolgate/checkpoints`, else `~/.toolgate/checkpoints`. */
export function defaultCliStorageDir(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME;
  if (state && nodePath.isAbsolute(state)) return nodePath.join(state, "toolgate", "checkpoints");
  return nodePath.join(homedir(), ".toolgate", "checkpoints");
}

export async function readWorkspaceInfo(dir: string): Promise<WorkspaceInfo | undefined> {
  try {
    const v = JSON.parse(await readFile(nodePath.join(dir, "workspace.json"), "utf8")) as { roots?: unknown };
    if (!Array.isArray(v.roots) || !v.roots.every((r) => typeof r === "string")) return undefined;
    return { dir, roots: v.roots as string[] };
  } catch {
    return undefined;
  }
}

/** Every workspace folder of the store that holds a record of `taskId`. */
export async function workspacesWithTask(storageDir: string, taskId: string): Promise<WorkspaceInfo[]> {
  const names = await readdir(storageDir).catch(() => [] as string[]);
  const out: WorkspaceInfo[] = [];
  for (const name of names.filter((n) => n.startsWith("ws-")).sort()) {
    const dir = nodePath.join(storageDir, name);
    const has = await readFile(nodePath.join(dir, "tasks", taskKey(taskId) + ".json")).then(
      () => true,
      () => false,
    );
    const info = has ? await readWorkspaceInfo(dir) : undefined;
    if (info) out.push(info);
  }
  return out;
}
