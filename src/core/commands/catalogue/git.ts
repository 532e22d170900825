/**
 * git: global options first (`-c` and `--config-env` set configuration, and configuration runs programs:
 * core.pager, core.sshCommand, diff.external...), then a subcommand. Read-only subcommands are vouched for
 * unless an option runs a program or writes a file (`--output`, `--ext-diff`, `--textconv`,
 * `--open-files-in-pager`...). git accepts unambiguous abbreviations of long options, so any prefix of a
 * dangerous option counts as that option.
 */
import { literalWord, UNKNOWN, unknownWord, type Word } from "../model";
import type { Effects, ProgramCheck } from "./effects";
import { dangerousOption, runsCode } from "./effects";
import { parseArgs, sliceWord, type OptionSpec } from "./options";

/** `-c` keys that change only how output looks. Anything else may run a program. */
const HARMLESS_CONFIG =
  /^(color\.[a-z.]+|core\.quotepath|core\.abbrev|log\.(showsignature|decorate|date|abbrevcommit|follow|mailmap|showroot)|diff\.(noprefix|mnemonicprefix|renames|relative|context|interhunkcontext|statgraphwidth|submodule|wserrorhighlight|colormoved|algorithm|indentheuristic)|advice\.[a-z]+|column\.[a-z]+|i18n\.logoutputencoding|pager\.[a-z-]+|core\.pager|format\.pretty|status\.[a-z]+|grep\.[a-z]+)$/;
/** Pager values that run nothing but `cat` (or nothing). */
const HARMLESS_PAGER = /^(cat|false|true|)$/;

/** Options of any subcommand that run a program, write a file or reach other repositories' programs. */
const DANGEROUS: Readonly<Record<string, string>> = {
  output: "writes its output to a file",
  "ext-diff": "runs an external diff program",
  textconv: "runs text-conversion programs",
  "open-files-in-pager": "runs a pager program on the files",
  "upload-pack": "runs a program for the transfer",
  "receive-pack": "runs a program for the transfer",
  exec: "runs a program",
  extcmd: "runs a program",
  template: "installs hooks from a template directory",
  config: "sets configuration, which can run programs",
  "config-env": "sets configuration, which can run programs",
  filters: "runs filter programs",
};
const SAFE_EXACT = new Set([
  "output-indicator-new",
  "output-indicator-old",
  "output-indicator-context",
  "no-ext-diff",
  "no-textconv",
  "text",
  "no-filters",
  "exec-path",
]);

const DANGEROUS_LIST = Object.entries(DANGEROUS);

function dangerousLong(name: string): string | undefined {
  if (name.length < 2 || SAFE_EXACT.has(name)) return undefined;
  for (const [full, why] of DANGEROUS_LIST) if (full.startsWith(name)) return `\`--${full}\` ${why}`;
  return undefined;
}

/** Read-only subcommands whose positionals are revisions or paths. */
const READ_ONLY = new Set([
  "status",
  "diff",
  "log",
  "show",
  "whatchanged",
  "shortlog",
  "blame",
  "annotate",
  "ls-files",
  "ls-tree",
  "rev-parse",
  "rev-list",
  "cat-file",
  "describe",
  "name-rev",
  "merge-base",
  "show-ref",
  "for-each-ref",
  "count-objects",
  "check-ignore",
  "check-attr",
  "grep",
  "var",
  "version",
  "diff-tree",
  "diff-files",
  "diff-index",
  "range-diff",
  "cherry",
  "show-branch",
  "verify-commit",
  "verify-tag",
]);

export interface GitLine {
  /** Index of the subcommand in argv (argv.length if none). */
  readonly sub: number;
  /** `-C` directories, in order. */
  readonly dirs: readonly Word[];
}

/** Reads the global options. Reports dangerous ones to `fx` when given. */
export function gitGlobals(argv: readonly Word[], fx?: Effects): GitLine {
  const dirs: Word[] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (!w.literal) {
      if (v.startsWith("-") || v.startsWith(UNKNOWN) || w.splits)
        fx?.dangerous("`git` gets an argument computed at run time that could be any option");
      if (!v.startsWith("-")) break;
      continue;
    }
    if (!v.startsWith("-")) break;
    if (v === "-C") {
      const d = argv[++i];
      if (d) dirs.push(d);
    } else if (v === "-c") {
      const kv = argv[++i];
      if (kv) checkConfig(kv, fx);
    } else if (v.startsWith("--config-env")) code(fx, "`git --config-env` sets configuration, which can run programs");
    else if (v.startsWith("--exec-path=")) code(fx, "`git --exec-path=` runs git programs from another directory");
    else if (v === "--git-dir" || v === "--work-tree") {
      i++;
      code(fx, `\`git ${v}\` points git at a repository whose configuration can run programs`);
    } else if (v.startsWith("--git-dir=") || v.startsWith("--work-tree="))
      code(fx, `\`git ${v.slice(0, v.indexOf("="))}\` points git at a repository whose configuration can run programs`);
    else if (v === "--bare")
      code(fx, "`git --bare` takes the working directory as a repository, whose configuration can run programs");
    else if (v === "--namespace" || v === "--attr-source" || v === "--list-cmds") i++;
    else if (/^--(namespace|attr-source|list-cmds)=/.test(v)) continue;
    else if (
      [
        "--no-replace-objects",
        "--literal-pathspecs",
        "--glob-pathspecs",
        "--noglob-pathspecs",
        "--icase-pathspecs",
        "--no-optional-locks",
        "--no-pager",
        "-P",
        "-p",
        "--paginate",
        "--no-advice",
        "--html-path",
        "--man-path",
        "--info-path",
        "--version",
        "--exec-path",
        "--no-lazy-fetch",
      ].includes(v)
    )
      continue;
    else if (v === "--super-prefix" || v.startsWith("--super-prefix="))
      fx?.dangerous("`git --super-prefix` is internal");
    else fx?.dangerous(`\`${v}\` is not a \`git\` option Toolgate knows`);
  }
  return { sub: i, dirs };
}

