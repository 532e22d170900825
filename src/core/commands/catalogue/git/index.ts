/**
 * git: global options first (global.ts), then a subcommand, whose options the one option interpreter reads
 * with that subcommand's grammar (grammars.ts). Read-only subcommands are vouched for unless an option runs a
 * program or writes a file; an option that makes git run code or another program (`--ext-diff`, `--textconv`,
 * `--upload-pack`, `rebase --exec`, `grep -O`, `-c`...), in any spelling git accepts, is a hard ask in every
 * mode. Discarding uncommitted work is deletion (writers.ts).
 */
import { literalWord, unknownWord, type Word } from "../../model";
import { runsCode, type Effects, type ProgramCheck } from "../effects";
import { parseArgs, type ParsedArgs } from "../options";
import { config } from "./config";
import { looseFiles, scanHarmful } from "./fallback";
import { gitGlobals, joinDirs } from "./global";
import { BRANCH_LISTING, READER_GRAMMARS, TAG_LISTING, WRITER_GRAMMARS } from "./grammars";
import { notation } from "./notation";
import { grepReads, HISTORY_BY_DEFAULT, PATCH_ON_REQUEST, readRevOrPath, showsPatch } from "./readers";
import { discardsWork, NO_CONTENT_OUT, onlyOptions, stagedPaths, stateChangingPaths } from "./writers";

export { gitRuleArgv } from "./global";

/** The canonical spellings of the listing options of `git branch` and `git tag`. */
function canonicalNames(text: string): ReadonlySet<string> {
  const spec = notation(text, {});
  const longs = [...(spec.long ?? []), ...Object.keys(spec.longArgs ?? {}), ...Object.keys(spec.longOptional ?? {})];
  const shorts = [
    ...(spec.flags ?? ""),
    ...Object.keys(spec.shortArgs ?? {}),
    ...Object.keys(spec.shortOptional ?? {}),
  ];
  return new Set([...longs.map((l) => `--${l}`), ...shorts.map((c) => spec.same?.[`-${c}`] ?? `-${c}`)]);
}
const LISTS: Readonly<Record<string, ReadonlySet<string>>> = {
  branch: canonicalNames(BRANCH_LISTING),
  tag: canonicalNames(TAG_LISTING),
};

/** Subcommands whose second word names what they do, each with its own grammar. */
const PAIRED = new Set(["stash", "worktree", "remote", "notes"]);

/** The grammar a use of a subcommand is read with (`git stash show` is `stash-show`), if Toolgate has one. */
function grammarName(name: string, args: readonly Word[]): { key: string; skip: number } {
  const first = args[0];
  const sub = first?.literal ? first.value : undefined;
  if (name === "stash" && (first === undefined || sub?.startsWith("-"))) return { key: "stash-push", skip: 0 };
  if (name === "remote" && (first === undefined || sub?.startsWith("-"))) return { key: "remote", skip: 0 };
  // `git stash pop`, `git remote add`, `git worktree list`, `git notes show`: a grammar per second word.
  if (
    sub !== undefined &&
    PAIRED.has(name) &&
    (READER_GRAMMARS.has(`${name}-${sub}`) || WRITER_GRAMMARS.has(`${name}-${sub}`))
  )
    return { key: `${name}-${sub}`, skip: 1 };
  // `git reflog` is `git log -g`: it takes log's options, `-p` among them.
  if (name === "reflog" && (sub === "show" || sub === "exists" || first === undefined || sub?.startsWith("-")))
    return { key: "reflog", skip: sub === "show" || sub === "exists" ? 1 : 0 };
  return { key: name, skip: 0 };
}

export const git: ProgramCheck = (argv, fx) => {
  const { sub, dirs } = gitGlobals(argv, fx);
  const base = dirs.length > 0 ? joinDirs(dirs) : undefined;
  if (base) fx.read(base, "names");
  // Whatever runs, git reads the configuration of the repository it finds from there (which can run
  // programs: core.fsmonitor, core.pager...): it must be one of the workspace's own.
  fx.read(literalWord("."), "git-repository", base);
  const subWord = argv[sub];
  if (!subWord) return fx.label("git");
  if (!subWord.literal) {
    // It may split into global options (`-c alias.x='!cmd' x`): what runs is decided at run time.
    fx.label("git");
    return runsCode(fx, "the `git` subcommand is computed at run time");
  }
  const name = subWord.value;
  const args = argv.slice(sub + 1);
  fx.label(`git ${name}`);
  const { key, skip } = grammarName(name, args);
  const grammar = READER_GRAMMARS.get(key) ?? WRITER_GRAMMARS.get(key);
  if (!grammar) return withoutGrammar(name, args, argv, sub, fx, base);
  const parsed = parseArgs(args, skip, grammar, fx, `git ${name}`);
  const lost = discardsWork(name, args, parsed);
  if (lost) fx.deletes(`\`git ${name}\` ${lost}`);
  if (READER_GRAMMARS.has(key)) return reader(name, key, parsed, fx, base);
  return writer(name, key, parsed, fx, base);
};

