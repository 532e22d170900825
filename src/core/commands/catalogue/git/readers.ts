/**
 * What git's read-only subcommands read: revisions and paths (`rev:path` included), and contents out of git's
 * objects (`git show`, `log -p`, `grep`), which include files the ignore file excludes when the repository
 * tracks them. Their options are read by the one option interpreter with the grammars in grammars.ts.
 */
import { literalWord, type Word } from "../../model";
import type { Effects } from "../effects";
import type { Seen } from "../options";

/** Subcommands that print file contents unless told to print only names or statistics. */
export const HISTORY_BY_DEFAULT = new Set(["show", "diff", "range-diff", "diff-files", "diff-index"]);
/** Subcommands that print file contents when asked for a patch. */
export const PATCH_ON_REQUEST = new Set([
  "log",
  "whatchanged",
  "diff-tree",
  "reflog",
  "shortlog",
  "stash-list",
  "stash-show",
]);

/** Options (canonical spellings) that make git print a patch, or contents of old versions. */
const PATCH_OPTIONS = [
  "--patch",
  "-u",
  "--unified",
  "--patch-with-stat",
  "--patch-with-raw",
  "-c",
  "--cc",
  "--dd",
  "-m",
  "--diff-merges",
  "--remerge-diff",
  "--word-diff",
  "--word-diff-regex",
  "--color-words",
  "-L",
  "--full-diff",
  "--binary",
  "--function-context",
];
/** Options that make git print only names or statistics instead. */
const NAMES_ONLY_OPTIONS = [
  "--no-patch",
  "--stat",
  "--shortstat",
  "--numstat",
  "--name-only",
  "--name-status",
  "--summary",
  "--dirstat",
  "--dirstat-by-file",
  "--raw",
  "--compact-summary",
  "--check",
];

/** Whether the options make git print file contents (a patch). */
export function showsPatch(seen: Seen, byDefault: boolean): boolean {
  if (PATCH_OPTIONS.some((o) => seen.has(o))) return true;
  return byDefault && !NAMES_ONLY_OPTIONS.some((o) => seen.has(o));
}

/** A revision, a path, or `rev:path`: anything that could name a file is read-checked. */
export function readRevOrPath(w: Word, fx: Effects, base: Word | undefined): void {
  if (w.literal) {
    const colon = w.value.indexOf(":");
    if (colon > 0 && !w.value.startsWith(":/")) {
      const path = w.value.slice(colon + 1);
      if (path) fx.read(literalWord(path), "content-nofollow", base);
      return;
    }
  }
  // git reads a link in the work tree as the link itself, never what it points to.
  fx.read(w, "content-nofollow", base);
}

/**
 * `git grep`: the first positional is the pattern unless `-e`/`-f` gave one. `--untracked` and `--no-index`
 * search the files in the working tree, not git's: every file below the paths (or the working directory),
 * ignored ones included, as `grep -r` does.
 */
export function grepReads(positionals: readonly Word[], seen: Seen, fx: Effects, base: Word | undefined): void {
  const hasPattern = seen.has("-e") || seen.has("-f");
  const paths = hasPattern ? positionals : positionals.slice(1);
  for (const p of paths) readRevOrPath(p, fx, base);
  if (seen.has("--untracked") || seen.has("--no-index")) {
    const dirs = paths.filter((p) => !p.value.startsWith(":"));
    if (dirs.length === 0 || dirs.length < paths.length) fx.read(literalWord("."), "content-nofollow", base);
    for (const d of dirs) fx.read(d, "content-nofollow", base);
  }
}
