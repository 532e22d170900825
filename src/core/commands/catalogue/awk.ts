/**
 * awk: the program text is judged by text tests that over-approximate, never by a parse of it (awk's
 * regex-versus-division ambiguity lets a parser and awk disagree about what is a comment, a string or a
 * redirection). Any occurrence of a dangerous name, anywhere (in a string, a regex or a comment too), makes
 * the program dangerous; a `|` or `>` is a pipe or a redirection only inside `print`/`printf`, whose keyword
 * comes first in the text, so one that follows the text `print` is dangerous. Program files (`-f`,
 * `--include`, `--load`...) cannot be checked: dangerous. Any option the table does not know: dangerous.
 */
import type { Word } from "../model";
import type { ProgramCheck } from "./effects";
import { runsCode } from "./effects";
import { parseArgs, type OptionSpec } from "./options";

/** Names that run commands, read files or the environment, change the input files, or load code. */
const DANGEROUS_NAMES: readonly [string, string][] = [
  ["system", "calls `system`, which runs commands"],
  ["getline", "uses `getline`, which reads files or the output of commands"],
  ["close", "closes pipes to or from commands"],
  ["ENVIRON", "reads the environment"],
  ["ARGV", "changes which files it reads (`ARGV`)"],
  ["ARGC", "changes which files it reads (`ARGC`)"],
  ["PROCINFO", "reads or changes interpreter state (`PROCINFO`)"],
  ["SYMTAB", "reaches variables indirectly (`SYMTAB`)"],
  ["FUNCTAB", "calls functions indirectly (`FUNCTAB`)"],
  ["extension", "loads a compiled extension"],
  ["@", "uses a gawk directive or indirect call (`@load`, `@include`, `@f()`)"],
];

/**
 * Why an awk program could do more than read its input files and print, or undefined. Sound by
 * over-approximation: a program this accepts cannot run a command, write or read a file other than its
 * operands, or read the environment, whatever awk takes for strings, regexes or comments.
 */
export function awkProgramProblem(src: string): string | undefined {
  // A backslash-newline joins lines; removing it only makes more names appear.
  const text = src.replace(/\\\r?\n/g, "");
  for (const [name, why] of DANGEROUS_NAMES) if (text.includes(name)) return `the awk program ${why}`;
  const print = text.indexOf("print");
  if (print < 0) return undefined;
  const after = text.slice(print);
  if (after.includes("|")) return "the awk program may pipe output to a command with `|`";
  // `>=` is one token, never a redirection; any other `>` after `print` may be one.
  if (/>(?!=)/.test(after)) return "the awk program may redirect output to a file with `>`";
  return undefined;
}

/** Assignment names (`-v NAME=`, `NAME=value` operands) that are dangerous. */
function assignmentProblem(text: string): string | undefined {
  const eq = text.indexOf("=");
  const name = eq >= 0 ? text.slice(0, eq) : text;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return "an awk assignment has a name Toolgate cannot read";
  for (const [n] of DANGEROUS_NAMES) if (name.includes(n)) return `an awk assignment sets \`${name}\``;
  return undefined;
}

const RUNS_FILE = "runs an awk program Toolgate cannot check";
/**
 * The union of gawk's, mawk's and the one-true-awk's options (gawk reads them with getopt_long: clusters,
 * abbreviations). Options end at the program text (POSIX). Files of awk code (`-f`, `-i`, `-l`, `-E`) are
 * read and cannot be checked: a hard ask. gawk's options that write a file (`-d`, `-D`, `-o`, `-p`) are not
 * in the table, so they are not vouched for.
 */
const AWK: OptionSpec = {
  posix: true,
  flags: "bcCPrnNMOstSVhg",
  shortArgs: { F: "data", v: "data", e: "data", f: "content", i: "content", l: "content", E: "content" },
  long: [
    "sandbox",
    "characters-as-bytes",
    "traditional",
    "posix",
    "re-interval",
    "non-decimal-data",
    "use-lc-numeric",
    "bignum",
    "optimize",
    "no-optimize",
    "version",
    "help",
    "csv",
  ],
  longArgs: {
    source: "data",
    "field-separator": "data",
    assign: "data",
    file: "content",
    include: "content",
    load: "content",
    exec: "content",
  },
  dangerous: {
    "-f": RUNS_FILE,
    "-i": RUNS_FILE,
    "-l": RUNS_FILE,
    "-E": RUNS_FILE,
    "--file": RUNS_FILE,
    "--include": RUNS_FILE,
    "--load": RUNS_FILE,
    "--exec": RUNS_FILE,
  },
  same: { "-e": "--source", "-v": "--assign" },
};

export const awk =
  (program: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(program);
    const assign = (w: Word | undefined): void => {
      if (!w) return;
      const problem = assignmentProblem(w.value);
      if (problem || !w.literal) fx.dangerous(problem ?? "an awk assignment is computed at run time");
    };
    const { positionals, seen } = parseArgs(argv, 1, AWK, fx, program);
    for (const v of seen.valuesOf("--assign")) assign(v);
    const programs: Word[] = [...seen.valuesOf("--source")];
    const fromFile = ["-f", "-i", "-l", "-E", "--file", "--include", "--load", "--exec"].some(
      (o) => seen.valuesOf(o).length > 0,
    );
    const operands = [...positionals];
    if (programs.length === 0 && !fromFile) {
      const p = operands.shift();
      if (p) programs.push(p);
    }
    for (const p of programs) {
      if (!p.literal) {
        runsCode(fx, "the awk program is computed at run time");
        continue;
      }
      const problem = awkProgramProblem(p.value);
      if (problem) runsCode(fx, problem);
    }
    for (const f of operands) {
      // `name=value` operands assign variables; anything else is an input file.
      if (f.literal && /^[A-Za-z_][A-Za-z0-9_]*=/.test(f.value)) {
        assign(f);
        continue;
      }
      if (f.literal && f.value === "-") continue;
      fx.read(f, "content");
    }
  };
