/**
 * awk: the program text is scanned (strings, regular expressions and comments skipped). `system(...)`, a
 * `|` (pipe to or from a command), `>`/`>>` outside parentheses inside an action (output redirection),
 * `getline <file` and gawk's `@load`/`@include` make it dangerous; the rest only reads its input files.
 * Conservative by design: `x = a > b` in an action counts as a redirection.
 */
import type { Word } from "../model";
import type { ProgramCheck } from "./effects";
import { mayBeOption, sliceWord } from "./options";

export function awkProgramProblem(src: string): string | undefined {
  let paren = 0;
  let brace = 0;
  // Whether the previous significant token ends an operand (then `/` divides instead of starting a regex).
  let afterOperand = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === " " || c === "\t" || c === "\r") continue;
    if (c === "\\" && src[i + 1] === "\n") {
      i++;
      continue;
    }
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
      afterOperand = false;
      continue;
    }
    if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === "\\") i++;
      if (i >= src.length) return "the awk program has an unterminated string";
      afterOperand = true;
      continue;
    }
    if (c === "/" && !afterOperand) {
      let bracket = false;
      for (i++; i < src.length; i++) {
        const r = src[i];
        if (r === "\\") i++;
        else if (r === "[") bracket = true;
        else if (r === "]") bracket = false;
        else if (r === "/" && !bracket) break;
        else if (r === "\n") return "the awk program has an unterminated regular expression";
      }
      if (i >= src.length) return "the awk program has an unterminated regular expression";
      afterOperand = true;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < src.length && /[A-Za-z0-9_]/.test(src[j]!)) j++;
      const word = src.slice(i, j);
      i = j - 1;
      if (word === "system") return "the awk program calls `system`, which runs commands";
      if (word === "getline") {
        let k = j;
        while (src[k] === " " || src[k] === "\t") k++;
        // `getline var < file`: skip an optional variable name.
        if (/[A-Za-z_$]/.test(src[k] ?? "")) {
          while (k < src.length && /[A-Za-z0-9_$]/.test(src[k]!)) k++;
          while (src[k] === " " || src[k] === "\t") k++;
        }
        if (src[k] === "<") return "the awk program reads a file with `getline <`";
      }
      afterOperand = true;
      continue;
    }
    if (/[0-9.]/.test(c)) {
      afterOperand = true;
      continue;
    }
    switch (c) {
      case "@":
        return "the awk program uses a gawk directive (`@load`, `@include`) that loads code";
      case "|":
        if (src[i + 1] === "|") {
          i++;
          afterOperand = false;
          continue;
        }
        return "the awk program pipes to or from a command with `|`";
      case ">":
        if (src[i + 1] === "=") {
          i++;
        } else if (brace > 0 && paren === 0) return "the awk program redirects output to a file with `>`";
        afterOperand = false;
        continue;
      case "(":
        paren++;
        afterOperand = false;
        continue;
      case ")":
        paren = Math.max(0, paren - 1);
        afterOperand = true;
        continue;
      case "{":
        brace++;
        afterOperand = false;
        continue;
      case "}":
        brace = Math.max(0, brace - 1);
        afterOperand = false;
        continue;
      case "]":
      case "$":
        afterOperand = c === "]";
        continue;
      case "\n":
      case ";":
        paren = 0;
        afterOperand = false;
        continue;
      default:
        // Only where awk's grammar requires an operand can `/` start a regex. Elsewhere (after `++`, `+`,
        // `<`...) it is read as division, so the text after it is still scanned: the conservative side.
        afterOperand = !"!~&=?:,".includes(c);
    }
  }
  return undefined;
}

const AWK_FLAGS = new Set(["b", "c", "P", "r", "n", "N", "M", "O", "s", "t", "S", "V", "h", "g"]);
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
  "lint-old",
  "version",
  "help",
  "gen-pot",
  "csv",
]);

export const awk =
  (program: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(program);
    const programs: Word[] = [];
    let fromFile = false;
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
        if (name === "source") {
          const p = value();
          if (p) programs.push(p);
        } else if (name === "field-separator" || name === "assign") value();
        else if (name === "file" || name === "include" || name === "load" || name === "exec") {
          const f = value();
          if (f) fx.read(f, "content");
          fromFile = true;
          fx.dangerous(`\`${program} --${name}\` runs awk code Toolgate cannot check`);
        } else if (!AWK_LONG.has(name)) fx.notReadOnly(`\`--${name}\` is not an \`${program}\` option Toolgate knows`);
        continue;
      }
      const c = v[1]!;
      if (c === "F" || c === "v" || c === "e" || c === "f" || c === "i" || c === "l" || c === "E") {
        const p = v.length > 2 ? sliceWord(w, 2) : argv[++i];
        if (c === "e" && p) programs.push(p);
        else if (c !== "F" && c !== "v") {
          if (p) fx.read(p, "content");
          fromFile = true;
          fx.dangerous(`\`${program} -${c}\` runs awk code Toolgate cannot check`);
        }
        continue;
      }
      if (v.length === 2 && AWK_FLAGS.has(c)) continue;
      fx.notReadOnly(`\`${v}\` is not an \`${program}\` option Toolgate knows`);
    }
    if (programs.length === 0 && !fromFile) {
      const p = argv[i++];
      if (p) programs.push(p);
    }
    for (const p of programs) {
      if (!p.literal) {
        fx.dangerous("the awk program is computed at run time");
        continue;
      }
      const problem = awkProgramProblem(p.value);
      if (problem) fx.dangerous(problem);
    }
    for (; i < argv.length; i++) {
      const f = argv[i]!;
      // `name=value` operands assign variables; anything else is an input file.
      if (f.literal && /^[A-Za-z_][A-Za-z0-9_]*=/.test(f.value)) continue;
      if (f.literal && f.value === "-") continue;
      fx.read(f, "content");
    }
  };
