/**
 * Read-only programs whose whole behaviour is captured by an option table and what their positionals are
 * (files read for content, files read only for names/metadata, or plain data), plus file-changing
 * programs whose path arguments are known (so an allow rule for `cp` still cannot write `~/.bashrc`).
 * Option tables follow GNU coreutils; an option missing here only costs an allow rule, never safety.
 */
import { literalWord, unknownWord, type Word } from "../model";
import type { Effects, ProgramCheck } from "./effects";
import { parseArgs, sliceWord, type OptionSpec, type Seen } from "./options";
import { unknown } from "./wrappers";

type Role = "content" | "names" | "data";

function readPositional(w: Word, role: Role, fx: Effects): void {
  if (role === "data" || (w.literal && w.value === "-")) return;
  // These readers read each named file; none reads the files of a directory it is given.
  fx.read(w, role === "content" ? "file-content" : role);
}

/**
 * A program that reads its positionals (or treats them as data) and writes nothing. `dot`: with no
 * positional it reads the working directory (`ls`, `du`, `tree`). `lists`: options whose file names more
 * files, which the program then reads as its positionals (`--files0-from=F`).
 */
export function reader(
  program: string,
  spec: OptionSpec,
  role: Role,
  dot = false,
  lists: readonly string[] = [],
): ProgramCheck {
  return (argv, fx) => {
    fx.label(program);
    const { positionals, seen } = parseArgs(argv, 1, spec, fx, program);
    if (lists.some((o) => seen.has(o))) readsNamedInside(fx, role === "names" ? "names" : "content");
    else if (dot && positionals.length === 0) fx.read(literalWord("."), "names");
    for (const p of positionals) readPositional(p, role, fx);
  };
}

/**
 * The program reads files whose names are inside another file (`sort --files0-from=F`, `md5sum --check F`):
 * which files is known only when it runs, so they are a read of a path known only then (any of them could
 * be an ignored file or lie outside the workspace).
 */
function readsNamedInside(fx: Effects, kind: "content" | "names"): void {
  fx.read(unknownWord(false), kind);
}

const HELP = ["help", "version"];

const LS: OptionSpec = {
  flags: "aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1",
  shortArgs: { I: "data", T: "data", w: "data" },
  long: [
    ...HELP,
    "all",
    "almost-all",
    "author",
    "escape",
    "ignore-backups",
    "directory",
    "dired",
    "file-type",
    "full-time",
    "group-directories-first",
    "no-group",
    "human-readable",
    "si",
    "dereference-command-line",
    "dereference-command-line-symlink-to-dir",
    "inode",
    "kibibytes",
    "dereference",
    "numeric-uid-gid",
    "literal",
    "hide-control-chars",
    "show-control-chars",
    "quote-name",
    "recursive",
    "reverse",
    "size",
    "zero",
    "context",
  ],
  longArgs: {
    "block-size": "data",
    format: "data",
    hide: "data",
    ignore: "data",
    "indicator-style": "data",
    "quoting-style": "data",
    sort: "data",
    time: "data",
    "time-style": "data",
    tabsize: "data",
    width: "data",
  },
  longOptional: { color: "data", colour: "data", classify: "data", hyperlink: "data" },
  optionsHarmless: true,
};

const CAT: OptionSpec = {
  optionsHarmless: true,
  flags: "AbeEnstTuv",
  long: [
    ...HELP,
    "show-all",
    "number-nonblank",
    "show-ends",
    "number",
    "squeeze-blank",
    "show-tabs",
    "show-nonprinting",
  ],
};

const HEAD: OptionSpec = {
  optionsHarmless: true,
  flags: "qvz",
  shortArgs: { c: "data", n: "data" },
  long: [...HELP, "quiet", "silent", "verbose", "zero-terminated"],
  longArgs: { bytes: "data", lines: "data" },
  numeric: true,
};

const TAIL: OptionSpec = {
  flags: "fFqvzr",
  shortArgs: { c: "data", n: "data", s: "data" },
  long: [...HELP, "retry", "quiet", "silent", "verbose", "zero-terminated"],
  longArgs: { bytes: "data", lines: "data", pid: "data", "sleep-interval": "data", "max-unchanged-stats": "data" },
  longOptional: { follow: "data" },
  numeric: true,
};

