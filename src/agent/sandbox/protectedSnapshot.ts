import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync, type Dirent } from "node:fs";
import * as nodePath from "node:path";
import { configuredTargets } from "../../core/gitConfigTargets";

/**
 * The state of the protected paths before a sandboxed command, compared with their state after. Existing
 * protected paths are read-only inside the sandbox; those that do not exist yet cannot be mounted without
 * creating them in the person's tree, so a command may create them (`git init` and a hook, a new
 * `.vscode/settings.json`). The compare finds that, and `protectedUndo.ts` undoes it once the person says so.
 */

/** Directory levels below each root searched for new protected entries (`a/b/.git` is found). */
export const SNAPSHOT_DEPTH = 3;
/** Entries visited per snapshot; the rest of a huge tree is not searched (reported as `truncated`). */
export const SNAPSHOT_ENTRY_LIMIT = 20_000;
/** Files up to this size are kept, so a change can be restored. */
export const KEEP_CONTENT_BYTES = 64 * 1024;
/** Files up to this size are hashed; larger ones compare by size and mtime. */
export const HASH_BYTES = 1024 * 1024;

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
function addTree(dir: string, out: Map<string, Entry>, budget: { left: number }, depth = 0): void {
  const self = fingerprint(dir);
  if (!self) return;
  out.set(dir, self);
  if (!self.fingerprint.startsWith("dir:") || depth > 4) return;
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

/**
 * Names of the gate's protected paths (src/core/protectedPaths.ts) that a command can create inside a root:
 * checked by name, so the snapshot costs one readdir per directory and no glob matching.
 */
const PROTECTED_FILE_NAMES = new Set([
  ".mcp.json",
  "mcp.json",
  "mcp_settings.json",
  "cline_mcp_settings.json",
  ".gitmodules",
  ".bashrc",
  ".bash_profile",
  ".profile",
  ".zshrc",
  ".zprofile",
  ".zshenv",
  ".gitconfig",
  ".pre-commit-config.yaml",
  "lefthook.yml",
  ".lefthook.yml",
  "lefthook-local.yml",
  ".devcontainer.json",
  ".gitlab-ci.yml",
  ".travis.yml",
  "azure-pipelines.yml",
  "bitbucket-pipelines.yml",
  "jenkinsfile",
]);
/** A cheap superset of the protected file names that do not start with a dot. */
const MAYBE_PROTECTED_FILE = /(json|workspace|\.yml|jenkinsfile)$/i;
const PROTECTED_DIR_NAMES = new Set([".vscode", ".husky", ".ssh", ".devcontainer", ".circleci", ".buildkite"]);

interface Listing {
  /** Directories and entries whose name may be protected; ordinary files are left out. */
  readonly entries: readonly { readonly name: string; readonly isDir: boolean }[];
  readonly total: number;
}

/**
 * Directory listings reused while a directory's ctime is unchanged. ctime (unlike mtime) cannot be set by a
 * command: any entry created or removed moves it. A directory changed within the last second is listed again,
 * since coarse kernel timestamps could give a change right after the listing the same ctime.
 */
const listings = new Map<string, { readonly key: string; readonly listing: Listing }>();
const LISTING_CACHE_LIMIT = 50_000;

function relevantEntries(dir: string, ignoreName: string): Listing | undefined {
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
  const entries: { name: string; isDir: boolean }[] = [];
  for (const e of list) {
    const isDir = e.isDirectory();
    // Most entries are ordinary files with no protected name.
    if (
      !isDir &&
      e.name.charCodeAt(0) !== 46 /* . */ &&
      !MAYBE_PROTECTED_FILE.test(e.name) &&
      e.name.toLowerCase() !== ignoreName
    )
      continue;
    entries.push({ name: e.name, isDir });
  }
  const listing = { entries, total: list.length };
  if (key !== undefined) {
    if (listings.size >= LISTING_CACHE_LIMIT) listings.clear();
    listings.set(dir, { key, listing });
  }
  return listing;
}

export function takeSnapshot(roots: readonly string[], ignoreFileName: string): ProtectedSnapshot {
  const entries = new Map<string, Entry>();
  const budget = { left: SNAPSHOT_ENTRY_LIMIT };
  const ignoreName = ignoreFileName.toLowerCase();
  for (const root of roots) {
    const walk = (dir: string, level: number): void => {
      const listed = relevantEntries(dir, ignoreName);
      if (listed === undefined) return;
      budget.left -= listed.total;
      if (budget.left < 0) return;
      for (const e of listed.entries) {
        const isDir = e.isDir;
        const abs = nodePath.join(dir, e.name);
        const name = e.name.toLowerCase();
        if (name === ".git") {
          const self = fingerprint(abs);
          if (self) entries.set(abs, self);
          if (isDir) for (const n of GIT_INSIDE) addTree(nodePath.join(abs, n), entries, budget);
          continue;
        }
        if (PROTECTED_DIR_NAMES.has(name)) {
          addTree(abs, entries, budget);
          continue;
        }
        if (name === ".github" && isDir) {
          addTree(nodePath.join(abs, "workflows"), entries, budget);
          if (level < SNAPSHOT_DEPTH) walk(abs, level + 1);
          continue;
        }
        if (PROTECTED_FILE_NAMES.has(name) || name === ignoreName || name.endsWith(".code-workspace")) {
          const fp = fingerprint(abs);
          if (fp) entries.set(abs, fp);
          continue;
        }
        if (isDir && level < SNAPSHOT_DEPTH && !SKIP_DIRS.has(e.name)) walk(abs, level + 1);
      }
    };
    walk(root, 0);
    // The repository's own hooks directory and included config files (`core.hooksPath`, `include.path`).
    for (const target of configuredTargets(root)) addTree(target, entries, budget);
  }
  return { entries, truncated: budget.left < 0 };
}

/** What a protected path is, in words for the person. */
export function describeProtected(path: string): string {
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
  const name = (parts.at(-1) ?? "").toLowerCase();
  if (name === ".pre-commit-config.yaml" || name.includes("lefthook")) return "git hook configuration";
  if (parts.includes(".devcontainer") || name === ".devcontainer.json") return "a dev container configuration";
  if (parts.includes(".circleci") || parts.includes(".buildkite") || /(ci|pipelines)\.yml$|^jenkinsfile$/.test(name))
    return "a CI configuration";
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
      if (now.fingerprint.startsWith("dir:")) addedDirs.push(path);
      changes.push({ path, kind: "added", what: describeProtected(path) });
    } else if (was.fingerprint !== now.fingerprint)
      changes.push({ path, kind: "changed", what: describeProtected(path) });
  }
  for (const path of before.entries.keys())
    if (!after.entries.has(path) && !after.truncated)
      changes.push({ path, kind: "removed", what: describeProtected(path) });
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

const PREVIEW_BYTES = 4096;
const PREVIEW_LINES = 8;
const PREVIEW_LINE_CHARS = 120;

/**
 * The first lines of a small text file as it is now (a planted hook, a new settings file), for the person's
 * ask; undefined for a directory, a link, a large or binary file. The final component is never followed.
 */
export function textPreview(abs: string): string | undefined {
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size > PREVIEW_BYTES) return undefined;
  let data: Buffer;
  try {
    data = readFileSync(abs);
  } catch {
    return undefined;
  }
  if (data.includes(0)) return undefined;
  const lines = data.toString("utf8").split("\n");
  const shown = lines
    .slice(0, PREVIEW_LINES)
    .map((l) => (l.length > PREVIEW_LINE_CHARS ? l.slice(0, PREVIEW_LINE_CHARS) + "…" : l));
  const more = lines.length > PREVIEW_LINES && lines.slice(PREVIEW_LINES).some((l) => l !== "");
  return (shown.join("\n") + (more ? "\n…" : "")).trimEnd();
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
