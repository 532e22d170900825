/**
 * grep and ripgrep: the first positional is the pattern unless one was given with `-e`/`-f`; the rest are
 * files or directories read for their content (`rg` and `grep -r` default to the working directory).
 * ripgrep's `--pre` and `--hostname-bin` run programs.
 */
import type { Effects, ProgramCheck } from "./effects";
import { parseArgs, sliceWord, type OptionSpec, type Seen } from "./options";
import { literalWord, type Word } from "../model";
import { readFilter, type ReadFilter } from "../../readFilter";

const HELP = ["help", "version"];

const GREP: OptionSpec = {
  flags: "abcEFGHhIiLlnoPqRrsTUuVvwxyZz",
  shortArgs: { A: "data", B: "data", C: "data", D: "data", d: "data", e: "data", f: "content", m: "data" },
  long: [
    ...HELP,
    "extended-regexp",
    "fixed-strings",
    "basic-regexp",
    "perl-regexp",
    "ignore-case",
    "no-ignore-case",
    "word-regexp",
    "line-regexp",
    "null-data",
    "no-messages",
    "invert-match",
    "byte-offset",
    "line-number",
    "no-line-number",
    "with-filename",
    "no-filename",
    "only-matching",
    "quiet",
    "silent",
    "recursive",
    "dereference-recursive",
    "text",
    "count",
    "files-with-matches",
    "files-without-match",
    "initial-tab",
    "null",
    "line-buffered",
    "unix-byte-offsets",
  ],
  longArgs: {
    regexp: "data",
    file: "content",
    "after-context": "data",
    "before-context": "data",
    context: "data",
    "max-count": "data",
    label: "data",
    "binary-files": "data",
    devices: "data",
    directories: "data",
    include: "data",
    exclude: "data",
    "exclude-dir": "data",
    "exclude-from": "content",
  },
  longOptional: { color: "data", colour: "data" },
  numeric: true,
};

/**
 * `--include=.env` or `-g .env` names a file as a pattern: a pattern that is a plain name is checked like
 * that path (a pattern with wildcards cannot be, like a directory that is searched recursively).
 */
function checkNamePatterns(argv: readonly Word[], options: readonly string[], fx: Effects): void {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    for (const o of options) {
      let value: Word | undefined;
      if (w.value === o) value = argv[i + 1];
      else if (o.startsWith("--") && w.value.startsWith(`${o}=`)) value = sliceWord(w, o.length + 1);
      else if (!o.startsWith("--") && w.value.startsWith(o) && w.value.length > o.length)
        value = sliceWord(w, o.length);
      if (value?.literal && !/[*?[\]{}!]/.test(value.value)) fx.read(value, "names");
    }
  }
}

/**
 * The values of `options` when every use of them took a value the shell passes as written (quoted or plain);
 * otherwise undefined.
 */
function literalValues(seen: Seen, options: readonly string[]): string[] | undefined {
  const uses = seen.all().filter((o) => options.includes(o)).length;
  const values = options.flatMap((o) => seen.valuesOf(o));
  if (values.length !== uses || !values.every((w) => w.literal)) return undefined;
  return values.map((w) => w.value);
}

/**
 * The files below a directory grep reads with `--include`: only those an `--include` glob matches, when the
 * first of `--include`, `--exclude` and `--exclude-from` is an `--include` (GNU grep reads a file no option
 * matches unless the first is an `--include`). Later `--exclude`s only leave more out.
 */
function grepSelection(seen: Seen): ReadFilter | undefined {
  const first = seen.all().find((o) => o === "--include" || o === "--exclude" || o === "--exclude-from");
  if (first !== "--include") return undefined;
  const globs = literalValues(seen, ["--include"]);
  return globs && readFilter(globs);
}

/**
 * The files below a directory ripgrep reads with `-g`/`--glob`/`--iglob`: when one glob is positive, only
 * those a positive glob matches (a `!` glob only leaves more out).
 */
function rgSelection(seen: Seen): ReadFilter | undefined {
  const globs = literalValues(seen, ["-g", "--glob", "--iglob"]);
  return globs && readFilter(globs.filter((g) => !g.startsWith("!")));
}

export const grep =
  (program: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(program);
    checkNamePatterns(argv, ["--include"], fx);
    const { positionals, seen } = parseArgs(argv, 1, GREP, fx, program);
    let files = positionals;
    if (!seen.has("-e") && !seen.has("--regexp") && !seen.has("-f") && !seen.has("--file")) {
      const pattern = positionals[0];
      // A pattern the shell could split or expand would shift which words are files.
      if (pattern?.splits) fx.notReadOnly(`the \`${program}\` pattern may expand into several words`);
      files = positionals.slice(1);
    }
    // `-d ACTION`/`--directories=ACTION` takes abbreviations (`-d rec`): any use of it may mean recursion.
    const recursive =
      seen.has("-r") ||
      seen.has("-R") ||
      seen.has("--recursive") ||
      seen.has("--dereference-recursive") ||
      seen.has("-d") ||
      seen.has("--directories");
    // `-R`/`--dereference-recursive` follow every link; `-r` only links named on the command line (which the
    // path gate resolves anyway).
    const kind = !recursive
      ? "file-content"
      : seen.has("-R") || seen.has("--dereference-recursive")
        ? "content"
        : "content-nofollow";
    const only = recursive ? grepSelection(seen) : undefined;
    if (files.length === 0 && recursive) fx.read(literalWord("."), kind, undefined, only);
    for (const f of files) if (!(f.literal && f.value === "-")) fx.read(f, kind, undefined, only);
  };