const WC: OptionSpec = {
  flags: "clmwL",
  long: [...HELP, "bytes", "chars", "lines", "words", "max-line-length"],
  longArgs: { "files0-from": "content" },
  longOptional: { total: "data" },
};

const CUT: OptionSpec = {
  flags: "snzw",
  shortArgs: { b: "data", c: "data", d: "data", f: "data" },
  long: [...HELP, "complement", "only-delimited", "zero-terminated"],
  longArgs: { bytes: "data", characters: "data", delimiter: "data", fields: "data", "output-delimiter": "data" },
};

const TR: OptionSpec = {
  flags: "cCdst",
  long: [...HELP, "complement", "delete", "squeeze-repeats", "truncate-set1"],
  optionsHarmless: true,
};

const NL: OptionSpec = {
  flags: "p",
  shortArgs: {
    b: "data",
    d: "data",
    f: "data",
    h: "data",
    i: "data",
    l: "data",
    n: "data",
    s: "data",
    v: "data",
    w: "data",
  },
  long: [...HELP, "no-renumber"],
  longArgs: {
    "body-numbering": "data",
    "section-delimiter": "data",
    "footer-numbering": "data",
    "header-numbering": "data",
    "line-increment": "data",
    "join-blank-lines": "data",
    "number-format": "data",
    "number-separator": "data",
    "starting-line-number": "data",
    "number-width": "data",
  },
};

const SORT: OptionSpec = {
  flags: "bcCdfghiMmnrRsuVz",
  shortArgs: { k: "data", t: "data", S: "data", T: "write", o: "write" },
  long: [
    ...HELP,
    "ignore-leading-blanks",
    "dictionary-order",
    "ignore-case",
    "general-numeric-sort",
    "ignore-nonprinting",
    "month-sort",
    "human-numeric-sort",
    "numeric-sort",
    "random-sort",
    "reverse",
    "version-sort",
    "merge",
    "stable",
    "unique",
    "zero-terminated",
    "debug",
  ],
  longArgs: {
    key: "data",
    "field-separator": "data",
    "buffer-size": "data",
    "temporary-directory": "write",
    output: "write",
    parallel: "data",
    "files0-from": "content",
    "random-source": "content",
    sort: "data",
  },
  longOptional: { check: "data" },
  dangerous: { "--compress-program": "runs a program to compress temporary files" },
};

const DIFF: OptionSpec = {
  flags: "abBcdeEfHilnNpPqrsStTuwyZ",
  shortArgs: {
    C: "data",
    U: "data",
    D: "data",
    F: "data",
    I: "data",
    x: "data",
    X: "content",
    L: "data",
    W: "data",
    S: "data",
  },
  long: [
    ...HELP,
    "text",
    "ignore-all-space",
    "ignore-space-change",
    "ignore-blank-lines",
    "ignore-case",
    "ignore-tab-expansion",
    "ignore-trailing-space",
    "strip-trailing-cr",
    "minimal",
    "speed-large-files",
    "brief",
    "report-identical-files",
    "recursive",
    "new-file",
    "unidirectional-new-file",
    "side-by-side",
    "suppress-common-lines",
    "left-column",
    "expand-tabs",
    "initial-tab",
    "show-c-function",
    "normal",
    "ed",
    "rcs",
    "suppress-blank-empty",
    "no-dereference",
    "paginate",
    "no-ignore-file-name-case",
    "ignore-file-name-case",
  ],
  longArgs: {
    label: "data",
    "ignore-matching-lines": "data",
    exclude: "data",
    "exclude-from": "content",
    "starting-file": "data",
    "from-file": "content",
    "to-file": "content",
    width: "data",
    tabsize: "data",
    "line-format": "data",
    "old-line-format": "data",
    "new-line-format": "data",
    "unchanged-line-format": "data",
    "old-group-format": "data",
    "new-group-format": "data",
    "changed-group-format": "data",
    "unchanged-group-format": "data",
    "horizon-lines": "data",
    ifdef: "data",
    "show-function-line": "data",
    palette: "data",
  },
  longOptional: { context: "data", unified: "data", color: "data" },
};

const CMP: OptionSpec = {
  flags: "blsv",
  shortArgs: { i: "data", n: "data" },
  long: [...HELP, "print-bytes", "verbose", "quiet", "silent"],
  longArgs: { "ignore-initial": "data", bytes: "data" },
};

