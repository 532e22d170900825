import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync, type Dirent } from "node:fs";
import * as nodePath from "node:path";
import type { GitConfigSource } from "../../core/gitConfigTargets";
import type { ResolvedPath } from "../../core/paths";
import {
  describeProtected,
  GIT_DIR_PARTS,
  gitPartWhat,
  looksLikeGitDir,
  ProtectedPaths,
  type ProtectedHit,
} from "../../core/protectedPaths";
import { meaningOf, runCodeFile, type RunCodeFile } from "../../core/runCodeFiles";
import { nodeGitConfig } from "../git/gitConfigReader";
import { kinds } from "./workspaceScan";

/**
 * The state of the protected paths before a sandboxed command, compared with their state after. Existing
 * protected paths are read-only inside the sandbox; those that do not exist yet cannot be mounted without
 * creating them in the person's tree, so a command may create them (`git init` and a hook, a new
 * `.vscode/settings.json`). The compare finds that, and `protectedUndo.ts` undoes it once the person says so.
 *
 * The same snapshot holds the files that run code later (`core/runCodeFiles.ts`: package.json scripts,
 * Makefiles, conftest.py…), gitignored or not. They stay writable in the sandbox; a change that means something
 * (for package.json and go.mod only the fields their tool runs, for the others any byte) is reported like a
 * protected change, so "write the script, then run it" needs the person's keep.
 */

/**
 * Entries visited per snapshot, at any depth (breadth-first); the rest of a huge tree is not searched (reported
 * as `truncated`). Unchanged directories cost one stat each (see `relevantEntries`).
 */
export const SNAPSHOT_ENTRY_LIMIT = 50_000;
/** Files up to this size are kept, so a change can be restored. */
export const KEEP_CONTENT_BYTES = 64 * 1024;
/** Files up to this size are hashed; larger ones compare by size and mtime. */
export const HASH_BYTES = 1024 * 1024;

interface Entry {
  readonly fingerprint: string;
  /** What it is, for the person (the matcher's words). */
  readonly what?: string;
  readonly mode?: number;
  readonly content?: Buffer;
  /** A file that runs code later (not a protected path). */
  readonly runsCode?: true;
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
  /** A file that runs code later (`core/runCodeFiles.ts`), not a protected path. */
  readonly runsCode?: true;
}

const SKIP_DIRS = new Set(["node_modules", ".hg", ".svn"]);

/**
 * File fingerprints reused while the file's inode, size, mode and ctime are unchanged: ctime cannot be set by
 * a command, and any write, chmod, rename onto or link change moves it. A file changed within the last second
 * is read again (coarse kernel timestamps could give a later write the same ctime). Saves reading and hashing
 * every protected file (a fresh git directory has a dozen sample hooks) twice per command.
 */
const fingerprints = new Map<string, { readonly key: string; readonly entry: Entry }>();
const FINGERPRINT_CACHE_LIMIT = 20_000;
/** Kept contents in the cache, in bytes; past it entries are not cached (they are still read). */
const FINGERPRINT_CACHE_BYTES = 16 * 1024 * 1024;
let cachedBytes = 0;

function fingerprint(abs: string): Entry | undefined {
  const st = lstatSync(abs, { throwIfNoEntry: false, bigint: true });
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
  const mode = Number(st.mode);
  if (st.isDirectory()) return { fingerprint: `dir:${st.ino}:${mode}`, mode };
  if (!st.isFile()) return { fingerprint: `other:${mode}` };
  const key = `${st.dev}:${st.ino}:${st.size}:${mode}:${st.ctimeNs}`;
  const hit = fingerprints.get(abs);
  if (hit?.key === key) return hit.entry;
  const entry = readFingerprint(abs, Number(st.size), Number(st.mtimeMs), mode);
  if (Number(st.ctimeMs) < Date.now() - 1000) {
    if (fingerprints.size >= FINGERPRINT_CACHE_LIMIT || cachedBytes > FINGERPRINT_CACHE_BYTES) {
      fingerprints.clear();
      cachedBytes = 0;
    }
    cachedBytes += entry.content?.length ?? 0;
    fingerprints.set(abs, { key, entry });
  }
  return entry;
}

function readFingerprint(abs: string, size: number, mtimeMs: number, mode: number): Entry {
  if (size > HASH_BYTES) return { fingerprint: `file:${size}:${mtimeMs}:${mode}`, mode };
  let data: Buffer;
  try {
    data = readFileSync(abs);
  } catch {
    return { fingerprint: `unreadable:${size}:${mtimeMs}` };
  }
  const hash = createHash("sha256").update(data).digest("hex");
  return {
    fingerprint: `file:${hash}:${mode}`,
    mode,
    ...(data.length <= KEEP_CONTENT_BYTES ? { content: data } : {}),
  };
}

