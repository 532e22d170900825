import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
  type Dirent,
} from "node:fs";
import * as nodePath from "node:path";
import { ProtectedPaths } from "../../core/protectedPaths";

/**
 * The state of the protected paths before a sandboxed command, compared with their state after. Existing
 * protected paths are read-only inside the sandbox; those that do not exist yet cannot be mounted without
 * creating them in the person's tree, so a command may create them (`git init` and a hook, a new
 * `.vscode/settings.json`). The compare finds that, and `revertChange` undoes it once the person says so.
 */

/** Directory levels below each root searched for new protected entries (`a/b/.git` is found). */
export const SNAPSHOT_DEPTH = 3;
/** Entries visited per snapshot; the rest of a huge tree is not searched (reported as `truncated`). */
export const SNAPSHOT_ENTRY_LIMIT = 20_000;
/** Files up to this size are kept, so a change can be restored. */
export const KEEP_CONTENT_BYTES = 64 * 1024;
/** Files up to this size are hashed; larger ones compare by size and mtime. */
const HASH_BYTES = 1024 * 1024;

interface Entry {
  readonly fingerprint: string;
  readonly mode?: number;
  readonly content?: Buffer;
}

export interface ProtectedSnapshot {
  readonly entries: ReadonlyMap<string, Entry>;
  readonly truncated: boolean;
}

export type ChangeKind = "added" | "changed" | "removed";

export interface ProtectedChange {
  /** Absolute path. */
  readonly path: string;
  readonly kind: ChangeKind;
  /** For the ask: "a new git directory", "a git hook", ... */
  readonly what: string;
}

const SKIP_DIRS = new Set(["node_modules", ".hg", ".svn"]);
const GIT_INSIDE = ["config", "config.worktree", "hooks", "info"];

function fingerprint(abs: string): Entry | undefined {
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (st.isSymbolicLink()) {
    let target = "?";
    try {
      target = readlinkSync(abs);
    } catch {
      /* unreadable link: still an entry */
    }
    return { fingerprint: `link:${target}` };
  }
  if (st.isDirectory()) return { fingerprint: "dir", mode: st.mode };
  if (!st.isFile()) return { fingerprint: `other:${st.mode}` };
  if (st.size > HASH_BYTES) return { fingerprint: `file:${st.size}:${st.mtimeMs}:${st.mode}`, mode: st.mode };
  let data: Buffer;
  try {
    data = readFileSync(abs);
  } catch {
    return { fingerprint: `unreadable:${st.size}:${st.mtimeMs}` };
  }
  const hash = createHash("sha256").update(data).digest("hex");
  return {
    fingerprint: `file:${hash}:${st.mode}`,
    mode: st.mode,
    ...(data.length <= KEEP_CONTENT_BYTES ? { content: data } : {}),
  };
}

/** Everything below `dir` (bounded), as entries. */
function addTree(dir: string, out: Map<string, Entry>, budget: { left: number }, depth = 0): void {
  const self = fingerprint(dir);
  if (!self) return;
  out.set(dir, self);
  if (self.fingerprint !== "dir" || depth > 4) return;
  let list: Dirent[];
  try {
    list = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of list) {
    if (--budget.left < 0) return;
    addTree(nodePath.join(dir, e.name), out, budget, depth + 1);
  }
}

export function takeSnapshot(roots: readonly string[], ignoreFileName: string): ProtectedSnapshot {
  const guard = new ProtectedPaths(ignoreFileName);
  const entries = new Map<string, Entry>();
  const budget = { left: SNAPSHOT_ENTRY_LIMIT };
  roots.forEach((root, index) => {
    const protects = (relative: string) => {
      const abs = nodePath.join(root, relative);
      return guard.match({ input: abs, lexical: abs, real: abs, realRoot: { index, root, relative } }) !== undefined;
    };
    const walk = (rel: string, level: number): void => {
      let list: Dirent[];
      try {
        list = readdirSync(rel === "" ? root : nodePath.join(root, rel), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of list) {
        if (--budget.left < 0) return;
        const child = rel === "" ? e.name : `${rel}/${e.name}`;
        const abs = nodePath.join(root, child);
        if (e.name === ".git") {
          const self = fingerprint(abs);
          if (self) entries.set(abs, self);
          if (e.isDirectory()) for (const n of GIT_INSIDE) addTree(nodePath.join(abs, n), entries, budget);
          continue;
        }
        if (e.isDirectory() && (e.name === ".vscode" || protects(`${child}/x`))) {
          addTree(abs, entries, budget);
          continue;
        }
        if (protects(child)) {
          const fp = fingerprint(abs);
          if (fp) entries.set(abs, fp);
          continue;
        }
        if (e.isDirectory() && level < SNAPSHOT_DEPTH && !SKIP_DIRS.has(e.name)) walk(child, level + 1);
      }
    };
    walk("", 0);
  });
  return { entries, truncated: budget.left < 0 };
}

function describe(path: string): string {
  const parts = path.split("/");
  const i = parts.lastIndexOf(".git");
  if (i >= 0) {
    const inside = parts.slice(i + 1);
    if (inside.length === 0) return "a git directory";
    if (inside[0] === "hooks") return inside.length > 1 ? "a git hook" : "the git hooks directory";
    if (inside[0]?.startsWith("config")) return "the git configuration";
    return "git metadata";
  }
  if (parts.includes(".vscode")) return "editor configuration (.vscode)";
  if (parts.includes("workflows")) return "a CI workflow";
  if (parts.includes(".husky")) return "a git hook (husky)";
  return "a protected file";
}

/**
 * What appeared, changed or vanished. Below an added directory only the directory itself is listed (removing
 * it removes the rest). Sorted by path.
 */
export function compareSnapshots(before: ProtectedSnapshot, after: ProtectedSnapshot): ProtectedChange[] {
  const changes: ProtectedChange[] = [];
  const addedDirs: string[] = [];
  for (const path of [...after.entries.keys()].sort()) {
    const now = after.entries.get(path)!;
    const was = before.entries.get(path);
    if (was === undefined) {
      if (addedDirs.some((d) => path.startsWith(d + "/"))) continue;
      if (now.fingerprint === "dir") addedDirs.push(path);
      changes.push({ path, kind: "added", what: describe(path) });
    } else if (was.fingerprint !== now.fingerprint) changes.push({ path, kind: "changed", what: describe(path) });
  }
  for (const path of before.entries.keys())
    if (!after.entries.has(path) && !after.truncated) changes.push({ path, kind: "removed", what: describe(path) });
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Undoes one change: removes what appeared; restores what changed or vanished from the copy kept before the
 * run. Returns false when it cannot (a large file, a directory that vanished): the person is told.
 */
export function revertChange(change: ProtectedChange, before: ProtectedSnapshot): boolean {
  if (change.kind === "added") {
    rmSync(change.path, { recursive: true, force: true });
    return true;
  }
  const was = before.entries.get(change.path);
  if (was?.content === undefined) return false;
  rmSync(change.path, { recursive: true, force: true });
  mkdirSync(nodePath.dirname(change.path), { recursive: true });
  writeFileSync(change.path, was.content, { flag: "wx" });
  if (was.mode !== undefined) chmodSync(change.path, was.mode & 0o7777);
  return true;
}
