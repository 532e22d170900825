import { existsSync, lstatSync, readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import * as nodePath from "node:path";
import { IgnoreRules } from "../../core/ignoreFile";
import { GIT_DIR_PARTS, looksLikeGitDir, ProtectedPaths } from "../../core/protectedPaths";
import type { GitConfigSource } from "../../core/gitConfigTargets";
import { nodeGitConfig } from "../git/gitConfigReader";
import type { ResolvedPath } from "../../core/paths";
import { realpathOrUndefined } from "../realpath";

/** Entries the scan visits before it gives up: past it the hidden set cannot be complete, so no sandbox starts. */
export const SCAN_ENTRY_LIMIT = 300_000;

/**
 * Mounts (hidden and read-only entries) one sandbox start may make. bubblewrap re-reads the mount table for
 * every mount, so start-up grows with the square of this number (about 10 ms with a few, 60 ms at 100 on
 * this machine); past it the sandbox does not start and the person is told to ignore whole directories.
 */
export const MOUNT_LIMIT = 100;

export class ScanTooLargeError extends Error {}

export interface WorkspaceScan {
  /** Existing protected paths (real paths): re-bound read-only. */
  readonly readOnly: readonly string[];
  /** Ignored entries (real paths): hidden. A whole ignored directory is one entry. */
  readonly hiddenFiles: readonly string[];
  readonly hiddenDirs: readonly string[];
  /** Hidden entries as the person knows them: workspace-relative, for messages. */
  readonly hiddenRelative: readonly string[];
  readonly entries: number;
}

const resolved = (abs: string, index: number, root: string, relative: string): ResolvedPath => ({
  input: abs,
  lexical: abs,
  real: abs,
  realRoot: { index, root, relative },
});

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function listing(dir: string): Dirent[] | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
}

/** Entry kinds of a listing, for `looksLikeGitDir` (a link counts as what it leads to: `git-new-workdir`). */
export const kinds = (dir: string, list: readonly Dirent[]) => {
  const by = new Map(list.map((e) => [e.name, e]));
  return (name: string): "file" | "dir" | undefined => {
    const e = by.get(name);
    if (e === undefined) return undefined;
    if (e.isSymbolicLink()) return isDirectory(nodePath.join(dir, name)) ? "dir" : "file";
    return e.isDirectory() ? "dir" : "file";
  };
};

/**
 * The protected parts of one git directory (`GIT_DIR_PARTS`: what git reads as configuration or runs; the rest
 * stays writable so `git add` and `git commit` work), and of the git directories git keeps inside it
 * (`modules/…` of submodules, `worktrees/…` of linked worktrees: any folder there holding `HEAD`).
 */
function gitDirParts(gitDir: string, out: Set<string>, depth = 0): void {
  for (const name of GIT_DIR_PARTS) {
    const real = realpathOrUndefined(nodePath.join(gitDir, name));
    if (real !== undefined) out.add(real);
  }
  if (depth > 4) return;
  for (const below of depth === 0 ? ["modules", "worktrees"] : [""]) {
    const dir = nodePath.join(gitDir, below);
    for (const e of listing(dir) ?? []) {
      if (!e.isDirectory() || (depth > 0 && (GIT_DIR_PARTS as readonly string[]).includes(e.name))) continue;
      const sub = nodePath.join(dir, e.name);
      if (existsSync(nodePath.join(sub, "HEAD"))) gitDirParts(sub, out, 1);
      else if (depth < 4) gitDirParts(sub, out, depth + 1);
    }
  }
}

/** A `.git` file (worktree, submodule) names its git directory: both are protected. */
function gitFileTarget(file: string): string | undefined {
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(file, "utf8").slice(0, 4096));
    if (!m?.[1]) return undefined;
    const dir = nodePath.resolve(nodePath.dirname(file), m[1]);
    return isDirectory(dir) ? realpathOrUndefined(dir) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Walks every root once (links are not followed) and sorts what it finds, asking the gate's matcher
 * (`ProtectedPaths`) what is protected: ignored entries are hidden (a whole directory by one entry, not
 * entered); existing protected paths are read-only — a protected directory by one entry; of a git directory,
 * whatever its name (a folder holding HEAD, objects/ and refs/), its config, hooks and info; the hooks
 * directory and included files the repository's configuration names, wherever they are. A root whose git
 * configuration could not be read is read-only whole (it could hold a hook anywhere). An ignored or protected
 * link is resolved: the mount lands on its target. `roots` are real paths.
 */
