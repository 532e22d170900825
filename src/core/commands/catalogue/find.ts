/**
 * `find [-H|-L|-P|-D x|-Ox] [start...] [expression]`. Start points are read for names (with `-files0-from F`
 * they are the names inside F, known only at run time). In the expression,
 * `-exec/-execdir/-ok/-okdir CMD ... ;|+` run CMD as a nested command (its `{}` stands for files under the
 * start points), `-delete` deletes, `-fprint*`/`-fls` write files. Tokens it does not know make the use not
 * read-only; a token computed at run time could be any action, so it is dangerous.
 */
import { literalWord, UNKNOWN, unknownWord, type Word } from "../model";
import type { ProgramCheck } from "./effects";
import { readFilter } from "../../readFilter";

const TESTS_WITH_ARG = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
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
  "-printf",
]);
const TESTS_READING_NAMES = new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);
const NO_ARG = new Set([
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
  "-print",
  "-print0",
  "-ls",
  "-not",
  "-a",
  "-and",
  "-o",
  "-or",
  "!",
  "(",
  ")",
  ",",
  "-help",
  "--help",
  "-version",
  "--version",
]);
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
const WRITES_ONE = new Set(["-fprint", "-fprint0", "-fls"]);
const EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

function isExpressionStart(w: Word): boolean {
  const v = w.value;
  return !w.literal || v.startsWith("-") || v === "!" || v === "(" || v === ")" || v === ",";
}

export const find: ProgramCheck = (argv, fx) => {
  fx.label("find");
  let i = 1;
  // Leading options.
  while (i < argv.length && argv[i]!.literal) {
    const v = argv[i]!.value;
    if (v === "-H" || v === "-L" || v === "-P" || /^-O\d$/.test(v)) i++;
    else if (v === "-D") i += 2;
    else break;
  }
  let starts: Word[] = [];
  while (i < argv.length && !isExpressionStart(argv[i]!)) starts.push(argv[i++]!);
  if (starts.length === 0) starts.push(literalWord("."));
  // `-files0-from F` takes the start points from inside F: they are known only when find runs.
  if (argv.slice(i).some((w) => w.literal && w.value === "-files0-from")) starts = [unknownWord(false)];
  for (const s of starts) {
    // A glob start point could expand to a name like `-delete`.
    if (s.glob && /^[*?[]/.test(s.value))
      fx.dangerous(`the \`find\` start point \`${s.value}\` could expand to an action like \`-delete\``);
    fx.read(s, "names");
  }
  // While the expression read so far is a plain conjunction (no `-o`, `!`, `,` or parentheses), an action runs
  // only on files whose name matches every `-name`/`-iname` glob seen: `names` holds them.
  let conjunction = true;
  const names: string[] = [];
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    if (!w.literal || ["-o", "-or", "!", "-not", "(", ")", ","].includes(w.value)) conjunction = false;
    if (!w.literal) {
      fx.dangerous(
        "`find` gets an expression computed at run time, which could be an action like `-exec` or `-delete`",
      );
      continue;
    }
    const v = w.value;
    if (NO_ARG.has(v)) continue;
    if (v === "-name" || v === "-iname" || v === "-path" || v === "-ipath" || v === "-wholename") {
      // A plain name (`-name .env`) picks that file: check it under each start point like a path.
      const pattern = argv[++i];
      // A `-path` test only narrows the files further; a pattern known only at run time ends the selection.
      if (!pattern?.literal) conjunction = false;
      else if (v === "-name" || v === "-iname") names.push(pattern.value);
      if (pattern?.literal && !/[*?[\]]/.test(pattern.value)) {
        for (const s of starts)
          fx.read(v.endsWith("name") && !v.endsWith("wholename") ? joinPath(s, pattern.value) : pattern, "names");
      }
      continue;
    }
    if (TESTS_WITH_ARG.has(v) || /^-newer[aBcmt][aBcmt]$/.test(v)) {
      i++;
      continue;
    }
    if (TESTS_READING_NAMES.has(v)) {
      const target = argv[++i];
      if (target) fx.read(target, "names");
      continue;
    }
    if (v === "-files0-from") {
      const target = argv[++i];
      if (target) fx.read(target, "content");
      continue;
    }
    if (WRITES_ONE.has(v)) {
      const target = argv[++i];
      if (target) fx.write(target);
      continue;
    }
    if (v === "-fprintf") {
      const target = argv[++i];
      i++;
      if (target) fx.write(target);
      continue;
    }
    if (v === "-delete") {
      fx.deletes("`find -delete` deletes files");
      continue;
    }
    if (EXEC.has(v)) {
      let end = i + 1;
      while (
        end < argv.length &&
        !(
          argv[end]!.literal &&
          (argv[end]!.value === ";" || (argv[end]!.value === "+" && argv[end - 1]!.value === "{}"))
        )
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
        const name = baseName(program.value);
        const writes =
          WRITES_FOUND.has(name) || (name === "sort" && inner.some((x) => /^-[A-Za-z]*o|^--o/.test(x.value)));
        const pathsOnly = program.literal && PATHS_ONLY.has(name) && !writes;
        for (const s of starts) {
          // The start point stands for the files below it, but a reader of named files given a directory
          // reads nothing of it (`cat .`): the files found are read here, as a recursive read of the start.
          // A plain conjunction of `-name` tests before the action selects which of them it reads.
          const only = conjunction ? readFilter(names) : undefined;
          if (pathsOnly && !NAMES_ONLY.has(name)) fx.read(s, "content", undefined, only);
          const substituted = inner.map((x) =>
            !x.value.includes("{}") ? x : pathsOnly && x.value === "{}" ? substitute(x, s) : computedAtRunTime(x),
          );
          fx.nested(substituted, { prefix: i + 1 });
        }
      }
      if (end >= argv.length) fx.dangerous(`\`find ${v}\` is not terminated by \`;\` or \`+\``);
      i = end;
      continue;
    }
    // An expression this table does not know could be an action (find's actions run, write or delete).
    fx.dangerous(`\`${v}\` is not a \`find\` expression Toolgate knows`);
  }
};

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
