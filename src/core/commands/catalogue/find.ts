/**
 * `find [-H|-L|-P|-D x|-Ox] [start...] [expression]`. The leading options are read by the whole-word reader of
 * `options.ts` (find's own parser: `-D tree`, `-O3`, `--`; no clusters). Start points are read for names (with
 * `-files0-from F` they are the names inside F, known only at run time). The expression is find's own
 * language: one walker reads it, and the table `PRIMARIES` says how many words each primary takes, what they
 * are (data, a file read for its names or content, a file written) and what the primary does beyond them.
 * `-exec/-execdir/-ok/-okdir CMD ... ;|+` run CMD as a nested command (its `{}` stands for files under the
 * start points), `-delete` deletes, `-fprint*`/`-fls` write files. A primary the table does not know makes
 * the use not read-only; a word computed at run time could be any action, so it is dangerous. A find whose
 * only output is its list of paths (`-print0`, or `-print`) says so (`printsPaths`), for the pipe into xargs.
 */
import { literalWord, UNKNOWN, unknownWord, type Word } from "../model";
import type { Effects, ProgramCheck } from "./effects";
import { parseWords, type ArgKind, type WordOptionSpec } from "./options";
import { readFilter, type ReadFilter } from "../../readFilter";

/** find's leading options, before the start points. */
export const LEADING: WordOptionSpec = {
  words: { "-H": [], "-L": [], "-P": [], "-D": ["data"] },
  attached: { "-O": /^\d+$/ },
  leading: true,
  doubleDash: true,
};

/**
 * What a primary does besides reading its words: `name`/`path` tests name files (a plain name picks that
 * file); `stdout` actions print to the standard output something other than the bare paths; `paths` print
 * the paths (`-print` ends each with a newline, `-print0` with NUL); `exec` runs a command; `delete`
 * deletes; `files0` takes the start points from a file.
 */
type Role = "name" | "path" | "stdout" | "print" | "print0" | "exec" | "delete" | "files0";

interface Primary {
  /** The kinds of the words that follow it, in order. */
  readonly args: readonly ArgKind[];
  readonly role?: Role;
}

const NONE: Primary = { args: [] };
const DATA: Primary = { args: ["data"] };

/** Every primary, operator and option of GNU find 4.9's expression. */
export const PRIMARIES: Readonly<Record<string, Primary>> = {
  // Tests with one plain-data word.
  ...Object.fromEntries(
    [
      "-iwholename",
      "-regex",
      "-iregex",
      "-lname",
      "-ilname",
      "-type",
      "-xtype",
      "-user",
      "-group",
      "-uid",
      "-gid",
      "-perm",
      "-size",
      "-mtime",
      "-mmin",
      "-atime",
      "-amin",
      "-ctime",
      "-cmin",
      "-inum",
      "-links",
      "-used",
      "-fstype",
      "-context",
      "-regextype",
      "-maxdepth",
      "-mindepth",
    ].map((p) => [p, DATA]),
  ),
  // Tests, operators and options without a word.
  ...Object.fromEntries(
    [
      "-empty",
      "-executable",
      "-readable",
      "-writable",
      "-nouser",
      "-nogroup",
      "-true",
      "-false",
      "-daystart",
      "-depth",
      "-d",
      "-follow",
      "-ignore_readdir_race",
      "-noignore_readdir_race",
      "-mount",
      "-xdev",
      "-noleaf",
      "-warn",
      "-nowarn",
      "-prune",
      "-quit",
      "-not",
      "-a",
      "-and",
      "-o",
      "-or",
      "!",
      "(",
      ")",
      ",",
    ].map((p) => [p, NONE]),
  ),
  "-name": { args: ["data"], role: "name" },
  "-iname": { args: ["data"], role: "name" },
  "-path": { args: ["data"], role: "path" },
  "-ipath": { args: ["data"], role: "path" },
  "-wholename": { args: ["data"], role: "path" },
  "-newer": { args: ["names"] },
  "-anewer": { args: ["names"] },
  "-cnewer": { args: ["names"] },
  "-samefile": { args: ["names"] },
  "-files0-from": { args: ["content"], role: "files0" },
  "-print": { args: [], role: "print" },
  "-print0": { args: [], role: "print0" },
  "-ls": { args: [], role: "stdout" },
  "-printf": { args: ["data"], role: "stdout" },
  "-fprint": { args: ["write"] },
  "-fprint0": { args: ["write"] },
  "-fls": { args: ["write"] },
  "-fprintf": { args: ["write", "data"] },
  "-delete": { args: [], role: "delete" },
  "-exec": { args: [], role: "exec" },
  "-execdir": { args: [], role: "exec" },
  "-ok": { args: [], role: "exec" },
  "-okdir": { args: [], role: "exec" },
  "-help": { args: [], role: "stdout" },
  "--help": { args: [], role: "stdout" },
  "-version": { args: [], role: "stdout" },
  "--version": { args: [], role: "stdout" },
};