/** Configuration or a repository that can run programs: a hard ask (see `runsCode`). */
function code(fx: Effects | undefined, reason: string): void {
  if (fx) runsCode(fx, reason);
}

function checkConfig(kv: Word, fx?: Effects): void {
  const eq = kv.value.indexOf("=");
  const key = (eq >= 0 ? kv.value.slice(0, eq) : kv.value).toLowerCase();
  const value = eq >= 0 ? kv.value.slice(eq + 1) : "";
  const pagerKey = key === "core.pager" || key.startsWith("pager.");
  if (!kv.literal || !HARMLESS_CONFIG.test(key) || (pagerKey && !HARMLESS_PAGER.test(value))) {
    code(fx, `\`git -c ${kv.literal ? kv.value : "…"}\` sets configuration, which can run programs`);
  }
}

/** argv without global options (`git -C x --no-pager log` → `git log`), for matching rules. */
export function gitRuleArgv(argv: readonly Word[]): readonly Word[] {
  const { sub } = gitGlobals(argv);
  return sub === 1 ? argv : [argv[0]!, ...argv.slice(sub)];
}

export const git: ProgramCheck = (argv, fx) => {
  const { sub, dirs } = gitGlobals(argv, fx);
  const base = dirs.length > 0 ? joinDirs(dirs) : undefined;
  if (base) fx.read(base, "names");
  // Whatever runs, git reads the configuration of the repository it finds from there (which can run
  // programs: core.fsmonitor, core.pager...): it must be one of the workspace's own.
  fx.read(literalWord("."), "git-repository", base);
  const subWord = argv[sub];
  if (!subWord) {
    fx.label("git");
    return;
  }
  if (!subWord.literal) {
    // It may split into global options (`-c alias.x='!cmd' x`): what runs is decided at run time.
    fx.label("git");
    return runsCode(fx, "the `git` subcommand is computed at run time");
  }
  const name = subWord.value;
  const args = argv.slice(sub + 1);
  fx.label(`git ${name}`);
  scanDangerous(args, fx, base);
  shortDangerous(name, args, fx);
  const readPaths = (positionals: readonly Word[]): void => {
    for (const p of positionals) readRevOrPath(p, fx, base);
  };
  // Contents that come out of git's objects (commits, the index) include files the ignore file excludes
  // when the repository tracks them; the path gate asks then.
  const readsHistory = (): void => fx.read(literalWord("."), "git-history", base);
  const lost = discardsWork(name, args);
  if (lost) fx.deletes(`\`git ${name}\` ${lost}`);
  switch (name) {
    case "branch":
      return listingOnly(args, fx, BRANCH_LIST, "git branch", ["-l", "--list"]);
    case "tag":
      return listingOnly(args, fx, TAG_LIST, "git tag", ["-l", "--list"]);
    case "stash":
      if (args[0]?.value === "show" && showsPatch(args.slice(1), false)) readsHistory();
      if (args[0]?.value === "list" || args[0]?.value === "show") return readPaths(positionalsOf(args.slice(1)));
      // `-u` stores untracked files in the stash, `-a` ignored ones too.
      if (hasFlag(args, "a", "all")) fx.read(literalWord(":/"), "git-stage-forced", base);
      else if (hasFlag(args, "u", "include-untracked")) fx.read(literalWord(":/"), "git-stage", base);
      // `git stash push -- PATHS`: those files are stored and reset, a read and a write of each.
      if (args[0]?.value === "push" || args[0]?.value === "save")
        for (const p of positionalsOf(args.slice(1), ["-m", "--message", "--pathspec-from-file"]))
          fx.mayTouch(p, base, !p.value.startsWith(":"));
      return fx.notReadOnly("`git stash` changes the working tree");
    case "remote":
      return remote(args, fx);
    case "config":
      return config(args, fx, base);
    case "worktree": {
      if (args[0]?.value === "list") return;
      // `git worktree add PATH`: a checkout is written there.
      const where = args[0]?.value === "add" ? positionalsOf(args.slice(1), ["-b", "-B", "--reason"])[0] : undefined;
      if (where) fx.write(where, base);
      // The checkout copies tracked files, ignored ones too, to a place the ignore file may not cover.
      if (args[0]?.value === "add") readsHistory();
      return fx.notReadOnly("`git worktree` changes worktrees");
    }
    case "init": {
      const dir = positionalsOf(args, [
        "--template",
        "--separate-git-dir",
        "-b",
        "--initial-branch",
        "--object-format",
        "--ref-format",
        "--shared",
      ])[0];
      // It writes the repository's `.git` (configuration, hooks): a protected path wherever it is.
      if (dir && !dir.literal) fx.write(dir, base);
      else fx.write(literalWord(dir ? `${dir.value.replace(/\/+$/, "")}/.git` : ".git"), base);
      return fx.notReadOnly("`git init` creates a repository");
    }
    case "clone": {
      const [source, dir] = positionalsOf(args, [
        "-b",
        "--branch",
        "-o",
        "--origin",
        "--depth",
        "--reference",
        "--template",
        "-c",
        "--config",
        "--separate-git-dir",
        "-u",
        "--upload-pack",
        "--filter",
        "-j",
        "--jobs",
        "--bundle-uri",
        "--shallow-since",
        "--shallow-exclude",
        "--server-option",
        "--ref-format",
      ]);
      // A local source is read; a URL (`https://…`, `host:path`) is the network, which an allow rule for git licenses.
      const url = source?.literal === true && /^[A-Za-z][A-Za-z0-9+.-]*:\/\/|^[^/]*:/.test(source.value);
      if (source && !url) fx.read(source, "names", base);
      // A clone of the workspace's own repository copies its tracked files, ignored ones too.
      if (!url) readsHistory();
      if (dir) fx.write(dir, base);
      return fx.notReadOnly("`git clone` fetches a repository");
    }
    case "apply":
    case "am":
      // The files a patch changes are named inside it, known only when the command runs.
      if (
        !args.some(
          (a) => a.value === "--check" || a.value === "--stat" || a.value === "--numstat" || a.value === "--summary",
        )
      )
        fx.write(unknownWord(false), base);
      fx.notReadOnly(`\`git ${name}\` changes the files a patch names`);
      // The patch's text is what lands in the working tree (or is printed by `--stat`): a content read.
      // (`--stat` here is a flag, where log's may take a value.)
      for (const p of positionalsOf(
        args.filter((a) => !/^--(stat|numstat|summary|check)$/.test(a.value)),
        [...VALUE_OPTIONS, "--directory", "--exclude", "--include", "-p", "-C"],
      ))
        if (!(p.literal && p.value === "-")) fx.read(p, "content", base);
      return stateChangingPaths(name, args, fx, base);
    case "archive":
      // `--add-file=F` puts an untracked file's content into the archive.
      args.forEach((a, i) => {
        if (a.value === "--add-file") {
          const f = args[i + 1];
          if (f) fx.read(f, "content", base);
        } else if (a.value.startsWith("--add-file=")) fx.read(sliceWord(a, 11), "content", base);
        // `-o F`: the archive is written there (`--output`, for any subcommand, is scanDangerous's).
        else if (a.value === "-o") {
          const f = args[i + 1];
          if (f) fx.write(f, base);
        } else if (/^-o./.test(a.value)) fx.write(sliceWord(a, 2), base);
      });
      fx.notReadOnly("`git archive` writes an archive of the tree");
      readsHistory();
      return stateChangingPaths(name, args, fx, base);
    case "reflog":
      if (!args[0] || args[0].value === "show" || args[0].value.startsWith("-") || args[0].value === "exists") {
        // `git reflog` is `git log -g`: it takes log's options, `-p` among them.
        if (showsPatch(args, false)) readsHistory();
        return readPaths(positionalsOf(args.slice(args[0]?.value === "show" ? 1 : 0)));
      }
      return fx.notReadOnly("`git reflog` changes the reflog");
    case "clean":
      return fx.notReadOnly("`git clean` deletes files");
    case "rm":
      if (!args.some((a) => a.value === "--cached")) fx.deletes("`git rm` deletes files");
      for (const p of positionalsOf(args)) fx.write(p, base);
      return fx.notReadOnly("`git rm` changes the index");
    case "rebase":
      args.forEach((a, i) => {
        if (a.value === "-x" || a.value === "--exec") {
          const cmd = args[i + 1];
          if (cmd) fx.payload(cmd, "`git rebase --exec`");
        } else if (a.value.startsWith("--exec=")) fx.payload(sliceWord(a, 7), "`git rebase --exec`");
        else if (/^-[A-Za-z]/.test(a.value) && !a.value.startsWith("--")) {
          // A short cluster (`-ix CMD`, `-xCMD`): `x` takes the rest of the word, or the next word when it ends
          // the cluster; `s`, `X`, `C` and `S` take the rest themselves.
          for (let j = 1; j < a.value.length; j++) {
            const c = a.value[j]!;
            if (c === "x") {
              const cmd = j === a.value.length - 1 ? args[i + 1] : sliceWord(a, j + 1);
              if (cmd) fx.payload(cmd, "`git rebase --exec`");
              break;
            }
            if ("sXCS".includes(c)) break;
          }
        }
      });
      return fx.notReadOnly("`git rebase` rewrites history");
    case "bisect":
      if (args[0]?.value === "run" && args.length > 1) fx.nested(args.slice(1), { prefix: sub + 2 });
      return fx.notReadOnly("`git bisect` changes the working tree");
    case "submodule":
      if (args.some((a) => a.value === "foreach")) {
        const at = args.findIndex((a) => a.value === "foreach");
        const cmd = args.slice(at + 1).filter((a) => !a.value.startsWith("-"));
        if (cmd.length === 1) fx.payload(cmd[0]!, "`git submodule foreach`");
        else if (cmd.length > 1) fx.nested(cmd, { prefix: argv.length });
      }
      if (args[0]?.value === "status" || args[0]?.value === "summary") return;
      return fx.notReadOnly("`git submodule` changes submodules");
    case "grep": {
      const { positionals, seen } = parseArgs(args, 0, GREP_OPTIONS, fx, "git grep");
      const hasPattern = seen.has("-e") || seen.has("-f");
      readsHistory();
      const paths = hasPattern ? positionals : positionals.slice(1);
      readPaths(paths);
      // `--untracked` and `--no-index` search the files in the working tree, not git's: every file below the
      // paths (or the working directory), ignored ones included, as `grep -r` does.
      if (seen.has("--untracked") || seen.has("--no-index")) {
        const dirs = paths.filter((p) => !p.value.startsWith(":"));
        if (dirs.length === 0 || dirs.length < paths.length) fx.read(literalWord("."), "content-nofollow", base);
        for (const d of dirs) fx.read(d, "content-nofollow", base);
      }
      return;
    }
    case "blame":
    case "annotate":
      args.forEach((a, i) => {
        if (a.value === "--contents" || a.value === "-S" || a.value === "--ignore-revs-file") {
          const f = args[i + 1];
          if (f) fx.read(f, "content", base);
        } else if (/^--(contents|ignore-revs-file)=/.test(a.value))
          fx.read(sliceWord(a, a.value.indexOf("=") + 1), "content", base);
      });
      return readPaths(
        positionalsOf(args, [
          "--contents",
          "-S",
          "--ignore-revs-file",
          "-L",
          "-M",
          "-C",
          "--since",
          "--abbrev",
          "--date",
          "--ignore-rev",
        ]),
      );
    case "add":
      stagedPaths(args, fx, base);
      fx.notReadOnly("`git add` changes the index");
      return stateChangingPaths(name, args, fx, base);
    case "difftool":
    case "mergetool":
      // The tool is whatever the configuration or `-x`/`--tool` names: a program decided at run time.
      return runsCode(fx, `\`git ${name}\` runs a diff or merge tool chosen by the configuration`);
    case "help":
      return fx.notReadOnly("`git help` opens a manual page viewer");
    default:
      if (READ_ONLY.has(name)) {
        if (
          HISTORY_BY_DEFAULT.has(name) ? showsPatch(args, true) : PATCH_ON_REQUEST.has(name) && showsPatch(args, false)
        )
          readsHistory();
        if (name === "cat-file" && !args.some((a) => /^-[tse]$/.test(a.value))) readsHistory();
        if (name === "diff" || name === "log" || name === "show") {
          args.forEach((a) => {
            if (a.literal && /^-O./.test(a.value)) fx.read(sliceWord(a, 2), "content", base);
          });
        }
        return readPaths(positionalsOf(args, VALUE_OPTIONS));
      }
      fx.notReadOnly(`\`git ${name}\` is not a read-only git command`);
      if (!NO_CONTENT_OUT.has(name) || (name === "commit" && args.some((a) => /^(-v|--verbose)$/.test(a.value))))
        readsHistory();
      return stateChangingPaths(name, args, fx, base);
  }
};