const FILE: OptionSpec = {
  flags: "bcdEhiklLNnprsvz0S",
  shortArgs: { e: "data", F: "data", P: "data", f: "content", m: "content-list" },
  long: [
    ...HELP,
    "brief",
    "debug",
    "keep-going",
    "list",
    "dereference",
    "no-dereference",
    "no-pad",
    "no-buffer",
    "preserve-date",
    "raw",
    "special-files",
    "uncompress",
    "uncompress-noreport",
    "print0",
    "no-sandbox",
    "mime",
    "mime-type",
    "mime-encoding",
    "apple",
    "extension",
  ],
  longArgs: {
    exclude: "data",
    "exclude-quiet": "data",
    separator: "data",
    parameter: "data",
    "files-from": "content",
    "magic-file": "content-list",
  },
};

/**
 * `file`: reports the type of each file. `-f F` names the files to examine inside F; a magic file of one's
 * own (`-m`) can print any bytes of the files it examines, so they are then read for their content.
 */
const file: ProgramCheck = (argv, fx) => {
  fx.label("file");
  const { positionals, seen } = parseArgs(argv, 1, FILE, fx, "file");
  const custom = seen.has("-m") || seen.has("--magic-file");
  if (seen.has("-f") || seen.has("--files-from")) readsNamedInside(fx, custom ? "content" : "names");
  for (const p of positionals) readPositional(p, custom ? "content" : "names", fx);
};

const STAT: OptionSpec = {
  flags: "LftZ",
  shortArgs: { c: "data" },
  long: [...HELP, "dereference", "file-system", "terse"],
  longArgs: { format: "data", printf: "data" },
  longOptional: { cached: "data" },
};

const DU: OptionSpec = {
  flags: "0abcDhHklLmPsSx",
  shortArgs: { B: "data", d: "data", t: "data", X: "content" },
  long: [
    ...HELP,
    "null",
    "all",
    "apparent-size",
    "bytes",
    "total",
    "dereference-args",
    "human-readable",
    "inodes",
    "dereference",
    "count-links",
    "no-dereference",
    "separate-dirs",
    "si",
    "summarize",
    "one-file-system",
  ],
  longArgs: {
    "block-size": "data",
    "max-depth": "data",
    threshold: "data",
    "exclude-from": "content",
    exclude: "data",
    "time-style": "data",
    "files0-from": "content",
  },
  longOptional: { time: "data" },
};

const DF: OptionSpec = {
  flags: "ahHiklPTtvx",
  shortArgs: { B: "data", t: "data", x: "data" },
  long: [
    ...HELP,
    "all",
    "human-readable",
    "inodes",
    "local",
    "no-sync",
    "portability",
    "print-type",
    "sync",
    "total",
    "si",
  ],
  longArgs: { "block-size": "data", type: "data", "exclude-type": "data" },
  longOptional: { output: "data" },
  optionsHarmless: true,
};

const REALPATH: OptionSpec = {
  flags: "eELmPqsz",
  long: [
    ...HELP,
    "canonicalize-existing",
    "canonicalize-missing",
    "logical",
    "physical",
    "quiet",
    "strip",
    "no-symlinks",
    "zero",
  ],
  longArgs: { "relative-to": "names", "relative-base": "names" },
};
const READLINK: OptionSpec = {
  flags: "efmnqsvz",
  long: [
    ...HELP,
    "canonicalize",
    "canonicalize-existing",
    "canonicalize-missing",
    "no-newline",
    "quiet",
    "silent",
    "verbose",
    "zero",
  ],
};
const BASENAME: OptionSpec = {
  flags: "az",
  shortArgs: { s: "data" },
  long: [...HELP, "multiple", "zero"],
  longArgs: { suffix: "data" },
  optionsHarmless: true,
};
const DIRNAME: OptionSpec = { flags: "z", long: [...HELP, "zero"], optionsHarmless: true };

const TREE: OptionSpec = {
  flags: "adlfxqNQpugshDFvtcUrSinCXJA",
  shortArgs: { L: "data", P: "data", I: "data", H: "data", T: "data", o: "write" },
  long: [
    ...HELP,
    "gitignore",
    "ignore-case",
    "matchdirs",
    "metafirst",
    "prune",
    "info",
    "noreport",
    "si",
    "du",
    "inodes",
    "device",
    "dirsfirst",
    "filesfirst",
    "nolinks",
    "fflinks",
    "fromfile",
    "fromtabfile",
  ],
  longArgs: {
    charset: "data",
    filelimit: "data",
    timefmt: "data",
    sort: "data",
    infofile: "content",
    hintro: "content",
    houtro: "content",
    gitfile: "content",
  },
  dangerous: { "-R": "writes a 00Tree.html file into every directory it lists" },
};