/** `-newerXY REF`: REF is a time when Y is `t`, else a file whose timestamp is compared (its name is read). */
function primaryOf(v: string): Primary | undefined {
  if (Object.prototype.hasOwnProperty.call(PRIMARIES, v)) return PRIMARIES[v];
  const newer = /^-newer[aBcm]([aBcmt])$/.exec(v);
  if (newer) return { args: [newer[1] === "t" ? "data" : "names"] };
  return undefined;
}

/**
 * Programs whose arguments are only options, files and plain data (patterns, counts): a file name given to
 * them is never run as code. A shell, awk, sed, jq, a wrapper or anything unknown is not among them.
 */
const PATHS_ONLY = new Set([
  "cat",
  "head",
  "tail",
  "wc",
  "ls",
  "stat",
  "file",
  "du",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "cut",
  "sort",
  "uniq",
  "nl",
  "diff",
  "cmp",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "b2sum",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "tac",
  "rev",
  "paste",
  "fold",
  "comm",
  "expand",
]);
/** Of `PATHS_ONLY`, those that read only the names and metadata of the files `{}` names, never their content. */
const NAMES_ONLY = new Set(["ls", "stat", "du", "basename", "dirname", "realpath", "readlink"]);
/**
 * Programs that write the files `{}` names. A write of a start point covers that directory, not what lies
 * below it (`find . -path ./.git/hooks/x -exec cp f {} \;` writes a git hook): their `{}` is a path known
 * only at run time. `sort -o {}` and `uniq IN {}` write too.
 */
const WRITES_FOUND = new Set(["cp", "mv", "rm", "rmdir", "touch", "chmod", "chown", "chgrp", "mkdir", "ln", "uniq"]);

function isExpressionStart(w: Word): boolean {
  const v = w.value;
  return !w.literal || v.startsWith("-") || v === "!" || v === "(" || v === ")" || v === ",";
}

/**
 * Whether `inner` (a command `find -exec` or `xargs` runs) takes the found files only as files it reads, so
 * each can be checked as the start point it lies below: a program in `PATHS_ONLY` that does not write them.
 */
export function readsFoundFiles(inner: readonly Word[]): boolean {
  const program = inner[0];
  if (!program?.literal) return false;
  const name = baseName(program.value);
  const writes = WRITES_FOUND.has(name) || (name === "sort" && inner.some((x) => /^-[A-Za-z]*o|^--o/.test(x.value)));
  return PATHS_ONLY.has(name) && !writes;
}

/**
 * The files found, handed to `inner` (see `readsFoundFiles`), are read for their content: a reader of named
 * files given the start point instead reads nothing of it (`cat .`), so the caller reads the start point as
 * a recursive read, with the selection `only` when the expression selects files by name.
 */
export function readFoundFiles(inner: readonly Word[], start: Word, only: ReadFilter | undefined, fx: Effects): void {
  if (!NAMES_ONLY.has(baseName(inner[0]!.value))) fx.read(start, "content", undefined, only);
}