export function scanWorkspace(
  roots: readonly string[],
  ignoreFileName: string,
  limit = SCAN_ENTRY_LIMIT,
  gitConfig: GitConfigSource = nodeGitConfig,
): WorkspaceScan {
  const ignore = IgnoreRules.load(roots, ignoreFileName);
  const guard = new ProtectedPaths(ignoreFileName, roots, gitConfig);
  guard.beginDecision();
  const readOnly = new Set<string>();
  const hiddenFiles = new Set<string>();
  const hiddenDirs = new Set<string>();
  const hiddenRelative: string[] = [];
  let entries = 0;
  const configured = guard.configuredTargets();
  roots.forEach((root, index) => {
    if (configured[index]?.kind === "unknown") {
      readOnly.add(root);
      return;
    }
    const protects = (relative: string) => guard.hit(resolved(nodePath.join(root, relative), index, root, relative));
    const stack: string[] = [""];
    while (stack.length > 0) {
      const rel = stack.pop()!;
      const dir = rel === "" ? root : nodePath.join(root, rel);
      const list = listing(dir);
      if (list === undefined) continue; // unreadable here is unreadable inside the sandbox too
      if (looksLikeGitDir(kinds(dir, list))) {
        // A git directory (a bare repository, a renamed `.git`): its parts, not its objects. A root that is
        // one is walked on, so its ignored entries are still hidden.
        gitDirParts(dir, readOnly);
        if (rel !== "") continue;
      }
      for (const e of list) {
        if (++entries > limit)
          throw new ScanTooLargeError(
            `the workspace has more than ${limit} entries: the hidden set cannot be computed`,
          );
        const child = rel === "" ? e.name : `${rel}/${e.name}`;
        const abs = nodePath.join(root, child);
        const link = e.isSymbolicLink();
        if (ignore.ignores(index, child)) {
          const real = link ? realpathOrUndefined(abs) : abs;
          if (real === undefined) continue; // dangling: nothing to read
          (isDirectory(real) ? hiddenDirs : hiddenFiles).add(real);
          hiddenRelative.push(child);
          continue;
        }
        const real = link ? realpathOrUndefined(abs) : abs;
        const isDir = link ? real !== undefined && isDirectory(real) : e.isDirectory();
        if (e.name.toLowerCase() === ".git" && real !== undefined) {
          if (isDir) {
            const inside = listing(real);
            if (inside && looksLikeGitDir(kinds(real, inside))) {
              gitDirParts(real, readOnly);
              continue;
            }
          } else {
            readOnly.add(real);
            const target = gitFileTarget(real);
            if (target !== undefined) gitDirParts(target, readOnly);
            continue;
          }
        }
        if (protects(child) !== undefined || (isDir && protects(`${child}/x`) !== undefined)) {
          // A protected directory is bound whole: nothing can be created in it either.
          if (real !== undefined) readOnly.add(real);
          continue;
        }
        if (isDir && !link) stack.push(child);
      }
    }
  });
  // What the configuration names outside the walk (a linked worktree's common directory, an absolute hooksPath).
  for (const t of configured)
    if (t.kind === "known")
      for (const target of t.targets) {
        const real = realpathOrUndefined(target);
        if (real !== undefined && !coveredBy(real, readOnly) && !coveredBy(real, hiddenDirs)) readOnly.add(real);
      }
  const mounts = readOnly.size + hiddenFiles.size + hiddenDirs.size;
  if (mounts > MOUNT_LIMIT)
    throw new ScanTooLargeError(
      `the ignore file and protected paths need ${mounts} separate mounts (at most ${MOUNT_LIMIT}): ` +
        `ignore whole directories (\`logs/\`) rather than many single files (\`*.log\`)`,
    );
  return {
    readOnly: [...readOnly].sort(),
    hiddenFiles: [...hiddenFiles].sort(),
    hiddenDirs: [...hiddenDirs].sort(),
    hiddenRelative,
    entries,
  };
}

/** Whether `p` is one of `set` or below one. */
function coveredBy(p: string, set: ReadonlySet<string>): boolean {
  for (let d = p; ; d = nodePath.dirname(d)) {
    if (set.has(d)) return true;
    if (nodePath.dirname(d) === d) return false;
  }
}

/**
 * What decides whether a cached scan is still right: each root's ignore file (size, mtime), and what each
 * root's git configuration names (a new `core.hooksPath` must be bound read-only from the next command on).
 * The configuration costs a few stats here (the reader's cache), no git run unless it changed.
 */
export function ignoreStamp(
  roots: readonly string[],
  ignoreFileName: string,
  gitConfig: GitConfigSource = nodeGitConfig,
): string {
  const ignore = roots
    .map((r) => {
      const st = lstatSync(nodePath.join(r, ignoreFileName), { throwIfNoEntry: false });
      return st ? `${st.size}:${st.mtimeMs}:${st.ino}` : "-";
    })
    .join("|");
  return `${ignore}\0${JSON.stringify(gitConfig.targets(roots))}`;
}