const RG_FLAGS = [
  "text",
  "byte-offset",
  "count",
  "count-matches",
  "case-sensitive",
  "column",
  "no-column",
  "crlf",
  "no-crlf",
  "debug",
  "trace",
  "files",
  "files-with-matches",
  "files-without-match",
  "fixed-strings",
  "no-fixed-strings",
  "follow",
  "no-follow",
  "heading",
  "no-heading",
  "hidden",
  "no-hidden",
  "ignore-case",
  "ignore-file-case-insensitive",
  "no-ignore-file-case-insensitive",
  "include-zero",
  "no-include-zero",
  "invert-match",
  "no-invert-match",
  "json",
  "no-json",
  "line-buffered",
  "no-line-buffered",
  "block-buffered",
  "no-block-buffered",
  "line-number",
  "no-line-number",
  "line-regexp",
  "max-columns-preview",
  "no-max-columns-preview",
  "mmap",
  "no-mmap",
  "multiline",
  "no-multiline",
  "multiline-dotall",
  "no-multiline-dotall",
  "no-config",
  "no-ignore",
  "ignore",
  "no-ignore-dot",
  "ignore-dot",
  "no-ignore-exclude",
  "ignore-exclude",
  "no-ignore-files",
  "ignore-files",
  "no-ignore-global",
  "ignore-global",
  "no-ignore-messages",
  "ignore-messages",
  "no-ignore-parent",
  "ignore-parent",
  "no-ignore-vcs",
  "ignore-vcs",
  "no-messages",
  "messages",
  "no-require-git",
  "require-git",
  "no-unicode",
  "unicode",
  "null",
  "null-data",
  "one-file-system",
  "no-one-file-system",
  "only-matching",
  "passthru",
  "pcre2",
  "no-pcre2",
  "pcre2-version",
  "pretty",
  "quiet",
  "search-zip",
  "no-search-zip",
  "smart-case",
  "sort-files",
  "no-sort-files",
  "stats",
  "no-stats",
  "trim",
  "no-trim",
  "type-list",
  "unrestricted",
  "vimgrep",
  "with-filename",
  "no-filename",
  "word-regexp",
  "auto-hybrid-regex",
  "no-auto-hybrid-regex",
  "binary",
  "no-binary",
  "glob-case-insensitive",
  "no-glob-case-insensitive",
  "no-pcre2-unicode",
  "pcre2-unicode",
  "no-context-separator",
  "no-encoding",
  "no-text",
  "no-pre",
  ...HELP,
];

const RG: OptionSpec = {
  flags: "abcFHhiIlLnNopPqsSuUvVwxz0.",
  shortArgs: {
    A: "data",
    B: "data",
    C: "data",
    e: "data",
    E: "data",
    f: "content",
    g: "data",
    j: "data",
    m: "data",
    M: "data",
    r: "data",
    t: "data",
    T: "data",
    d: "data",
  },
  long: RG_FLAGS,
  longArgs: {
    "after-context": "data",
    "before-context": "data",
    context: "data",
    color: "data",
    colors: "data",
    "context-separator": "data",
    "dfa-size-limit": "data",
    encoding: "data",
    engine: "data",
    "field-context-separator": "data",
    "field-match-separator": "data",
    file: "content",
    glob: "data",
    iglob: "data",
    "ignore-file": "content",
    "max-columns": "data",
    "max-count": "data",
    "max-depth": "data",
    maxdepth: "data",
    "max-filesize": "data",
    "path-separator": "data",
    "regex-size-limit": "data",
    regexp: "data",
    replace: "data",
    sort: "data",
    sortr: "data",
    threads: "data",
    type: "data",
    "type-not": "data",
    "type-add": "data",
    "type-clear": "data",
    "hyperlink-format": "data",
    generate: "data",
  },
  dangerous: {
    "--pre": "runs a program on every file it searches",
    "--pre-glob": "selects files for a preprocessor program",
    "--hostname-bin": "runs a program to find the host name",
  },
};

export const rg: ProgramCheck = (argv, fx) => {
  fx.label("rg");
  checkNamePatterns(argv, ["-g", "--glob", "--iglob"], fx);
  const { positionals, seen } = parseArgs(argv, 1, RG, fx, "rg");
  let paths = positionals;
  const patternGiven = ["-e", "--regexp", "-f", "--file", "--files", "--type-list", "--pcre2-version"].some((o) =>
    seen.has(o),
  );
  if (!patternGiven) {
    if (positionals[0]?.splits) fx.notReadOnly("the `rg` pattern may expand into several words");
    paths = positionals.slice(1);
  }
  const kind = seen.has("--files") ? "names" : seen.has("-L") || seen.has("--follow") ? "content" : "content-nofollow";
  const only = rgSelection(seen);
  if (paths.length === 0) fx.read(literalWord("."), kind, undefined, only);
  for (const p of paths) if (!(p.literal && p.value === "-")) fx.read(p, kind, undefined, only);
};