export const find: ProgramCheck = (argv, fx) => {
  fx.label("find");
  let i = parseWords(argv, 1, LEADING, fx, "find").end;
  let starts: Word[] = [];
  while (i < argv.length && !isExpressionStart(argv[i]!)) starts.push(argv[i++]!);
  if (starts.length === 0) starts.push(literalWord("."));
  // `-files0-from F` takes the start points from inside F: they are known only when find runs.
  if (argv.slice(i).some((w) => w.literal && w.value === "-files0-from")) starts = [unknownWord(false)];
  // Only plain start points and primaries that print nothing but the paths leave the output a list of paths.
  let listsPaths = true;
  for (const s of starts) {
    // A glob start point could expand to a name like `-delete`.
    if (s.glob && /^[*?[]/.test(s.value))
      fx.dangerous(`the \`find\` start point \`${s.value}\` could expand to an action like \`-delete\``);
    if (!s.literal) listsPaths = false;
    fx.read(s, "names");
  }
  const printed = new Set<"print" | "print0">();
  // While the expression read so far is a plain conjunction (no `-o`, `!`, `,` or parentheses), an action runs
  // only on files whose name matches every `-name`/`-iname` glob seen: `names` holds them. `printedOnly`: the
  // selection when the first `-print0` ran (later ones see more globs, so fewer files).
  let conjunction = true;
  const names: string[] = [];
  let printedOnly: ReadFilter | undefined;
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    if (!w.literal || ["-o", "-or", "!", "-not", "(", ")", ","].includes(w.value)) conjunction = false;
    if (!w.literal) {
      fx.dangerous(
        "`find` gets an expression computed at run time, which could be an action like `-exec` or `-delete`",
      );
      listsPaths = false;
      continue;
    }
    const v = w.value;
    const primary = primaryOf(v);
    if (!primary) {
      // An expression this table does not know could be an action (find's actions run, write or delete).
      fx.dangerous(`\`${v}\` is not a \`find\` expression Toolgate knows`);
      listsPaths = false;
      continue;
    }
    const words = argv.slice(i + 1, i + 1 + primary.args.length);
    primary.args.forEach((kind, k) => {
      const word = words[k];
      if (!word) return;
      if (kind === "names" || kind === "content") fx.read(word, kind);
      else if (kind === "write") {
        fx.write(word);
        listsPaths = false;
      }
    });
    i += primary.args.length;
    switch (primary.role) {
      case "name":
      case "path": {
        // A plain name (`-name .env`) picks that file: check it under each start point like a path.
        const pattern = words[0];
        // A `-path` test only narrows the files further; a pattern known only at run time ends the selection.
        if (!pattern?.literal) conjunction = false;
        else if (primary.role === "name") names.push(pattern.value);
        if (pattern?.literal && !/[*?[\]]/.test(pattern.value))
          for (const s of starts) fx.read(primary.role === "name" ? joinPath(s, pattern.value) : pattern, "names");
        break;
      }
      case "print":
      case "print0":
        if (!printed.has(primary.role)) printedOnly = conjunction ? readFilter(names) : undefined;
        printed.add(primary.role);
        break;
      case "stdout":
      case "files0":
        listsPaths = false;
        break;
      case "delete":
        fx.deletes("`find -delete` deletes files");
        listsPaths = false;
        break;
      case "exec":
        i = exec(argv, i, v, starts, conjunction ? readFilter(names) : undefined, fx);
        listsPaths = false;
        break;
      default:
        break;
    }
  }
  // No action at all prints every path with a newline; both actions mix the two separators.
  if (listsPaths && printed.size <= 1) {
    const only = conjunction ? printedOnly : undefined;
    fx.printsPaths({ starts, terminator: printed.has("print0") ? "nul" : "newline", ...(only ? { only } : {}) });
  }
};

/** `-exec CMD ... ;|+` at `i`: checks CMD as a nested command; returns the index of its terminator. */
function exec(
  argv: readonly Word[],
  i: number,
  v: string,
  starts: readonly Word[],
  only: ReadFilter | undefined,
  fx: Effects,
): number {
  let end = i + 1;
  while (
    end < argv.length &&
    !(argv[end]!.literal && (argv[end]!.value === ";" || (argv[end]!.value === "+" && argv[end - 1]!.value === "{}")))
  )
    end++;
  const inner = argv.slice(i + 1, end);
  const program = inner[0];
  if (!program) fx.dangerous(`\`find ${v}\` without a command`);
  else if (program.value.includes("{}")) fx.dangerous(`\`find ${v}\` runs the files it finds as programs`);
  else {
    // `{}` stands for each file found under the start points, and a file name can be any text (`$(x)`).
    // For a program that takes its arguments only as files or data it is checked as the start point
    // (everything found lies below it); for any other program (a shell's `-c` script, an awk program, a
    // wrapper) it is text known only at run time.
    const pathsOnly = readsFoundFiles(inner);
    for (const s of starts) {
      // The start point stands for the files below it (see `readFoundFiles`).
      if (pathsOnly) readFoundFiles(inner, s, only, fx);
      const substituted = inner.map((x) =>
        !x.value.includes("{}") ? x : pathsOnly && x.value === "{}" ? substitute(x, s) : computedAtRunTime(x),
      );
      fx.nested(substituted, { prefix: i + 1 });
    }
  }
  if (end >= argv.length) fx.dangerous(`\`find ${v}\` is not terminated by \`;\` or \`+\``);
  return end;
}

function joinPath(dir: Word, name: string): Word {
  if (!dir.literal) return dir;
  return literalWord(dir.value.endsWith("/") ? dir.value + name : `${dir.value}/${name}`);
}

function computedAtRunTime(w: Word): Word {
  return { ...w, value: w.value.split("{}").join(UNKNOWN), literal: false, tilde: undefined };
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function substitute(w: Word, start: Word): Word {
  if (!start.literal) return { ...start };
  return { ...w, value: w.value.split("{}").join(start.value), tilde: undefined };
}
