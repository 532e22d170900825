import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { processAlive } from "../processAlive";

/**
 * Each task's private `/tmp` for its sandboxed commands: a host directory bound at `/tmp` inside, kept across
 * the task's commands (sub-tasks pass their root task's key, so they share it), removed when the task ends
 * (`endTaskTmp`) or this process does. Directories are named by this process's id: a reload is a new process,
 * so it starts a fresh one, and directories left by a process that is gone are removed on first use.
 * Invariant: the parent is 0700 and owned by this user, so no other user can pre-create or read them.
 */

const dirs = new Map<string, string>();
let swept = false;

function base(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const dir = nodePath.join(tmpdir(), `toolgate-tasks-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || (typeof process.getuid === "function" && st.uid !== process.getuid()))
    throw new Error(`${dir} is not a directory of this user`);
  chmodSync(dir, 0o700);
  return dir;
}

/** Removes the directories of processes that are gone (a crash or a reload left them). */
function sweep(parent: string): void {
  swept = true;
  for (const name of readdirSync(parent)) {
    const pid = Number(/^([0-9]+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid))
      rmSync(nodePath.join(parent, name), { recursive: true, force: true });
  }
}

/** The task's `/tmp` on the host (created on first use, real path). Throws when it cannot be made. */
export function taskTmpDir(key: string): string {
  const known = dirs.get(key);
  if (known !== undefined && lstatSync(known, { throwIfNoEntry: false })?.isDirectory()) return known;
  const parent = base();
  if (!swept) sweep(parent);
  const safe = key.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40);
  const dir = realpathSync.native(mkdtempSync(nodePath.join(parent, `${process.pid}-${safe}-`)));
  chmodSync(dir, 0o700);
  dirs.set(key, dir);
  return dir;
}

/** The task ended: its `/tmp` goes. */
export function endTaskTmp(key: string): void {
  const dir = dirs.get(key);
  dirs.delete(key);
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}

/** Every task's `/tmp` goes (the host session ends). */
export function endAllTaskTmps(): void {
  for (const key of [...dirs.keys()]) endTaskTmp(key);
}

process.once("exit", endAllTaskTmps);