/**
 * `tree`: lists names, except that `--fromfile` prints the paths listed inside its files (their content)
 * and `--info` prints the comments of the `.info` files found in every directory it lists.
 */
const tree: ProgramCheck = (argv, fx) => {
  fx.label("tree");
  const { positionals, seen } = parseArgs(argv, 1, TREE, fx, "tree");
  const fromFile = seen.has("--fromfile") || seen.has("--fromtabfile");
  const dirs = positionals.length > 0 || fromFile ? positionals : [literalWord(".")];
  for (const p of dirs)
    if (fromFile) readPositional(p, "content", fx);
    else if (seen.has("--info")) fx.read(p, "content");
    else readPositional(p, "names", fx);
};

const SUMS: OptionSpec = {
  flags: "bLtz",
  long: [...HELP, "binary", "text", "tag", "zero", "ignore-missing", "quiet", "status", "strict", "warn"],
  longArgs: { length: "data" },
  shortArgs: { l: "data" },
};

const SIMPLE_TEXT: OptionSpec = { flags: "", long: HELP };

const PRINT_ONLY = (flags: string, long: readonly string[] = []): OptionSpec => ({
  flags,
  long: [...HELP, ...long],
  optionsHarmless: true,
});

/** Programs that only print; any positional makes them not read-only (e.g. `hostname NAME` sets it). */
function printer(program: string, spec: OptionSpec, positionals: "none" | "data"): ProgramCheck {
  return (argv, fx) => {
    fx.label(program);
    const { positionals: rest } = parseArgs(argv, 1, spec, fx, program);
    if (positionals === "none" && rest.length > 0) fx.notReadOnly(`\`${program}\` with arguments may change settings`);
  };
}

/** `uniq [IN [OUT]]`: the second file is written. */
const uniq: ProgramCheck = (argv, fx) => {
  fx.label("uniq");
  const { positionals } = parseArgs(
    argv,
    1,
    {
      flags: "cdDiuz",
      shortArgs: { f: "data", s: "data", w: "data" },
      long: [...HELP, "count", "repeated", "unique", "ignore-case", "zero-terminated"],
      longArgs: { "skip-fields": "data", "skip-chars": "data", "check-chars": "data" },
      longOptional: { "all-repeated": "data", group: "data" },
    },
    fx,
    "uniq",
  );
  if (positionals[0]) readPositional(positionals[0], "content", fx);
  if (positionals[1]) fx.write(positionals[1]);
  if (positionals.length > 2) fx.notReadOnly("`uniq` takes at most two files");
};

const cmp: ProgramCheck = (argv, fx) => {
  fx.label("cmp");
  const { positionals } = parseArgs(argv, 1, CMP, fx, "cmp");
  positionals.slice(0, 2).forEach((p) => readPositional(p, "content", fx));
};

const tee: ProgramCheck = (argv, fx) => {
  fx.label("tee");
  const { positionals } = parseArgs(
    argv,
    1,
    { flags: "aip", long: [...HELP, "append", "ignore-interrupts"], longOptional: { "output-error": "data" } },
    fx,
    "tee",
  );
  for (const p of positionals) if (!(p.literal && p.value === "-")) fx.write(p);
};

const SUMS_ALL: OptionSpec = { ...SUMS, flags: "bctwz", long: [...(SUMS.long ?? []), "check"] };
const sums =
  (name: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(name);
    const { positionals, seen } = parseArgs(argv, 1, SUMS_ALL, fx, name);
    // `--check` reads the files named inside a list: names the gate cannot see.
    if (seen.has("-c") || seen.has("--check")) {
      fx.notReadOnly(`\`${name} --check\` reads files named inside another file`);
      readsNamedInside(fx, "content");
    }
    for (const p of positionals) readPositional(p, "content", fx);
  };

/** Printers of text or of facts about the system: nothing read, nothing written. */
const echo: ProgramCheck = (_argv, fx) => fx.label("echo");

