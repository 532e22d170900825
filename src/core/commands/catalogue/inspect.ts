/**
 * Read-only inspectors and text filters (dumps, encodings, numbers, processes): each reads the files it is
 * named (content reads through the path gate) or treats its words as data, and writes only where an option
 * says so (`shuf -o`, `iconv -o`, `xxd IN OUT`). Option tables follow `--help` of the programs installed here
 * (GNU coreutils 9, util-linux, binutils, glibc iconv, procps, xxd 2022).
 */
import { unknownWord } from "../model";
import type { ProgramCheck } from "./effects";
import { parseArgs, parseWords, type ArgKind, type OptionSpec, type WordOptionSpec } from "./options";
import { reader } from "./basic";

const HELP = ["help", "version"];

const OD: OptionSpec = {
  flags: "abcdfilosxv",
  shortArgs: { A: "data", j: "data", N: "data", t: "data", S: "data" },
  shortOptional: { w: "data" },
  long: [...HELP, "output-duplicates", "traditional"],
  longArgs: { "address-radix": "data", "skip-bytes": "data", "read-bytes": "data", format: "data", endian: "data" },
  longOptional: { strings: "data", width: "data" },
};

const HEXDUMP: OptionSpec = {
  flags: "bcCdoxvhV",
  shortArgs: { e: "data", f: "content", n: "data", s: "data" },
  shortOptional: { L: "data" },
  long: [
    ...HELP,
    "one-byte-octal",
    "one-byte-char",
    "canonical",
    "two-bytes-decimal",
    "two-bytes-octal",
    "two-bytes-hex",
    "no-squeezing",
  ],
  longArgs: { format: "data", "format-file": "content", length: "data", skip: "data" },
  longOptional: { color: "data" },
};

/** binutils strings: `-NUM` is `-n NUM`; `-T` names a BFD target (data). */
const STRINGS: OptionSpec = {
  flags: "adfwohvV",
  shortArgs: { n: "data", t: "data", T: "data", e: "data", U: "data", s: "data" },
  long: [...HELP, "all", "data", "print-file-name", "include-all-whitespace"],
  longArgs: {
    bytes: "data",
    radix: "data",
    target: "data",
    encoding: "data",
    unicode: "data",
    "output-separator": "data",
  },
  numeric: true,
};

const BASE64: OptionSpec = {
  flags: "di",
  shortArgs: { w: "data" },
  long: [...HELP, "decode", "ignore-garbage"],
  longArgs: { wrap: "data" },
};

const CKSUM: OptionSpec = {
  flags: "zw",
  shortArgs: { a: "data", l: "data" },
  long: [
    ...HELP,
    "check",
    "tag",
    "untagged",
    "zero",
    "ignore-missing",
    "quiet",
    "status",
    "strict",
    "warn",
    "debug",
    "base64",
    "raw",
  ],
  longArgs: { algorithm: "data", length: "data" },
};

const SHUF: OptionSpec = {
  flags: "erz",
  shortArgs: { i: "data", n: "data", o: "write" },
  long: [...HELP, "echo", "repeat", "zero-terminated"],
  longArgs: { "input-range": "data", "head-count": "data", output: "write", "random-source": "content" },
};

const JOIN: OptionSpec = {
  flags: "iz",
  shortArgs: { a: "data", e: "data", j: "data", o: "data", t: "data", v: "data", "1": "data", "2": "data" },
  long: [...HELP, "ignore-case", "check-order", "nocheck-order", "header", "zero-terminated"],
};

const FMT: OptionSpec = {
  flags: "cstu",
  shortArgs: { p: "data", w: "data", g: "data" },
  long: [...HELP, "crown-margin", "split-only", "tagged-paragraph", "uniform-spacing"],
  longArgs: { prefix: "data", width: "data", goal: "data" },
  numeric: true,
};

const PR: OptionSpec = {
  flags: "acdFfJmrtTv",
  shortArgs: { D: "data", h: "data", l: "data", N: "data", o: "data", w: "data", W: "data" },
  shortOptional: { e: "data", i: "data", n: "data", s: "data", S: "data" },
  long: [
    ...HELP,
    "across",
    "show-control-chars",
    "double-space",
    "form-feed",
    "join-lines",
    "merge",
    "no-file-warnings",
    "omit-header",
    "omit-pagination",
    "show-nonprinting",
  ],
  longArgs: {
    pages: "data",
    columns: "data",
    "date-format": "data",
    header: "data",
    length: "data",
    "first-line-number": "data",
    indent: "data",
    width: "data",
    "page-width": "data",
  },
  longOptional: {
    "expand-tabs": "data",
    "output-tabs": "data",
    "number-lines": "data",
    separator: "data",
    "sep-string": "data",
  },
  numeric: true,
};

/** glibc iconv (argp: long options abbreviate). `-o` writes; `-l` lists character sets. */
const ICONV: OptionSpec = {
  flags: "lcsV",
  shortArgs: { f: "data", t: "data", o: "write" },
  long: [...HELP, "list", "silent", "verbose", "usage"],
  longArgs: { "from-code": "data", "to-code": "data", output: "write" },
};

