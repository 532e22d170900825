/**
 * git's state-changing subcommands, read with their grammars (grammars.ts): which work they can discard (a
 * deletion, the hard ask of every mode, as `rm` is), what they copy into the objects (`git add`), and the files
 * their arguments name, which the path gate checks (an allow rule for git licenses no ignored file, protected
 * path or file outside the workspace).
 */
import { literalWord, type Word } from "../../model";
import type { Effects } from "../effects";
import type { ParsedArgs, Seen } from "../options";

/**
 * State-changing subcommands that put no file contents from git's objects where the agent can read them
 * (stdout, or a file outside the objects). Any other one (`archive`, `bundle`, `format-patch`, `fast-export`,
 * `checkout-index --prefix`, `notes show`, one Toolgate does not know) counts as printing history, so it asks
 * when the repository tracks an ignored file.
 */
export const NO_CONTENT_OUT = new Set([
  "add",
  "commit",
  "push",
  "fetch",
  "pull",
  "merge",
  "rebase",
  "checkout",
  "switch",
  "restore",
  "reset",
  "cherry-pick",
  "revert",
  "mv",
  "tag",
  "branch",
  "gc",
  "fsck",
  "prune",
  "repack",
  "maintenance",
  "sparse-checkout",
  "update-index",
  "update-ref",
  "symbolic-ref",
  "hash-object",
  "mktree",
  "write-tree",
  "read-tree",
  "commit-tree",
  "pack-refs",
  "rerere",
]);

/** Subcommands that never write the files their arguments name (they record, send or name things). */
export const NO_WORK_TREE_WRITES = new Set(["add", "commit", "push", "fetch", "notes", "tag", "branch", "gc", "fsck"]);

/** Values of these options are text or revisions, never files (`-m /tmp is gone`, `--author=…`). */
export const TEXT_VALUE_OPTIONS = new Set([
  "-m",
  "--message",
  "--author",
  "--date",
  "-c",
  "-C",
  "--reedit-message",
  "--reuse-message",
  "--fixup",
  "--squash",
  "--trailer",
  "--strategy-option",
  "--exec",
]);

/** A path no revision or name is written like: absolute, `~/`, `../`. */
export function plainPath(v: string): boolean {
  return v.startsWith("/") || v.startsWith("~/") || v.startsWith("../") || v === "..";
}

/**
 * A state-changing subcommand's positionals and option values: a named file is read into the repository
 * (`git add -f .env` stores the ignored file's content) and, unless the subcommand only records, may be
 * written (`git checkout -- .vscode/settings.json`). Words and values that are plainly paths (`worktree add
 * /tmp/x`, `--pathspec-from-file=/etc/x`) pass the path gate like a file tool's, outside the workspace included.
 */
export function stateChangingPaths(name: string, parsed: ParsedArgs, fx: Effects, base: Word | undefined): void {
  const writes = !NO_WORK_TREE_WRITES.has(name);
  const touch = (w: Word): void => {
    if (writes) fx.write(w, base);
    fx.read(w, "content", base);
  };
  for (const p of parsed.positionals) {
    fx.mayTouch(p, base, writes && !p.value.includes(":"));
    if (p.literal && plainPath(p.value)) touch(p);
  }
  for (const option of new Set(parsed.seen.all())) {
    if (TEXT_VALUE_OPTIONS.has(option)) continue;
    for (const v of parsed.seen.valuesOf(option)) if (v.literal && plainPath(v.value)) touch(v);
  }
}

/**
 * `git add`: what it copies into the objects from the directories it is given (`git add .`), or from the whole
 * tree (`-A` alone, a pathspec git matches itself: `'*.env'`, `:/`, `--pathspec-from-file`). `-u` stages only
 * tracked files, so it copies nothing new in.
 */
export function stagedPaths(parsed: ParsedArgs, fx: Effects, base: Word | undefined): void {
  const { seen, positionals } = parsed;
  const kind = seen.has("--force") ? "git-stage-forced" : "git-stage";
  if (seen.has("--update") && !seen.has("--all")) return;
  const whole = (): void => fx.read(literalWord(":/"), kind, base);
  if (seen.has("--pathspec-from-file")) return whole();
  if (positionals.length === 0 && seen.has("--all")) return whole();
  for (const p of positionals) {
    if (!p.literal || /[*?[]/.test(p.value) || p.value.startsWith(":")) return whole();
    fx.read(p, kind, base);
  }
}

/**
 * Whether the subcommand can throw away work that exists nowhere else (uncommitted changes, untracked files,
 * a stash, an unmerged branch): why, or undefined. Conservative where the words cannot tell: `git checkout X`
 * restores the file X when X is a tracked file rather than a branch, so a lone word is taken for a path unless
 * it is plainly a revision; a word computed at run time could be any option or path.
 */
export function discardsWork(name: string, args: readonly Word[], parsed: ParsedArgs): string | undefined {
  const { seen, positionals } = parsed;
  const computed = args.some((a) => !a.literal);
  const has = (...options: string[]): boolean => options.some((o) => seen.has(o));
  switch (name) {
    case "checkout": {
      if (computed) return "may discard uncommitted changes (an argument is known only when it runs)";
      if (has("--force")) return "with `-f` discards uncommitted changes";
      if (has("--patch", "--ours", "--theirs", "--pathspec-from-file", "--merge", "--conflict"))
        return "overwrites files in the working tree, discarding their changes";
      const dashdash = args.findIndex((a) => a.literal && a.value === "--");
      if (dashdash >= 0 && args.length > dashdash + 1) return "overwrites the files it names, discarding their changes";
      const creates = has("-b", "-B", "--orphan");
      if (positionals.length > 1 || (!creates && positionals.length === 1 && !plainRevision(positionals[0]!.value)))
        return "restores the files it names (a word that is not plainly a branch may be a file), discarding their changes";
      return undefined;
    }
    case "switch":
      if (computed) return "may discard uncommitted changes (an argument is known only when it runs)";
      if (has("--force", "--discard-changes")) return "discards uncommitted changes";
      return undefined;
    case "restore":
      // Only `--staged` without `--worktree` leaves the working tree alone.
      if (!computed && has("--staged") && !has("--worktree")) return undefined;
      return "overwrites files in the working tree, discarding their changes";
    case "reset":
      if (computed || has("--hard", "--merge")) return "discards uncommitted changes";
      return undefined;
    case "clean":
      if (!computed && has("--dry-run")) return undefined;
      return "deletes untracked files";
    case "branch":
      if (computed) return "may delete a branch (an argument is known only when it runs)";
      if (has("-D", "-M", "-C") || (has("--delete", "--move", "--copy") && has("--force")))
        return "force-deletes or overwrites a branch, which may hold unmerged commits";
      return undefined;
    default:
      return undefined;
  }
}

/** A revision no file is named like: `-`, `@{-1}`, `HEAD~2`, and the usual names of a main branch. */
function plainRevision(v: string): boolean {
  return /^(-|@(\{-?\d+\})?|(HEAD|FETCH_HEAD|ORIG_HEAD|main|master|develop|trunk)([~^]\d*)*)$/.test(v);
}

/** Whether every option seen is one of `listing` (canonical spellings). */
export function onlyOptions(seen: Seen, listing: ReadonlySet<string>): boolean {
  return seen.all().every((o) => listing.has(o));
}