/** `printf -v NAME` assigns (an array index in NAME runs commands); the format must be plain text. */
const printf: ProgramCheck = (argv, fx) => {
  fx.label("printf");
  let i = 1;
  if (argv[i]?.literal && argv[i]!.value === "--") i++;
  const format = argv[i];
  if (!format) return;
  if (!format.literal) {
    // It could be `-v`: then the next word names the variable, and an indexed name runs its index.
    const next = argv[i + 1];
    if (next && (!next.literal || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(next.value)))
      unknown(fx, "`printf` gets a format computed at run time that could be `-v` before an indexed name");
    else fx.dangerous("`printf` gets a format computed at run time (it could be `-v`, which assigns variables)");
  } else if (format.value.startsWith("-v")) {
    // `printf -v NAME` (or `-vNAME`): a plain name is an assignment; an indexed one evaluates its index (runs
    // commands).
    const target = format.value === "-v" ? argv[i + 1] : sliceWord(format, 2);
    if (!target?.literal || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(target.value))
      unknown(fx, "`printf -v` assigns a variable named at run time or with an index evaluated as arithmetic");
    else {
      fx.notReadOnly("`printf -v` assigns a variable");
      fx.assign(target.value, { ...target, literal: false, value: "\u0000" });
    }
  } else if (format.value.startsWith("-") && format.value !== "-")
    fx.dangerous(`\`printf ${format.value}\` can assign variables`);
};

/** `date` prints; `-s`/`--set` and a positional that is not `+FORMAT` set the clock. */
const date: ProgramCheck = (argv, fx) => {
  fx.label("date");
  const { positionals } = parseArgs(
    argv,
    1,
    {
      flags: "uR",
      shortArgs: { d: "data", f: "content", r: "names" },
      long: [...HELP, "debug", "rfc-email", "utc", "universal", "resolution"],
      longArgs: { date: "data", file: "content", reference: "names", "rfc-3339": "data" },
      longOptional: { "iso-8601": "data" },
    },
    fx,
    "date",
  );
  for (const p of positionals)
    if (!p.value.startsWith("+")) fx.notReadOnly("`date` with a date argument sets the clock");
};

/**
 * `test`/`[`: `-v NAME`/`-R NAME` evaluate an array index in NAME (`a[$(cmd)]` runs cmd). Unsafe when such
 * an operator is present, or a value computed at run time could become one, while some other argument
 * could be an indexed name.
 */
const test =
  (name: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(name);
    const args = argv.slice(1, name === "[" && argv[argv.length - 1]?.value === "]" ? -1 : undefined);
    if (args.some((w) => w.splits))
      return unknown(fx, `an unquoted expansion in \`${name}\` could become an operator that runs commands`);
    const operator = args.some((w) => w.literal && (w.value === "-v" || w.value === "-R"));
    const suspicious = args.filter((w) => !w.literal || w.value.includes("[")).length;
    const computed = args.some((w) => !w.literal);
    if ((operator && suspicious >= 1) || (computed && suspicious >= 2))
      unknown(fx, `\`${name} -v\` evaluates an array index, which can run commands`);
  };

/** File-changing programs: never vouched for (they need an allow rule), but their paths are still checked. */
function writer(
  program: string,
  spec: OptionSpec,
  layout: "all-write" | "last-write" | "mode-then-write",
  sources: Role = "content",
): ProgramCheck {
  return (argv, fx) => {
    fx.label(program);
    fx.notReadOnly(`\`${program}\` changes files`);
    const { positionals, seen } = parseArgs(argv, 1, spec, fx, program);
    const targetDir = seen.has("-t") || seen.has("--target-directory");
    positionals.forEach((p, i) => {
      if (layout === "mode-then-write" && i === 0 && !seen.has("--reference")) return;
      if (layout === "last-write" && (targetDir || i < positionals.length - 1)) readPositional(p, sources, fx);
      else fx.write(p);
    });
    if (program === "cp" || program === "mv") landing(program, positionals, seen, fx);
    // A move out of the workspace takes the files away from it: a deletion (an overwrite inside is not).
    const dest = seen.valueOf("-t") ?? seen.valueOf("--target-directory") ?? positionals[positionals.length - 1];
    if (program === "mv" && dest && (targetDir || positionals.length > 1)) fx.movesTo(dest);
  };
}

/**
 * Where `cp` and `mv` put their sources: into the destination when it is a directory (`cp x .vscode/`,
 * `mv a/.vscode .`), which the words alone cannot tell, so `DEST/NAME` is checked as a write too (it only
 * adds asks where that name is protected). A tree copied (`cp -r`, `-a`) or moved whole is a `copy-tree`
 * read: a protected path inside it is planted wherever it lands.
 */