/** Contents that come out of git's objects include files the ignore file excludes when the repository tracks them. */
function readsHistory(fx: Effects, base: Word | undefined): void {
  fx.read(literalWord("."), "git-history", base);
}

/** A read-only subcommand (or a read-only use: `branch` listing, `stash show`). */
function reader(name: string, key: string, parsed: ParsedArgs, fx: Effects, base: Word | undefined): void {
  const { positionals, seen } = parsed;
  if (name === "branch" || name === "tag") {
    // Vouched for only when listing (positionals are patterns only with `--list`).
    const listing = onlyOptions(seen, LISTS[name]!) && (positionals.length === 0 || seen.has("--list"));
    if (!listing) fx.notReadOnly(`\`git ${name}\` with these arguments creates, changes or deletes refs`);
    if (!listing) stateChangingPaths(name, parsed, fx, base);
    return;
  }
  if (key === "grep") {
    readsHistory(fx, base);
    return grepReads(positionals, seen, fx, base);
  }
  if (HISTORY_BY_DEFAULT.has(key) ? showsPatch(seen, true) : PATCH_ON_REQUEST.has(key) && showsPatch(seen, false))
    readsHistory(fx, base);
  if (name === "cat-file" && !["-t", "-s", "-e"].some((o) => seen.has(o))) readsHistory(fx, base);
  // Remote and worktree names, and the object a note is shown for, name no file.
  if (PAIRED.has(name) && name !== "stash") return;
  for (const p of positionals) readRevOrPath(p, fx, base);
}

