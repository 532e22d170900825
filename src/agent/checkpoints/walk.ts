/**
 * Which files of one root a checkpoint covers. The walk only lists directories and stats entries; the file
 * list it returns is the only thing git is allowed to read, so anything skipped here is never read into the
 * store.
 *
 * Invariants:
 * - `.git` (directory or gitfile) is skipped at every depth, so a nested repository or submodule is recorded
 *   as its plain files and its git data is never read or written.
 * - Links are recorded as links (lstat); the walk never follows one.
 * - A skipped directory is never entered: its contents are neither listed nor counted.
 * - `skippedPaths` lists every skipped entry (directories with a trailing `/`) unless `truncated`; restore
 *   relies on it to never delete a file the checkpoint did not cover.
 */
import { lstatSync, readdirSync, readFileSync, type Dirent } from "node:fs";
import * as nodePath from "node:path";
import type { IgnoreRules } from "../../core/ignoreFile";
import { GitignoreStack } from "./gitignoreStack";
import type { SkipReason } from "./types";

/** Dependency, environment and cache folders: large, regenerated, and never what an undo is for. */
export const HEAVY_FOLDERS: ReadonlySet<string> = new Set([
  "node_modules",
  "bower_components",
  "jspm_packages",
  ".venv",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".tox",
  ".gradle",
  ".next",
  ".nuxt",
  ".turbo",
  ".parcel-cache",
  ".yarn/cache",
]);

const YIELD_EVERY = 2000;

export interface WalkOptions {
  readonly root: string;
  readonly rootIndex: number;
  readonly ignore: IgnoreRules;
  readonly includeGitignored: boolean;
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  /** Cap on `skippedPaths` (the summary counts everything). */
  readonly maxSkippedPaths?: number;
}

export interface WalkResult {
  /** Root-relative, `/`-separated, sorted. */
  readonly files: string[];
  readonly counts: Partial<Record<SkipReason, number>>;
  readonly skippedPaths: { readonly path: string; readonly reason: SkipReason }[];
  /** More entries were skipped than `skippedPaths` holds. */
  readonly truncated: boolean;
}

export async function walkRoot(o: WalkOptions): Promise<WalkResult> {
  const files: string[] = [];
  const counts: Partial<Record<SkipReason, number>> = {};
  const skippedPaths: { path: string; reason: SkipReason }[] = [];
  const maxSkipped = o.maxSkippedPaths ?? 10_000;
  let truncated = false;
  const skip = (path: string, reason: SkipReason): void => {
    counts[reason] = (counts[reason] ?? 0) + 1;
    if (skippedPaths.length < maxSkipped) skippedPaths.push({ path, reason });
    else truncated = true;
  };

  // Synchronous calls are several times cheaper than promise-based ones per entry; yielding between slices
  // keeps the event loop (the extension host) responsive while a large tree is walked.
  let sinceYield = 0;
  const breather = () => new Promise<void>((r) => setImmediate(r));

  const visit = async (dirRel: string, stack: GitignoreStack): Promise<void> => {
    const abs = dirRel === "" ? o.root : nodePath.join(o.root, dirRel);
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      // Unreadable (or vanished since it was listed): nothing below it is recorded, and saying so keeps a
      // later restore from taking its files for ones created after this checkpoint.
      if (dirRel !== "") skip(dirRel, "unreadable");
      else truncated = true;
      return;
    }
    if (!o.includeGitignored && entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      let text: string | undefined;
      try {
        text = readFileSync(nodePath.join(abs, ".gitignore"), "utf8");
      } catch {
        text = undefined;
      }
      stack = stack.enter(dirRel, text);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const dirs: string[] = [];
    for (const e of entries) {
      if (++sinceYield >= YIELD_EVERY) {
        sinceYield = 0;
        await breather();
      }
      if (e.name === ".git") continue;
      const rel = dirRel + e.name;
      const isDir = e.isDirectory();
      if (o.ignore.ignores(o.rootIndex, rel)) skip(isDir ? rel + "/" : rel, "ignoreFile");
      else if (isDir && (HEAVY_FOLDERS.has(e.name) || HEAVY_FOLDERS.has(rel))) skip(rel + "/", "heavyFolder");
      else if (!o.includeGitignored && stack.ignores(rel, isDir)) skip(isDir ? rel + "/" : rel, "gitignored");
      else if (isDir) dirs.push(rel + "/");
      else if (e.isFile() || e.isSymbolicLink()) {
        const st = lstatSync(nodePath.join(o.root, rel), { throwIfNoEntry: false });
        if (!st) skip(rel, "unreadable");
        if (!st || (!st.isFile() && !st.isSymbolicLink())) continue;
        if (st.size > o.maxFileBytes) skip(rel, "tooLarge");
        else if (files.length >= o.maxFiles) skip(rel, "fileCap");
        else files.push(rel);
      } else skip(rel, "special");
    }
    for (const d of dirs) {
      if (files.length >= o.maxFiles) skip(d, "fileCap");
      else await visit(d, stack);
    }
  };

  await visit("", GitignoreStack.empty());
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { files, counts, skippedPaths, truncated };
}