function landing(program: string, positionals: readonly Word[], seen: Seen, fx: Effects): void {
  let dest = seen.valueOf("-t") ?? seen.valueOf("--target-directory");
  const sources = dest ? positionals : positionals.slice(0, -1);
  dest ??= positionals[positionals.length - 1];
  const tree = program === "mv" || ["-r", "-R", "-a", "--recursive", "--archive"].some((f) => seen.has(f));
  for (const src of sources) {
    if (tree) fx.read(src, "copy-tree");
    if (!dest || !src.literal || !dest.literal || seen.has("-T") || seen.has("--no-target-directory")) continue;
    const name = src.value.replace(/\/+$/, "").split("/").pop() ?? "";
    if (name === "" || name === "." || name === "..") continue;
    fx.write({ ...dest, value: `${dest.value.replace(/\/+$/, "")}/${name}` });
  }
}

/**
 * A link is a new name for its target: what is read through it later in the line (`ln -s .env x && cat x`) was
 * never checked under its real name. So each target is checked as a recursive content read, like the file
 * tools' reads of it. A relative symbolic target resolves from the link's directory, not the working
 * directory: where the two may differ (the link is named with a `/`, or goes into a directory), the line asks.
 */
const ln: ProgramCheck = (argv, fx) => {
  fx.label("ln");
  fx.notReadOnly("`ln` changes files");
  const { positionals, seen } = parseArgs(argv, 1, LN, fx, "ln");
  const targetDir = seen.has("-t") || seen.has("--target-directory");
  const targets = targetDir || positionals.length === 1 ? positionals : positionals.slice(0, -1);
  const link = targetDir || positionals.length === 1 ? undefined : positionals[positionals.length - 1];
  const elsewhere = targetDir || positionals.length > 2 || (link !== undefined && link.value.includes("/"));
  for (const t of targets) {
    if (elsewhere && !t.value.startsWith("/")) {
      // Not modelled (where the link points is decided by the kernel), so a hard ask in every mode.
      const why = "`ln` with a relative target and a link in another folder: the target resolves from that folder";
      fx.unknown(why);
    } else if (!(t.literal && t.value === "-")) fx.read(t, "content");
  }
  if (link) fx.write(link);
};

const CP: OptionSpec = {
  flags: "abdfHilLnPprRsuvxT",
  shortArgs: { S: "data", t: "write" },
  long: [
    ...HELP,
    "archive",
    "attributes-only",
    "copy-contents",
    "force",
    "interactive",
    "link",
    "dereference",
    "no-clobber",
    "no-dereference",
    "parents",
    "recursive",
    "remove-destination",
    "strip-trailing-slashes",
    "symbolic-link",
    "no-target-directory",
    "update",
    "verbose",
    "one-file-system",
    "debug",
  ],
  longArgs: { suffix: "data", "target-directory": "write" },
  longOptional: {
    backup: "data",
    preserve: "data",
    "no-preserve": "data",
    reflink: "data",
    sparse: "data",
    context: "data",
  },
};
const MV: OptionSpec = {
  flags: "bfinuvTZ",
  shortArgs: { S: "data", t: "write" },
  long: [
    ...HELP,
    "force",
    "interactive",
    "no-clobber",
    "no-copy",
    "strip-trailing-slashes",
    "no-target-directory",
    "update",
    "verbose",
    "context",
    "exchange",
  ],
  longArgs: { suffix: "data", "target-directory": "write" },
  longOptional: { backup: "data" },
};
const MKDIR: OptionSpec = {
  flags: "pvZ",
  shortArgs: { m: "data" },
  long: [...HELP, "parents", "verbose"],
  longArgs: { mode: "data" },
  longOptional: { context: "data" },
};
const TOUCH: OptionSpec = {
  flags: "acfhm",
  shortArgs: { d: "data", r: "names", t: "data" },
  long: [...HELP, "no-create", "no-dereference"],
  longArgs: { date: "data", reference: "names", time: "data" },
};
const LN: OptionSpec = {
  flags: "bdFfinLPrsTv",
  shortArgs: { S: "data", t: "write" },
  long: [
    ...HELP,
    "directory",
    "force",
    "interactive",
    "logical",
    "no-dereference",
    "physical",
    "relative",
    "symbolic",
    "no-target-directory",
    "verbose",
  ],
  longArgs: { suffix: "data", "target-directory": "write" },
  longOptional: { backup: "data" },
};
const CHMOD: OptionSpec = {
  flags: "cfvR",
  long: [
    ...HELP,
    "changes",
    "silent",
    "quiet",
    "verbose",
    "no-preserve-root",
    "preserve-root",
    "recursive",
    "dereference",
    "no-dereference",
  ],
  longArgs: { reference: "names", from: "data" },
};
const RM: OptionSpec = {
  flags: "dfiIrRv",
  long: [...HELP, "force", "dir", "recursive", "verbose", "one-file-system", "no-preserve-root", "preserve-root"],
  longOptional: { interactive: "data", "preserve-root": "data" },
};