const NUMFMT: OptionSpec = {
  flags: "z",
  shortArgs: { d: "data" },
  long: [...HELP, "debug", "grouping", "zero-terminated"],
  longArgs: {
    delimiter: "data",
    field: "data",
    format: "data",
    from: "data",
    "from-unit": "data",
    invalid: "data",
    padding: "data",
    round: "data",
    suffix: "data",
    to: "data",
    "to-unit": "data",
  },
  longOptional: { header: "data" },
  optionsHarmless: true,
};

const FREE: OptionSpec = {
  flags: "bkmghltvwV",
  shortArgs: { s: "data", c: "data" },
  long: [
    ...HELP,
    "bytes",
    "kilo",
    "mega",
    "giga",
    "tera",
    "peta",
    "kibi",
    "mebi",
    "gibi",
    "tebi",
    "pebi",
    "human",
    "si",
    "lohi",
    "total",
    "committed",
    "wide",
  ],
  longArgs: { seconds: "data", count: "data" },
  optionsHarmless: true,
};

/** `shuf -e` shuffles its words; otherwise its one positional is a file read. */
const shuf: ProgramCheck = (argv, fx) => {
  fx.label("shuf");
  const { positionals, seen } = parseArgs(argv, 1, SHUF, fx, "shuf");
  if (seen.has("-e") || seen.has("--echo") || seen.has("-i") || seen.has("--input-range")) return;
  for (const p of positionals) if (!(p.literal && p.value === "-")) fx.read(p, "file-content");
};

/** `cksum -c` reads the files named inside its list, which the gate cannot see. */
const cksum: ProgramCheck = (argv, fx) => {
  fx.label("cksum");
  const { positionals, seen } = parseArgs(argv, 1, CKSUM, fx, "cksum");
  if (seen.has("--check")) fx.read(unknownWord(false), "content");
  for (const p of positionals) if (!(p.literal && p.value === "-")) fx.read(p, "file-content");
};

/** Programs whose words are data only: `expr 1 + 2`, `factor 12`. */
function calculator(program: string): ProgramCheck {
  return (argv, fx) => {
    fx.label(program);
    // Every word is an operand (`--help`/`--version` alone only print): nothing is read or written.
    void argv;
  };
}

/**
 * xxd (its own parser, not getopt: `-ps`, `-cols 8`, `-c8` are single options, no clusters). `xxd [IN [OUT]]`:
 * IN is read, OUT written — also with `-r`, which turns a dump back into bytes.
 */
const XXD_VALUE_LETTERS = ["c", "g", "l", "n", "o", "s"];
export const XXD: WordOptionSpec = {
  words: Object.fromEntries([
    ...[
      ...["-a", "-b", "-C", "-E", "-e", "-h", "-i", "-u", "-v", "-d", "-r", "-p"],
      ...["-autoskip", "-bits", "-capitalize", "-EBCDIC", "-include", "-ps", "-postscript", "-plain"],
      ...["-revert", "-version"],
    ].map((o) => [o, []]),
    ...[...XXD_VALUE_LETTERS.map((c) => `-${c}`), "-cols", "-groupsize", "-len", "-name", "-offset", "-seek"].map(
      (o) => [o, ["data"]],
    ),
  ]) as Record<string, readonly ArgKind[]>,
  attached: Object.fromEntries(XXD_VALUE_LETTERS.map((c) => [`-${c}`, /^[+-]?\d+$/])),
  doubleDash: true,
};
const xxd: ProgramCheck = (argv, fx) => {
  fx.label("xxd");
  const files = parseWords(argv, 1, XXD, fx, "xxd").positionals;
  const [input, output, ...extra] = files;
  if (extra.length > 0) fx.dangerous("`xxd` takes at most an input and an output file");
  if (input && !(input.literal && input.value === "-")) fx.read(input, "file-content");
  if (output && !(output.literal && output.value === "-")) fx.write(output);
};

/** ps reads the process table only: no option of procps ps names a file, writes or runs a program. */
const ps: ProgramCheck = (_argv, fx) => fx.label("ps");

/** `iconv -l` lists character sets; otherwise its positionals are files read, `-o` the file written. */
const iconv: ProgramCheck = (argv, fx) => {
  fx.label("iconv");
  const { positionals, seen } = parseArgs(argv, 1, ICONV, fx, "iconv");
  if (seen.has("-l") || seen.has("--list")) return;
  for (const p of positionals) if (!(p.literal && p.value === "-")) fx.read(p, "file-content");
};

export const INSPECT: Readonly<Record<string, ProgramCheck>> = {
  od: reader("od", OD, "content"),
  hexdump: reader("hexdump", HEXDUMP, "content"),
  strings: reader("strings", STRINGS, "content"),
  base64: reader("base64", BASE64, "content"),
  cksum,
  shuf,
  join: reader("join", JOIN, "content"),
  fmt: reader("fmt", FMT, "content"),
  pr: reader("pr", PR, "content"),
  iconv,
  numfmt: reader("numfmt", NUMFMT, "data"),
  free: reader("free", FREE, "data"),
  expr: calculator("expr"),
  factor: calculator("factor"),
  xxd,
  ps,
};