/** Everything below `dir` (bounded), as entries. */
function addTree(
  dir: string,
  out: Map<string, Entry>,
  budget: { left: number },
  depth = 0,
  what?: string,
  /** The words for what is below it (defaults to `what`). */
  inner: string | undefined = what,
): void {
  const self = fingerprint(dir);
  if (!self) return;
  const words = depth === 0 ? what : inner;
  out.set(dir, words !== undefined ? { ...self, what: words } : self);
  if (!self.fingerprint.startsWith("dir:") || depth > 4) return;
  let list: Dirent[];
  try {
    list = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of list) {
    if (--budget.left < 0) return;
    addTree(nodePath.join(dir, e.name), out, budget, depth + 1, what, inner);
  }
}

interface Listed {
  readonly name: string;
  readonly isDir: boolean;
  /** The matcher's fixed-pattern verdict for the entry (a pure function of its path). */
  readonly hit: ProtectedHit | undefined;
  /** A file that runs code later (a pure function of its path too). */
  readonly runCode?: RunCodeFile;
}

interface Listing {
  /** Directories and protected entries; ordinary files are left out. */
  readonly entries: readonly Listed[];
  readonly total: number;
  /** The directory is a git directory (`looksLikeGitDir` of its entries). */
  readonly gitDir: boolean;
}

/**
 * Directory listings reused while a directory's ctime is unchanged. ctime (unlike mtime) cannot be set by a
 * command: any entry created or removed moves it. A directory changed within the last second is listed again,
 * since coarse kernel timestamps could give a change right after the listing the same ctime. The verdicts
 * kept are the fixed patterns' (keyed by the ignore file's name, their one input besides the path).
 */
const listings = new Map<string, { readonly key: string; readonly listing: Listing }>();
const LISTING_CACHE_LIMIT = 50_000;

function relevantEntries(
  dir: string,
  verdict: (name: string, isDir: boolean) => ProtectedHit | undefined,
  ignoreName: string,
  runCode: (name: string) => RunCodeFile | undefined,
): Listing | undefined {
  let key: string | undefined;
  try {
    const st = statSync(dir, { bigint: true });
    if (Number(st.ctimeMs) < Date.now() - 1000) key = `${st.dev}:${st.ino}:${st.ctimeNs}:${ignoreName}`;
  } catch {
    return undefined;
  }
  const hit = listings.get(dir);
  if (key !== undefined && hit?.key === key) return hit.listing;
  let list: Dirent[];
  try {
    list = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const entries: Listed[] = [];
  for (const e of list) {
    const isDir = e.isDirectory();
    const h = verdict(e.name, isDir);
    const r = isDir || h !== undefined ? undefined : runCode(e.name);
    if (isDir || h !== undefined || r !== undefined)
      entries.push({ name: e.name, isDir, hit: h, ...(r !== undefined ? { runCode: r } : {}) });
  }
  const gitDir = looksLikeGitDir(kinds(dir, list));
  const listing = { entries, total: list.length, gitDir };
  if (key !== undefined) {
    if (listings.size >= LISTING_CACHE_LIMIT) listings.clear();
    listings.set(dir, { key, listing });
  }
  return listing;
}

/** A git directory's protected parts, and those of the git directories git keeps inside it (modules, worktrees). */
function addGitDir(gitDir: string, out: Map<string, Entry>, budget: { left: number }, depth = 0): void {
  for (const n of GIT_DIR_PARTS)
    addTree(nodePath.join(gitDir, n), out, budget, 0, gitPartWhat(n), gitPartWhat(`${n}/x`));
  if (depth > 3) return;
  for (const below of depth === 0 ? ["modules", "worktrees"] : [""]) {
    const dir = nodePath.join(gitDir, below);
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of list) {
      if (--budget.left < 0) return;
      if (!e.isDirectory() || (depth > 0 && (GIT_DIR_PARTS as readonly string[]).includes(e.name))) continue;
      const sub = nodePath.join(dir, e.name);
      const isGit = lstatSync(nodePath.join(sub, "HEAD"), { throwIfNoEntry: false }) !== undefined;
      addGitDir(sub, out, budget, isGit ? 4 : depth + 1);
    }
  }
}

const inRoot = (root: string, index: number, relative: string): ResolvedPath => {
  const abs = nodePath.join(root, relative);
  return { input: abs, lexical: abs, real: abs, realRoot: { index, root, relative } };
};

/**
 * The protected paths of every root as they are now, found by asking the gate's matcher (`ProtectedPaths`)
 * about what a bounded walk meets: entries the fixed patterns name (a protected directory as a whole), every
 * git directory whatever its name (its config, hooks and info), and the hooks directory and included files the
 * repository's configuration names, wherever they are. Breadth-first, so a walk cut short by
 * `SNAPSHOT_ENTRY_LIMIT` has covered the shallow levels.
 */