/** A state-changing subcommand with a grammar. */
function writer(name: string, key: string, parsed: ParsedArgs, fx: Effects, base: Word | undefined): void {
  const { positionals, seen } = parsed;
  switch (key) {
    case "stash-save":
    case "stash-push":
      // `-u` stores untracked files in the stash, `-a` ignored ones too; `push -- PATHS` are stored and reset
      // (`save`'s words are its message).
      if (seen.has("--all")) fx.read(literalWord(":/"), "git-stage-forced", base);
      else if (seen.has("--include-untracked")) fx.read(literalWord(":/"), "git-stage", base);
      if (key === "stash-save") return fx.notReadOnly("`git stash` changes the working tree");
      // The files named are stored in the stash's objects (where `stash show -p` prints them) and reset.
      for (const p of positionals) {
        fx.mayTouch(p, base, !p.value.startsWith(":"));
        if (p.literal && !/[*?[]/.test(p.value) && !p.value.startsWith(":")) fx.read(p, "git-stage", base);
        else fx.read(literalWord(":/"), "git-stage", base);
      }
      return fx.notReadOnly("`git stash` changes the working tree");
    case "stash-drop":
    case "stash-clear":
      fx.deletes("`git stash` deletes stashed changes");
      return fx.notReadOnly("`git stash` changes the stash");
    case "stash-pop":
    case "stash-apply":
    case "stash-branch":
      return fx.notReadOnly("`git stash` changes the working tree");
    case "worktree-remove":
      // `--force` removes a worktree whose changes are not committed, which are then gone.
      if (seen.has("--force")) fx.deletes("`git worktree remove --force` discards the worktree's uncommitted changes");
      for (const p of positionals) fx.write(p, base);
      return fx.notReadOnly("`git worktree` changes worktrees");
    case "worktree-move":
      for (const p of positionals) fx.write(p, base);
      return fx.notReadOnly("`git worktree` changes worktrees");
    case "remote-show":
      // Without `-n` it contacts the remote.
      if (!seen.has("-n")) fx.notReadOnly("`git remote show` contacts the remote");
      return;
    case "worktree-add": {
      // A checkout is written at PATH; it copies tracked files, ignored ones too, where the ignore file may not
      // reach.
      if (positionals[0]) fx.write(positionals[0], base);
      readsHistory(fx, base);
      return fx.notReadOnly("`git worktree` changes worktrees");
    }
    case "init": {
      // It writes the repository's `.git` (configuration, hooks): a protected path wherever it is.
      const dir = positionals[0];
      if (dir && !dir.literal) fx.write(dir, base);
      else fx.write(literalWord(dir ? `${dir.value.replace(/\/+$/, "")}/.git` : ".git"), base);
      return fx.notReadOnly("`git init` creates a repository");
    }
    case "clone": {
      const [source, dir] = positionals;
      // A local source is read; a URL (`https://…`, `host:path`) is the network, which an allow rule for git licenses.
      const url = source?.literal === true && /^[A-Za-z][A-Za-z0-9+.-]*:\/\/|^[^/]*:/.test(source.value);
      if (source && !url) fx.read(source, "names", base);
      // A clone of the workspace's own repository copies its tracked files, ignored ones too.
      if (!url) readsHistory(fx, base);
      if (dir) fx.write(dir, base);
      return fx.notReadOnly("`git clone` fetches a repository");
    }
    case "apply":
    case "am": {
      // The files a patch changes are named inside it, known only when the command runs.
      if (!["--check", "--stat", "--numstat", "--summary"].some((o) => seen.has(o))) fx.write(unknownWord(false), base);
      fx.notReadOnly(`\`git ${name}\` changes the files a patch names`);
      // The patch's text is what lands in the working tree (or is printed by `--stat`): a content read.
      for (const p of positionals) if (!(p.literal && p.value === "-")) fx.read(p, "content", base);
      return stateChangingPaths(name, parsed, fx, base);
    }
    case "archive":
      // `-o F`/`--output F` (the grammar writes it) and `--add-file=F` (read) are the grammar's.
      fx.notReadOnly("`git archive` writes an archive of the tree");
      readsHistory(fx, base);
      return stateChangingPaths(name, parsed, fx, base);
    case "rebase":
      // `--exec CMD` is a hard ask (the grammar's); its text is searched for denied programs too.
      for (const cmd of seen.valuesOf("--exec")) fx.payload(cmd, "`git rebase --exec`");
      return fx.notReadOnly("`git rebase` rewrites history");
    case "rm":
      if (!seen.has("--cached")) fx.deletes("`git rm` deletes files");
      for (const p of positionals) fx.write(p, base);
      return fx.notReadOnly("`git rm` changes the index");
    case "clean":
      return fx.notReadOnly("`git clean` deletes files");
    case "add":
      stagedPaths(parsed, fx, base);
      fx.notReadOnly("`git add` changes the index");
      return stateChangingPaths(name, parsed, fx, base);
    default:
      fx.notReadOnly(`\`git ${key}\` is not a read-only git command`);
      if (key.startsWith("remote-") || key.startsWith("worktree-")) return;
      if (!NO_CONTENT_OUT.has(name) || (name === "commit" && seen.has("--verbose"))) readsHistory(fx, base);
      return stateChangingPaths(name, parsed, fx, base);
  }
}

/** A subcommand without a grammar (fallback.ts). */
function withoutGrammar(
  name: string,
  args: readonly Word[],
  argv: readonly Word[],
  sub: number,
  fx: Effects,
  base: Word | undefined,
): void {
  scanHarmful(name, args, fx, base);
  const first = args[0];
  switch (name) {
    case "stash":
      // A stash subcommand Toolgate has no grammar for, or one computed at run time (`drop`?).
      fx.deletes("`git stash` may delete stashed changes");
      return fx.notReadOnly("`git stash` changes the working tree");
    case "remote":
      return fx.notReadOnly("`git remote` changes or contacts remotes");
    case "config":
      return config(args, fx, base);
    case "worktree":
      return fx.notReadOnly("`git worktree` changes worktrees");
    case "reflog":
      return fx.notReadOnly("`git reflog` changes the reflog");
    case "bisect":
      if (first?.literal && first.value === "run" && args.length > 1) fx.nested(args.slice(1), { prefix: sub + 2 });
      return fx.notReadOnly("`git bisect` changes the working tree");
    case "submodule": {
      const at = args.findIndex((a) => a.value === "foreach");
      if (at >= 0) {
        const cmd = args.slice(at + 1).filter((a) => !a.value.startsWith("-"));
        if (cmd.length === 1) fx.payload(cmd[0]!, "`git submodule foreach`");
        else if (cmd.length > 1) fx.nested(cmd, { prefix: argv.length });
      }
      if (first?.literal && (first.value === "status" || first.value === "summary")) return;
      return fx.notReadOnly("`git submodule` changes submodules");
    }
    case "difftool":
    case "mergetool":
      // The tool is whatever the configuration or `-x`/`--tool` names: a program decided at run time.
      return runsCode(fx, `\`git ${name}\` runs a diff or merge tool chosen by the configuration`);
    case "help":
      return fx.notReadOnly("`git help` opens a manual page viewer");
    default:
      fx.notReadOnly(`\`git ${name}\` is not a read-only git command`);
      if (!NO_CONTENT_OUT.has(name)) readsHistory(fx, base);
      return looseFiles(name, args, fx, base);
  }
}
