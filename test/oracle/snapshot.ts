/**
 * What a line did to the files bash could write: a signature (type, mode, size, mtime, ctime, inode) of every
 * entry under the workspace, the outside directory, HOME and the sandbox root, before and after. Any write,
 * rename, chmod or `touch -d` changes the ctime, so comparing signatures finds every change without hashing.
 * Reads are found by access time: each sentinel's atime is set older than its mtime before the line, so the
 * kernel's relatime rule updates it on the first read by any process (bash's own `< .env` included).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SENTINELS, type Layout, type Sentinel } from "./workspace";

export type Snapshot = Map<string, string>;

/** Root-level names of the sandbox root that are mount points (read-only binds, proc, dev, the shim log). */
const ROOT_MOUNTS = new Set([
  "usr",
  ".realusr",
  ".real",
  "bin",
  "sbin",
  "lib",
  "lib64",
  "etc",
  "proc",
  "dev",
  ".oracle",
]);

function walk(dir: string, out: Snapshot, skip: ReadonlySet<string>): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (skip.has(p)) continue;
    const st = fs.lstatSync(p, { bigint: true });
    const type = st.isDirectory() ? "d" : st.isSymbolicLink() ? `l:${fs.readlinkSync(p)}` : st.isFile() ? "f" : "o";
    out.set(p, `${type} ${st.mode} ${st.size} ${st.mtimeNs} ${st.ctimeNs} ${st.ino}`);
    if (st.isDirectory()) walk(p, out, skip);
  }
}

export function snapshot(layout: Layout): Snapshot {
  const out: Snapshot = new Map();
  const skip = new Set<string>([...ROOT_MOUNTS].map((n) => path.join(layout.root, n)));
  // The workspace, outside directory and HOME are mount points inside the root, at their own host paths.
  for (const area of [layout.ws, layout.outside, layout.home]) skip.add(path.join(layout.root, area));
  for (const area of [layout.ws, layout.outside, layout.home]) walk(area, out, skip);
  walk(layout.root, out, skip);
  return out;
}

export interface FileChange {
  /** Absolute path as bash saw it (the sandbox root's files shown at their path inside). */
  readonly path: string;
  /** Where it is on this machine. */
  readonly host: string;
  readonly change: "created" | "changed" | "deleted";
  readonly dir: boolean;
}

export function diff(before: Snapshot, after: Snapshot, layout: Layout): FileChange[] {
  const shown = (p: string) =>
    p.startsWith(layout.root + "/") && ![layout.ws, layout.outside, layout.home].some((a) => p.startsWith(a + "/"))
      ? p.slice(layout.root.length)
      : p;
  const out: FileChange[] = [];
  for (const [p, sig] of after) {
    const old = before.get(p);
    if (old === undefined) out.push({ path: shown(p), host: p, change: "created", dir: sig.startsWith("d ") });
    else if (old !== sig) {
      // A directory whose entries changed shows up through those entries.
      if (sig.startsWith("d ") && old.startsWith("d ")) continue;
      out.push({ path: shown(p), host: p, change: "changed", dir: false });
    }
  }
  for (const [p, sig] of before)
    if (!after.has(p)) out.push({ path: shown(p), host: p, change: "deleted", dir: sig.startsWith("d ") });
  return out;
}

/** Sentinels whose access time moved since `resetAtimes` (see sandbox.ts). */
export function sentinelsRead(layout: Layout): Sentinel[] {
  const epoch = Date.parse("2001-01-02T00:00:00Z");
  return SENTINELS.filter((s) => {
    try {
      return fs.statSync(path.join(layout[s.dir], s.path)).atimeMs > epoch;
    } catch {
      return false;
    }
  });
}