/**
 * State-changing subcommands that put no file contents from git's objects where the agent can read them
 * (stdout, or a file outside the objects). Any other one (`archive`, `bundle`, `format-patch`,
 * `fast-export`, `checkout-index --prefix`, `notes show`, one Toolgate does not know) counts as printing
 * history, so it asks when the repository tracks an ignored file.
 */
const NO_CONTENT_OUT = new Set([
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

/**
 * `git add`: what it copies into the objects from the directories it is given (`git add .`), or from the
 * whole tree (`-A` alone, a pathspec git matches itself: `'*.env'`, `:/`, `--pathspec-from-file`). `-u`
 * stages only tracked files, so it copies nothing new in.
 */
function stagedPaths(args: readonly Word[], fx: Effects, base: Word | undefined): void {
  const kind = hasFlag(args, "f", "force") ? "git-stage-forced" : "git-stage";
  if (hasFlag(args, "u", "update") && !hasFlag(args, "A", "all")) return;
  const whole = (): void => fx.read(literalWord(":/"), kind, base);
  if (args.some((a) => a.value.startsWith("--pathspec-from-file"))) return whole();
  const specs = positionalsOf(args, ["--chmod"]);
  if (specs.length === 0 && hasFlag(args, "A", "all")) return whole();
  for (const p of specs) {
    if (!p.literal || /[*?[]/.test(p.value) || p.value.startsWith(":")) return whole();
    fx.read(p, kind, base);
  }
}

/** `-x` alone or in a cluster of short flags (`-fA`), or `--long`. */
function hasFlag(args: readonly Word[], short: string, long: string): boolean {
  for (const a of args) {
    if (a.value === "--") return false;
    if (a.value === `--${long}` || (/^-[A-Za-z]+$/.test(a.value) && a.value.includes(short))) return true;
  }
  return false;
}

/**
 * Whether the subcommand can throw away work that exists nowhere else (uncommitted changes, untracked files,
 * a stash, an unmerged branch): why, or undefined. A deletion, the hard ask of every mode, as `rm` is.
 * Conservative where the words cannot tell: `git checkout X` restores the file X when X is a tracked file
 * rather than a branch, so a lone word is taken for a path unless it is plainly a revision; a word computed
 * at run time could be any option or path.
 */
function discardsWork(name: string, args: readonly Word[]): string | undefined {
  const computed = args.some((a) => !a.literal);
  const dashdash = args.findIndex((a) => a.literal && a.value === "--");
  const options = (dashdash < 0 ? args : args.slice(0, dashdash)).filter((a) => a.value.startsWith("-"));
  // git reads a unique prefix of a long option as it (`git reset --har`); a cluster of letters as each.
  const long = (...names: string[]) =>
    options.some((a) => {
      const v = a.value.split("=")[0]!;
      return v.length >= 4 && v.startsWith("--") && names.some((n) => `--${n}`.startsWith(v));
    });
  const short = (...letters: string[]) =>
    options.some((a) => /^-[A-Za-z]+$/.test(a.value) && letters.some((c) => a.value.includes(c)));
  switch (name) {
    case "checkout": {
      if (computed) return "may discard uncommitted changes (an argument is known only when it runs)";
      if (short("f") || long("force")) return "with `-f` discards uncommitted changes";
      if (short("p") || long("patch", "ours", "theirs", "pathspec-from-file", "merge", "conflict"))
        return "overwrites files in the working tree, discarding their changes";
      if (dashdash >= 0 && args.length > dashdash + 1) return "overwrites the files it names, discarding their changes";
      const creates = short("b", "B") || long("orphan");
      const words = positionalsOf(args, [...VALUE_OPTIONS, "-b", "-B", "--orphan", "--conflict"]);
      if (words.length > 1 || (!creates && words.length === 1 && !plainRevision(words[0]!.value)))
        return "restores the files it names (a word that is not plainly a branch may be a file), discarding their changes";
      return undefined;
    }
    case "switch":
      if (computed) return "may discard uncommitted changes (an argument is known only when it runs)";
      if (short("f") || long("force", "discard-changes")) return "discards uncommitted changes";
      return undefined;
    case "restore":
      // Only `--staged` without `--worktree` leaves the working tree alone.
      if (!computed && (short("S") || long("staged")) && !(short("W") || long("worktree"))) return undefined;
      return "overwrites files in the working tree, discarding their changes";
    case "reset":
      if (computed || long("hard", "merge")) return "discards uncommitted changes";
      return undefined;
    case "clean":
      if (!computed && (short("n") || long("dry-run"))) return undefined;
      return "deletes untracked files";
    case "stash":
      if (args[0]?.value === "drop" || args[0]?.value === "clear" || (args[0] && !args[0].literal))
        return "deletes stashed changes";
      return undefined;
    case "branch":
      if (computed) return "may delete a branch (an argument is known only when it runs)";
      if (short("D", "M", "C")) return "force-deletes or overwrites a branch, which may hold unmerged commits";
      if ((short("d", "m", "c") || long("delete", "move", "copy")) && (short("f") || long("force")))
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

/** Subcommands that never write the files their arguments name (they record, send or name things). */
const NO_WORK_TREE_WRITES = new Set(["add", "commit", "push", "fetch", "notes", "tag", "branch", "gc", "fsck"]);

/**
 * A state-changing subcommand's arguments: a named file is read into the repository (`git add -f .env`
 * stores the ignored file's content) and, unless the subcommand only records, may be written
 * (`git checkout -- .vscode/settings.json`). The path gate refuses ignored files and asks for protected
 * paths; an allow rule for git licenses neither.
 */
function stateChangingPaths(name: string, args: readonly Word[], fx: Effects, base: Word | undefined): void {
  for (const p of positionalsOf(args, [...VALUE_OPTIONS, "-m", "--message", "-F", "--file", "-b", "-B", "-c", "-C"]))
    fx.mayTouch(p, base, !NO_WORK_TREE_WRITES.has(name) && !p.value.includes(":"));
  messageFiles(name, args, fx, base);
  pathLikeValues(name, args, fx, base);
}

/** Values of these options are text or revisions, never files (`-m /tmp is gone`, `--author=…`). */
const TEXT_VALUE_OPTIONS = new Set([
  "-m",
  "--message",
  "--author",
  "--date",
  "-c",
  "-C",
  "--reuse-message",
  "--fixup",
  "--squash",
]);

/**
 * Words and option values of a state-changing subcommand that are plainly paths (absolute, `~/`, `../`): the
 * files it writes or reads there (`bundle create /tmp/x`, `format-patch -o /tmp/p`, `read-tree
 * --index-output=/tmp/i`, `checkout-index --prefix=/tmp/co/`, `hash-object -w /etc/passwd`) pass the path gate
 * like a file tool's, outside the workspace included. Other words may be revisions or names, which
 * `mayTouch` checks only for what binds in every mode.
 */
function pathLikeValues(name: string, args: readonly Word[], fx: Effects, base: Word | undefined): void {
  const plain = (v: string) => v.startsWith("/") || v.startsWith("~/") || v.startsWith("../") || v === "..";
  const touch = (w: Word): void => {
    if (!NO_WORK_TREE_WRITES.has(name)) fx.write(w, base);
    fx.read(w, "content", base);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.literal) continue;
    const v = a.value;
    if (TEXT_VALUE_OPTIONS.has(v)) {
      i++;
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      if (eq > 0 && !TEXT_VALUE_OPTIONS.has(v.slice(0, eq)) && plain(v.slice(eq + 1))) touch(sliceWord(a, eq + 1));
    } else if (/^-[A-Za-z]./.test(v) && plain(v.slice(2))) touch(sliceWord(a, 2));
    else if (plain(v)) touch(a);
  }
}

/**
 * Files a state-changing subcommand reads into what it records: `-F`/`--file` (a commit, tag, note or merge
 * message) and `--template` (a commit message template). `git commit -F .env` puts the file's content into
 * history, where `git log` prints it, so the value is a content read the path gate checks.
 */
/** Short options of commit, tag, merge and notes that take a value (a message, commit, key, strategy). */
const SHORT_VALUE_LETTERS = "mcCuSsX";

function messageFiles(name: string, args: readonly Word[], fx: Effects, base: Word | undefined): void {
  const read = (w: Word | undefined): void => {
    if (w && !(w.literal && w.value === "-")) fx.read(w, "content", base);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (v === "--") return;
    if (v === "--file" || v === "--template" || v === "-F" || (name === "commit" && v === "-t")) read(args[++i]);
    else if (v.startsWith("--file=")) read(sliceWord(a, 7));
    else if (v.startsWith("--template=")) read(sliceWord(a, 11));
    else if (/^-[A-Za-z]/.test(v)) {
      // A short cluster, left to right: the first letter that takes a value takes the rest of the word, or the
      // next word when it ends the cluster (`-aF .env`, `-aF.env`; in `-mF` the F is part of the message).
      for (let j = 1; j < v.length; j++) {
        const c = v[j]!;
        const file = c === "F" || (name === "commit" && c === "t");
        if (!file && !SHORT_VALUE_LETTERS.includes(c)) continue;
        if (file) read(j === v.length - 1 ? args[++i] : sliceWord(a, j + 1));
        else if (j === v.length - 1) i++;
        break;
      }
    }
  }
}

/** Subcommands that print file contents unless told to print only names or statistics. */
const HISTORY_BY_DEFAULT = new Set(["show", "diff", "range-diff", "diff-files", "diff-index"]);
/** Subcommands that print file contents when asked for a patch. */
const PATCH_ON_REQUEST = new Set(["log", "whatchanged", "diff-tree", "reflog", "shortlog"]);
const PATCH_FLAG =
  /^(-p|-u|-U\d*|--patch|--patch-with-stat|--patch-with-raw|--unified(=.*)?|-c|--cc|-m|--diff-merges(=.*)?|--remerge-diff|--dd|--word-diff(=.*)?|--word-diff-regex(=.*)?|--color-words(=.*)?|-L.*|--full-diff|--binary|--function-context|-W)$/;
const NAMES_ONLY_FLAG =
  /^(-s|--no-patch|--stat(=.*)?|--shortstat|--numstat|--name-only|--name-status|--summary|--dirstat(=.*)?|--raw|--compact-summary|--check)$/;

/** Whether the arguments make git print file contents (a patch). */
function showsPatch(args: readonly Word[], byDefault: boolean): boolean {
  let patch = false;
  let namesOnly = false;
  for (const a of args) {
    if (a.literal && a.value === "--") break;
    if (PATCH_FLAG.test(a.value)) patch = true;
    else if (NAMES_ONLY_FLAG.test(a.value)) namesOnly = true;
  }
  return patch || (byDefault && !namesOnly);
}

/** Options (of log/diff/show...) whose value is a separate word. */
const VALUE_OPTIONS = [
  "-n",
  "--max-count",
  "--skip",
  "--since",
  "--after",
  "--until",
  "--before",
  "--author",
  "--committer",
  "--grep",
  "--format",
  "--pretty",
  "--date",
  "-S",
  "-G",
  "--diff-filter",
  "-L",
  "--encoding",
  "--abbrev",
  "--decorate-refs",
  "--decorate-refs-exclude",
  "--min-parents",
  "--max-parents",
  "--exclude",
  "--glob",
  "--branches",
  "--tags",
  "--remotes",
  "--ignore-rev",
  "--relative",
  "--format",
  "--sort",
  "--points-at",
  "--contains",
  "--no-contains",
  "--merged",
  "--no-merged",
  "-U",
  "--unified",
  "--stat",
  "--word-diff-regex",
];

function positionalsOf(args: readonly Word[], valueOptions: readonly string[] = VALUE_OPTIONS): Word[] {
  const out: Word[] = [];
  let dashdash = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (dashdash) {
      out.push(a);
      continue;
    }
    if (a.literal && a.value === "--") {
      dashdash = true;
      continue;
    }
    if (a.value.startsWith("-")) {
      if (valueOptions.includes(a.value)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Any option anywhere in the arguments that runs a program or writes a file. */
/**
 * Short spellings of the options above, per subcommand: `git clone -u PROG` / `ls-remote -u PROG` run PROG
 * for the transfer, `git clone -c KEY=VALUE` sets configuration the new repository then runs with. Found
 * alone or as the value-taking letter of a cluster (`-qu PROG`, `-uPROG`).
 */
const SHORT_DANGEROUS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  clone: { u: "runs a program for the transfer", c: "sets configuration, which can run programs" },
  "ls-remote": { u: "runs a program for the transfer" },
};
/** Short options of those subcommands that take a value of their own (the rest of a cluster is that value). */
const SHORT_VALUES: Readonly<Record<string, string>> = { clone: "obj", "ls-remote": "" };

function shortDangerous(name: string, args: readonly Word[], fx: Effects): void {
  const table = SHORT_DANGEROUS[name];
  if (!table) return;
  for (const a of args) {
    if (a.literal && a.value === "--") return;
    if (!/^-[A-Za-z]/.test(a.value)) continue;
    for (const c of a.value.slice(1)) {
      const why = table[c];
      if (why) {
        dangerousOption(fx, `\`git ${name} -${c}\` ${why}`, why);
        break;
      }
      if ((SHORT_VALUES[name] ?? "").includes(c)) break;
    }
  }
}

function scanDangerous(args: readonly Word[], fx: Effects, base: Word | undefined): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.literal && a.value === "--") return;
    if (!a.literal && (a.value.startsWith(UNKNOWN) || a.value.startsWith("-") || a.splits)) {
      // It could be `--ext-diff` or `--output=…`, which run a program or write a file.
      runsCode(
        fx,
        "`git` gets an argument computed at run time that could be an option like `--output` or `--ext-diff`",
      );
      continue;
    }
    if (!a.value.startsWith("--")) continue;
    const eq = a.value.indexOf("=");
    const name = a.value.slice(2, eq >= 0 ? eq : undefined);
    const why = dangerousLong(name);
    if (!why) continue;
    dangerousOption(fx, `\`git\` ${why}`, why);
    // `--output` (or an abbreviation) writes the file it names: a file effect, so protected paths and the
    // workspace boundary hold for it in every mode.
    if (name.length >= 2 && "output".startsWith(name)) {
      const target = eq >= 0 ? sliceWord(a, eq + 1) : args[++i];
      if (target) fx.write(target, base);
    }
  }
}

/** A revision, a path, or `rev:path`: anything that could name a file is read-checked. */
function readRevOrPath(w: Word, fx: Effects, base: Word | undefined): void {
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

function joinDirs(dirs: readonly Word[]): Word {
  // `git -C a -C b` is `a/b` (an absolute later one wins).
  let value = "";
  let literal = true;
  for (const d of dirs) {
    literal &&= d.literal;
    value = d.value.startsWith("/") ? d.value : value ? `${value}/${d.value}` : d.value;
  }
  return literal ? literalWord(value) : { ...dirs[dirs.length - 1]!, literal: false };
}

const BRANCH_LIST: OptionSpec = {
  flags: "arlvi",
  long: [
    "list",
    "all",
    "remotes",
    "verbose",
    "show-current",
    "no-column",
    "no-color",
    "ignore-case",
    "omit-empty",
    "no-abbrev",
  ],
  longArgs: { sort: "data", format: "data", "points-at": "data" },
  longOptional: {
    contains: "data",
    "no-contains": "data",
    merged: "data",
    "no-merged": "data",
    column: "data",
    color: "data",
    abbrev: "data",
  },
};
const TAG_LIST: OptionSpec = {
  flags: "li",
  long: ["list", "no-column", "no-color", "ignore-case", "omit-empty"],
  longArgs: { sort: "data", format: "data", "points-at": "data" },
  longOptional: {
    contains: "data",
    "no-contains": "data",
    merged: "data",
    "no-merged": "data",
    column: "data",
    color: "data",
  },
};
const GREP_OPTIONS: OptionSpec = {
  flags: "aiIvwcEFGPnhHlLozqWp",
  shortArgs: { e: "data", f: "content", A: "data", B: "data", C: "data", m: "data" },
  long: [
    "cached",
    "untracked",
    "no-index",
    "no-exclude-standard",
    "exclude-standard",
    "recurse-submodules",
    "text",
    "textconv-no",
    "ignore-case",
    "word-regexp",
    "invert-match",
    "full-name",
    "extended-regexp",
    "basic-regexp",
    "perl-regexp",
    "fixed-strings",
    "line-number",
    "column",
    "files-with-matches",
    "name-only",
    "files-without-match",
    "null",
    "count",
    "break",
    "heading",
    "show-function",
    "function-context",
    "all-match",
    "quiet",
    "no-textconv",
    "and",
    "or",
    "not",
    "only-matching",
  ],
  longArgs: {
    "max-depth": "data",
    "after-context": "data",
    "before-context": "data",
    context: "data",
    threads: "data",
    "max-count": "data",
  },
  longOptional: { color: "data" },
  numeric: true,
  dangerous: {
    "-O": "runs a pager program on the files",
    "--open-files-in-pager": "runs a pager program on the files",
    "--textconv": "runs text-conversion programs",
  },
};

/** `git branch`/`git tag`: vouched for only when listing (positionals are patterns only with `--list`). */
function listingOnly(
  args: readonly Word[],
  fx: Effects,
  spec: OptionSpec,
  what: string,
  listFlags: readonly string[],
): void {
  const { positionals, seen } = parseArgs(args, 0, spec, fx, what);
  if (positionals.length > 0 && !listFlags.some((f) => seen.has(f)))
    fx.notReadOnly(`\`${what} NAME\` creates or changes a ref`);
}

function remote(args: readonly Word[], fx: Effects): void {
  const first = args[0]?.value;
  if (first === undefined || first === "-v" || first === "--verbose") return;
  if (first === "get-url") return;
  if (first === "show" && args.some((a) => a.value === "-n")) return;
  fx.notReadOnly(`\`git remote ${first}\` changes or contacts remotes`);
}

/** Old-style `git config` actions that only read. */
const CONFIG_READ = new Set([
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "--list",
  "-l",
  "--get-color",
  "--get-colorbool",
]);
/** Old-style actions that change a configuration file. */
const CONFIG_WRITE = new Set([
  "--add",
  "--replace-all",
  "--unset",
  "--unset-all",
  "--rename-section",
  "--remove-section",
]);
/** Options that only change how values are read or shown, or which file is meant. */
const CONFIG_MODIFIERS = new Set([
  "--global",
  "--system",
  "--local",
  "--worktree",
  "--show-origin",
  "--show-scope",
  "--name-only",
  "--null",
  "-z",
  "--no-includes",
  "--bool",
  "--int",
  "--bool-or-int",
  "--path",
  "--expiry-date",
  "--all",
  "--show-names",
  "--no-show-names",
  "--fixed-value",
  "--regexp",
  "--no-type",
]);
/** Options whose value follows (`--file F` or `--file=F`). */
const CONFIG_VALUED = new Set(["--file", "-f", "--blob", "--type", "-t", "--default", "--comment", "--value", "--url"]);

/**
 * `git config`: reading (an action that reads, `get`/`list`, or a single name) is read-only; setting writes
 * the configuration file (`.git/config` is protected, `~/.gitconfig` lies outside) and `--edit` runs an
 * editor. A file named with `--file`/`--blob` is read through the path gate; `--includes` with one follows
 * include directives to files the gate never sees. Any option not listed here is dangerous.
 */
function config(args: readonly Word[], fx: Effects, base: Word | undefined): void {
  let action: "read" | "write" | undefined;
  let fromFile = false;
  let includes = false;
  const names: Word[] = [];
  let fileWord: Word | undefined;
  const useValue = (option: string, value: Word | undefined): void => {
    if (!value) return;
    if (option === "--file" || option === "-f") {
      fromFile = true;
      fileWord = value;
      if (!(value.literal && value.value === "-")) fx.read(value, "content", base);
    } else if (option === "--blob") {
      fromFile = true;
      readRevOrPath(value, fx, base);
    }
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (!a.literal && (v.startsWith("-") || v.startsWith(UNKNOWN))) {
      fx.dangerous("`git config` gets an argument computed at run time that could be any option");
      continue;
    }
    if (!v.startsWith("-") || v === "-") {
      names.push(a);
      continue;
    }
    if (CONFIG_READ.has(v)) action ??= "read";
    else if (CONFIG_WRITE.has(v)) action = "write";
    else if (v === "--edit" || v === "-e") fx.dangerous("`git config --edit` runs an editor");
    else if (v === "--includes") includes = true;
    else if (CONFIG_MODIFIERS.has(v)) continue;
    else if (CONFIG_VALUED.has(v)) useValue(v, args[++i]);
    else if (v.includes("=") && CONFIG_VALUED.has(v.slice(0, v.indexOf("="))))
      useValue(v.slice(0, v.indexOf("=")), sliceWord(a, v.indexOf("=") + 1));
    else fx.dangerous(`\`git config ${v}\` is not an option Toolgate knows`);
  }
  if (includes && fromFile) fx.dangerous("`git config --includes` with a file follows its include directives");
  // New-style subcommands (`git config get NAME`, `git config set NAME VALUE`).
  const first = names[0];
  if (action === undefined && first?.literal && /^(get|list)$/.test(first.value)) action = "read";
  else if (action === undefined && first?.literal && /^(set|unset|rename-section|remove-section)$/.test(first.value))
    action = "write";
  else if (action === undefined && first?.literal && first.value === "edit")
    fx.dangerous("`git config edit` runs an editor");
  else if (action === undefined) action = names.length <= 1 ? "read" : "write";
  if (action === "read") {
    // Reading global or system configuration by name reads files outside the workspace.
    if (args.some((a) => a.value === "--global"))
      fx.read({ ...literalWord("~/.gitconfig"), literal: false, tilde: "home" }, "content");
    if (args.some((a) => a.value === "--system")) fx.read(literalWord("/etc/gitconfig"), "content");
    return;
  }
  fx.notReadOnly("`git config` changes configuration");
  if (fileWord) fx.write(fileWord, base);
  else if (args.some((a) => a.value === "--global"))
    fx.write({ ...literalWord("~/.gitconfig"), literal: false, tilde: "home" });
  else if (args.some((a) => a.value === "--blob")) fx.dangerous("`git config --blob` cannot be written");
  else if (!args.some((a) => a.value === "--system")) fx.write(literalWord(".git/config"), base);
  else fx.write(literalWord("/etc/gitconfig"));
}