export function takeSnapshot(
  roots: readonly string[],
  ignoreFileName: string,
  gitConfig: GitConfigSource = nodeGitConfig,
): ProtectedSnapshot {
  const entries = new Map<string, Entry>();
  const budget = { left: SNAPSHOT_ENTRY_LIMIT };
  const ignoreName = ignoreFileName.toLowerCase();
  const guard = new ProtectedPaths(ignoreFileName, roots, gitConfig);
  guard.beginDecision();
  roots.forEach((root, index) => {
    const queue: string[] = [""];
    for (let i = 0; i < queue.length && budget.left >= 0; i++) {
      const rel = queue[i]!;
      const dir = rel === "" ? root : nodePath.join(root, rel);
      // A directory counts as protected whole when what is inside it is (`.claude/x`, `.github/workflows/x`).
      const verdict = (name: string, isDir: boolean) => {
        const child = rel === "" ? name : `${rel}/${name}`;
        return (
          guard.patternHit(inRoot(root, index, child)) ??
          (isDir ? guard.patternHit(inRoot(root, index, `${child}/x`)) : undefined)
        );
      };
      const listed = relevantEntries(dir, verdict, ignoreName, (name) =>
        runCodeFile(rel === "" ? name : `${rel}/${name}`),
      );
      if (listed === undefined) continue;
      budget.left -= listed.total;
      if (budget.left < 0) break;
      if (listed.gitDir) {
        // A git directory whatever its name (a bare repository, a renamed `.git`): its parts, not its objects.
        const self = rel === "" ? undefined : fingerprint(dir);
        if (self) entries.set(dir, { ...self, what: "a git directory" });
        addGitDir(dir, entries, budget);
        if (rel !== "") continue;
      }
      for (const e of listed.entries) {
        const abs = nodePath.join(dir, e.name);
        if (e.hit !== undefined) {
          // `.git` (a directory, or a file naming one elsewhere): itself, and its parts when it is a directory.
          if (e.name.toLowerCase() === ".git") {
            const self = fingerprint(abs);
            if (self) entries.set(abs, { ...self, what: "a git directory" });
            if (e.isDir) addGitDir(abs, entries, budget);
          } else addTree(abs, entries, budget, 0, e.hit.what);
          continue;
        }
        if (e.runCode !== undefined) {
          const entry = runCodeEntry(abs, e.runCode);
          if (entry) entries.set(abs, entry);
          continue;
        }
        if (e.isDir && !SKIP_DIRS.has(e.name)) queue.push(rel === "" ? e.name : `${rel}/${e.name}`);
      }
    }
  });
  // The hooks directory and included config files the configuration names, wherever they are.
  for (const t of guard.configuredTargets())
    if (t.kind === "known")
      for (const target of t.targets)
        if (!entries.has(target)) addTree(target, entries, budget, 0, ...targetWords(target));
  return { entries, truncated: budget.left < 0 };
}

/**
 * A file that runs code later: its fingerprint is what its tool runs (`meaningOf`) when the content was kept
 * and reads as the tool reads it, and otherwise the bytes, so an unreadable or unparsable file still compares.
 */
function runCodeEntry(abs: string, file: RunCodeFile): Entry | undefined {
  const e = fingerprint(abs);
  if (!e) return undefined;
  const meaning =
    file.meaning !== "bytes" && e.fingerprint.startsWith("file:") && e.content !== undefined
      ? meaningOf(file.meaning, e.content.toString("utf8"))
      : undefined;
  const fp = meaning !== undefined ? `meaning:${createHash("sha256").update(meaning).digest("hex")}` : e.fingerprint;
  return { ...e, fingerprint: fp, what: file.what, runsCode: true };
}

/** What a configured target is: a hooks directory (and the hooks in it), or a configuration file. */
function targetWords(target: string): [string, string] {
  return /hook/i.test(nodePath.basename(target))
    ? ["the git hooks directory", "a git hook"]
    : ["the git configuration", "the git configuration"];
}

/** What a protected path is, in words for the person (the matcher's words). */
export { describeProtected };

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
    const runs = now.runsCode ? ({ runsCode: true } as const) : {};
    if (was === undefined) {
      if (addedDirs.some((d) => path.startsWith(d + "/"))) continue;
      if (now.fingerprint.startsWith("dir:")) addedDirs.push(path);
      changes.push({ path, kind: "added", what: now.what ?? describeProtected(path), ...runs });
    } else if (was.fingerprint !== now.fingerprint)
      changes.push({ path, kind: "changed", what: now.what ?? describeProtected(path), ...runs });
  }
  for (const [path, was] of before.entries)
    if (!after.entries.has(path) && !after.truncated)
      changes.push({
        path,
        kind: "removed",
        what: was.what ?? describeProtected(path),
        ...(was.runsCode ? { runsCode: true as const } : {}),
      });
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * What an added directory holds that the person should see before keeping it: the files the snapshot found
 * below it (git's `*.sample` hooks left out), at most `limit`.
 */
export function notableInside(dir: string, after: ProtectedSnapshot, limit = 12): string[] {
  const out: string[] = [];
  for (const [p, e] of after.entries) {
    if (!p.startsWith(dir + "/") || e.fingerprint.startsWith("dir:") || p.endsWith(".sample")) continue;
    out.push(p);
    if (out.length >= limit) break;
  }
  return out.sort();
}
