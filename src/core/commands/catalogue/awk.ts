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
import { mayBeOption, sliceWord } from "./options";

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

const AWK_FLAGS = new Set(["b", "c", "C", "P", "r", "n", "N", "M", "O", "s", "t", "S", "V", "h", "g"]);
const AWK_LONG = new Set([
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
]);

export const awk =
  (program: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(program);
    const programs: Word[] = [];
    let fromFile = false;
    const unknown = (v: string): void => fx.dangerous(`\`${v}\` is not an \`${program}\` option Toolgate knows`);
    const assign = (w: Word | undefined): void => {
      if (!w) return;
      const problem = assignmentProblem(w.value);
      if (problem || !w.literal) fx.dangerous(problem ?? "an awk assignment is computed at run time");
    };
    let i = 1;
    for (; i < argv.length; i++) {
      const w = argv[i]!;
      const v = w.value;
      if (!mayBeOption(w) || v === "-") break;
      if (!w.literal) {
        fx.dangerous(`\`${program}\` gets an argument computed at run time that could be any option`);
        continue;
      }
      if (v === "--") {
        i++;
        break;
      }
      if (v.startsWith("--")) {
        const eq = v.indexOf("=");
        const name = v.slice(2, eq >= 0 ? eq : undefined);
        const value = (): Word | undefined => (eq >= 0 ? sliceWord(w, eq + 1) : argv[++i]);
        // Exact names only: getopt accepts abbreviations, and an unknown one is dangerous below.
        if (name === "source") {
          const p = value();
          if (p) programs.push(p);
        } else if (name === "field-separator") value();
        else if (name === "assign") assign(value());
        else if (name === "file" || name === "include" || name === "load" || name === "exec") {
          const f = value();
          if (f) fx.read(f, "content");
          fromFile = true;
          runsCode(fx, `\`${program} --${name}\` runs awk code Toolgate cannot check`);
        } else if (!AWK_LONG.has(name) || eq >= 0) unknown(`--${name}`);
        continue;
      }
      const c = v[1]!;
      if (c === "F" || c === "v" || c === "e" || c === "f" || c === "i" || c === "l" || c === "E") {
        const p = v.length > 2 ? sliceWord(w, 2) : argv[++i];
        if (c === "e") {
          if (p) programs.push(p);
        } else if (c === "v") assign(p);
        else if (c !== "F") {
          if (p) fx.read(p, "content");
          fromFile = true;
          runsCode(fx, `\`${program} -${c}\` runs awk code Toolgate cannot check`);
        }
        continue;
      }
      if (v.length === 2 && AWK_FLAGS.has(c)) continue;
      unknown(v);
    }
    if (programs.length === 0 && !fromFile) {
      const p = argv[i++];
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
    for (; i < argv.length; i++) {
      const f = argv[i]!;
      // `name=value` operands assign variables; anything else is an input file.
      if (f.literal && /^[A-Za-z_][A-Za-z0-9_]*=/.test(f.value)) {
        assign(f);
        continue;
      }
      if (f.literal && f.value === "-") continue;
      fx.read(f, "content");
    }
  };