/** Deleting programs: every path is a write, and the command deletes. */
function deleter(program: string, spec: OptionSpec): ProgramCheck {
  return (argv, fx) => {
    fx.label(program);
    fx.deletes(`\`${program}\` deletes files`);
    const { positionals } = parseArgs(argv, 1, spec, fx, program);
    for (const p of positionals) fx.write(p);
  };
}

/**
 * `rename` is two programs: util-linux's (`rename FROM TO FILES`) and Perl's (`rename EXPR FILES`, which
 * evaluates EXPR as Perl). Either way the new names are computed when it runs, and may leave the workspace.
 */
const rename: ProgramCheck = (_argv, fx) => {
  fx.label("rename");
  unknown(fx, "`rename` computes new names when it runs (Perl's `rename` evaluates its first argument as code)");
};

export const BASIC: Readonly<Record<string, ProgramCheck>> = {
  ls: reader("ls", LS, "names", true),
  dir: reader("dir", LS, "names", true),
  cat: reader("cat", CAT, "content"),
  tac: reader(
    "tac",
    { flags: "br", shortArgs: { s: "data" }, long: [...HELP, "before", "regex"], longArgs: { separator: "data" } },
    "content",
  ),
  rev: reader("rev", SIMPLE_TEXT, "content"),
  head: reader("head", HEAD, "content"),
  tail: reader("tail", TAIL, "content"),
  wc: reader("wc", WC, "content", false, ["--files0-from"]),
  cut: reader("cut", CUT, "content"),
  tr: reader("tr", TR, "data"),
  nl: reader("nl", NL, "content"),
  sort: reader("sort", SORT, "content", false, ["--files0-from"]),
  uniq,
  diff: (argv, fx) => {
    // `diff -r` reads directories recursively: its paths are content reads of everything below.
    fx.label("diff");
    const { positionals } = parseArgs(argv, 1, DIFF, fx, "diff");
    for (const p of positionals) if (!(p.literal && p.value === "-")) fx.read(p, "content");
  },
  cmp,
  file,
  stat: reader("stat", STAT, "names"),
  du: reader("du", DU, "names", true, ["--files0-from"]),
  df: reader("df", DF, "names"),
  realpath: reader("realpath", REALPATH, "names"),
  readlink: reader("readlink", READLINK, "names"),
  basename: reader("basename", BASENAME, "data"),
  dirname: reader("dirname", DIRNAME, "data"),
  tree,
  md5sum: sums("md5sum"),
  sha1sum: sums("sha1sum"),
  sha256sum: sums("sha256sum"),
  sha512sum: sums("sha512sum"),
  b2sum: sums("b2sum"),
  paste: reader(
    "paste",
    {
      flags: "sz",
      shortArgs: { d: "data" },
      long: [...HELP, "serial", "zero-terminated"],
      longArgs: { delimiters: "data" },
    },
    "content",
  ),
  column: reader(
    "column",
    {
      flags: "tnexJLR",
      shortArgs: {
        s: "data",
        o: "data",
        c: "data",
        N: "data",
        l: "data",
        H: "data",
        O: "data",
        E: "data",
        W: "data",
        d: "data",
        r: "data",
        T: "data",
      },
      long: [...HELP, "table", "json", "keep-empty-lines", "fillrows", "use-spaces"],
      longArgs: {
        separator: "data",
        "output-separator": "data",
        "output-width": "data",
        "table-columns": "data",
        "table-name": "data",
        "table-order": "data",
        "table-right": "data",
        "table-truncate": "data",
        "table-noextreme": "data",
        "table-noheadings": "data",
        "table-wrap": "data",
        "table-hide": "data",
        "table-columns-limit": "data",
      },
    },
    "content",
  ),
  fold: reader(
    "fold",
    { flags: "bs", shortArgs: { w: "data" }, long: [...HELP, "bytes", "spaces"], longArgs: { width: "data" } },
    "content",
  ),
  comm: reader(
    "comm",
    {
      flags: "123iz",
      long: [...HELP, "check-order", "nocheck-order", "total", "zero-terminated"],
      longArgs: { "output-delimiter": "data" },
    },
    "content",
  ),
  expand: reader(
    "expand",
    { flags: "i", shortArgs: { t: "data" }, long: [...HELP, "initial"], longArgs: { tabs: "data" }, numeric: true },
    "content",
  ),
  seq: reader(
    "seq",
    {
      flags: "w",
      shortArgs: { f: "data", s: "data" },
      long: [...HELP, "equal-width"],
      longArgs: { format: "data", separator: "data" },
      optionsHarmless: true,
    },
    "data",
  ),
  sleep: reader("sleep", { ...SIMPLE_TEXT, optionsHarmless: true }, "data"),
  echo,
  printf,
  date,
  test: test("test"),
  "[": test("["),
  true: echo,
  false: echo,
  ":": echo,
  pwd: printer("pwd", PRINT_ONLY("LP"), "none"),
  whoami: printer("whoami", PRINT_ONLY(""), "none"),
  id: printer("id", PRINT_ONLY("agGnruzZ", ["group", "groups", "name", "real", "user", "zero", "context"]), "data"),
  groups: printer("groups", PRINT_ONLY(""), "data"),
  uname: printer(
    "uname",
    PRINT_ONLY("asnrvmpio", [
      "all",
      "kernel-name",
      "nodename",
      "kernel-release",
      "kernel-version",
      "machine",
      "processor",
      "hardware-platform",
      "operating-system",
    ]),
    "none",
  ),
  hostname: printer(
    "hostname",
    PRINT_ONLY("sfidAI", ["short", "fqdn", "long", "ip-address", "all-ip-addresses", "all-fqdns", "domain"]),
    "none",
  ),
  nproc: printer("nproc", { ...PRINT_ONLY("", ["all"]), longArgs: { ignore: "data" } }, "none"),
  uptime: printer("uptime", PRINT_ONLY("ps", ["pretty", "since"]), "none"),
  tty: printer("tty", PRINT_ONLY("s", ["silent", "quiet"]), "none"),
  arch: printer("arch", PRINT_ONLY(""), "none"),
  locale: printer(
    "locale",
    PRINT_ONLY("amkcv", ["all-locales", "charmaps", "keyword-name", "category-name", "verbose"]),
    "data",
  ),
  printenv: printer("printenv", PRINT_ONLY("0", ["null"]), "data"),
  which: printer(
    "which",
    PRINT_ONLY("as", [
      "all",
      "skip-alias",
      "skip-functions",
      "skip-dot",
      "skip-tilde",
      "show-dot",
      "show-tilde",
      "read-alias",
      "read-functions",
    ]),
    "data",
  ),
  whereis: printer("whereis", PRINT_ONLY("bmsul"), "data"),
  type: printer("type", PRINT_ONLY("afptP"), "data"),
  tee,
  cp: writer("cp", CP, "last-write"),
  mv: writer("mv", MV, "all-write"),
  mkdir: writer("mkdir", MKDIR, "all-write"),
  touch: writer("touch", TOUCH, "all-write"),
  ln,
  chmod: writer("chmod", CHMOD, "mode-then-write"),
  chown: writer("chown", CHMOD, "mode-then-write"),
  chgrp: writer("chgrp", CHMOD, "mode-then-write"),
  rename,
  rm: deleter("rm", RM),
  rmdir: deleter("rmdir", { flags: "pv", long: [...HELP, "ignore-fail-on-non-empty", "parents", "verbose"] }),
  unlink: deleter("unlink", SIMPLE_TEXT),
  // `shred` overwrites its files' data in place: data loss even without `-u`.
  shred: deleter("shred", {
    flags: "fuvxz",
    shortArgs: { n: "data", s: "data" },
    long: [...HELP, "force", "verbose", "exact", "zero"],
    longArgs: { iterations: "data", "random-source": "content", size: "data" },
    longOptional: { remove: "data" },
  }),
};
