import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Dirent } from "node:fs";
import * as nodePath from "node:path";
import { IgnoreRules } from "../../core/ignoreFile";
import { ProtectedPaths } from "../../core/protectedPaths";
import type { ResolvedPath } from "../../core/paths";

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

/** Of a git directory, what git reads as configuration or runs: read-only, so `git add`/`commit` still work. */
const GIT_DIR_PROTECTED = ["config", "config.worktree", "hooks", "info"];

const resolved = (abs: string, index: number, root: string, relative: string): ResolvedPath => ({
  input: abs,
  lexical: abs,
  real: abs,
  realRoot: { index, root, relative },
});

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The protected parts of one git directory, and of each submodule's git directory below `modules/`. */
function gitDirParts(gitDir: string, out: Set<string>, depth = 0): void {
  for (const name of GIT_DIR_PROTECTED) {
    const p = nodePath.join(gitDir, name);
    const real = realOrUndefined(p);
    if (real !== undefined) out.add(real);
  }
  if (depth > 3) return;
  const modules = nodePath.join(gitDir, depth === 0 ? "modules" : "");
  let entries: Dirent[];
  try {
    entries = readdirSync(modules, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (!e.isDirectory() || (depth > 0 && GIT_DIR_PROTECTED.includes(e.name))) continue;
    const sub = nodePath.join(modules, e.name);
    if (existsSync(nodePath.join(sub, "HEAD")) && existsSync(nodePath.join(sub, "config"))) gitDirParts(sub, out, 1);
    else if (depth < 3) gitDirParts(sub, out, depth + 1);
  }
}

/** A `.git` file (worktree, submodule) names its git directory: both are protected. */
function gitFileTarget(file: string): string | undefined {
  try {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(file, "utf8").slice(0, 4096));
    if (!m?.[1]) return undefined;
    const dir = nodePath.resolve(nodePath.dirname(file), m[1]);
    return isDirectory(dir) ? realOrUndefined(dir) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Walks every root once (links are not followed) and sorts what it finds: ignored entries are hidden (a whole
 * directory by one entry, not entered); existing protected paths are read-only (a whole `.vscode`,
 * `.github/workflows` or `.husky` directory by one entry; of a `.git` directory its config, hooks and info).
 * An ignored or protected link is resolved: the mount lands on its target. `roots` are real paths.
 */
export function scanWorkspace(
  roots: readonly string[],
  ignoreFileName: string,
  limit = SCAN_ENTRY_LIMIT,
): WorkspaceScan {
  const ignore = IgnoreRules.load(roots, ignoreFileName);
  const guard = new ProtectedPaths(ignoreFileName);
  const readOnly = new Set<string>();
  const hiddenFiles = new Set<string>();
  const hiddenDirs = new Set<string>();
  const hiddenRelative: string[] = [];
  let entries = 0;
  roots.forEach((root, index) => {
    const protects = (relative: string) => guard.match(resolved(nodePath.join(root, relative), index, root, relative));
    const stack: string[] = [""];
    while (stack.length > 0) {
      const rel = stack.pop()!;
      const dir = rel === "" ? root : nodePath.join(root, rel);
      let list: Dirent[];
      try {
        list = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue; // unreadable here is unreadable inside the sandbox too
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
          const real = link ? realOrUndefined(abs) : abs;
          if (real === undefined) continue; // dangling: nothing to read
          (isDirectory(real) ? hiddenDirs : hiddenFiles).add(real);
          hiddenRelative.push(child);
          continue;
        }
        if (e.name === ".git") {
          const real = link ? realOrUndefined(abs) : abs;
          if (real === undefined) continue;
          if (isDirectory(real)) gitDirParts(real, readOnly);
          else {
            readOnly.add(real);
            const target = gitFileTarget(real);
            if (target !== undefined) gitDirParts(target, readOnly);
          }
          continue;
        }
        const isDir = link ? isDirectory(abs) : e.isDirectory();
        const wholeDir = isDir && (e.name === ".vscode" || protects(`${child}/x`) !== undefined);
        if (wholeDir || protects(child) !== undefined) {
          const real = link ? realOrUndefined(abs) : abs;
          if (real !== undefined) readOnly.add(real);
          if (wholeDir) continue;
        }
        if (isDir && !link) stack.push(child);
      }
    }
  });
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

/** What decides whether a cached scan is still right: each root's ignore file (size, mtime). */
export function ignoreStamp(roots: readonly string[], ignoreFileName: string): string {
  return roots
    .map((r) => {
      const st = lstatSync(nodePath.join(r, ignoreFileName), { throwIfNoEntry: false });
      return st ? `${st.size}:${st.mtimeMs}:${st.ino}` : "-";
    })
    .join("|");
}
