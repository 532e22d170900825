/**
 * File reads and writes that go exactly where the gate decided: to the decided realpath, after checking that
 * its parent is still its own realpath (no directory on the way became a link), and with O_NOFOLLOW on the
 * last component (a file that became a link is not followed). Any difference is a `PathChanged`, and the
 * caller decides again; it never falls back to a path that follows links.
 */
import { constants } from "node:fs";
import { mkdir, open, realpath, type FileHandle } from "node:fs/promises";
import * as nodePath from "node:path";

export class PathChanged extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`\`${path}\` changed after it was decided (${why})`);
  }
}

/** O_NOFOLLOW where the platform has it (not on Windows, where links need privileges to create). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

async function checkParent(real: string): Promise<void> {
  const parent = nodePath.dirname(real);
  let now: string;
  try {
    now = await realpath(parent);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT")
      throw Object.assign(new Error(`\`${parent}\` does not exist`), { code: "ENOENT" });
    throw e;
  }
  if (now !== parent) throw new PathChanged(real, `its directory now resolves to ${now}`);
}

async function openChecked(real: string, flags: number, mode?: number): Promise<FileHandle> {
  await checkParent(real);
  try {
    return await open(real, flags | NOFOLLOW, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "EMLINK") throw new PathChanged(real, "it is now a symbolic link");
    throw e;
  }
}

export type ResolvedStat = "file" | "directory" | "other" | undefined;

/** What is at the decided path itself (a link there counts as a change). */
export async function statResolved(real: string): Promise<ResolvedStat> {
  let fh: FileHandle;
  try {
    fh = await openChecked(real, constants.O_RDONLY);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw e;
  }
  try {
    const st = await fh.stat();
    return st.isFile() ? "file" : st.isDirectory() ? "directory" : "other";
  } finally {
    await fh.close();
  }
}

export async function readResolved(real: string): Promise<Uint8Array> {
  const fh = await openChecked(real, constants.O_RDONLY);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new Error(`\`${real}\` is not a regular file`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/** Creates missing parent directories, then writes without following a final link. */
export async function writeResolved(real: string, data: Uint8Array): Promise<void> {
  await mkdir(nodePath.dirname(real), { recursive: true });
  const fh = await openChecked(real, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o666);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new PathChanged(real, "it is not a regular file");
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
}
