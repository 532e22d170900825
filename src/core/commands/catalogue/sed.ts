/**
 * sed: the script is judged by a text test that over-approximates, never by a parse of it (bracket
 * expressions, labels and custom delimiters let a parser and GNU sed disagree about where a command starts).
 * The commands and flags that run a shell command (`e`, `s///e`), write (`w`, `W`, `s///w`) or read a file
 * (`r`, `R`) are letters that follow a separator, an address, a flag or a delimiter: any such letter in a
 * position where it could be one makes the script dangerous. `-i` edits its input files in place (a write
 * the catalogue does not vouch for). A script read from a file or computed at run time cannot be checked.
 */
import type { Word } from "../model";
import type { ProgramCheck } from "./effects";
import { runsCode } from "./effects";
import { parseArgs, type OptionSpec } from "./options";

const LETTER = /[A-Za-z]/;

/**
 * Why a sed script could run a command or touch a file other than its input, or undefined.
 *
 * A command letter stands after a separator (`;`, newline, `{`, `}`, `!`), an address (digits, `$`, the
 * closing delimiter of a regex, its `I`/`M` flags), or, after blanks, a label (`:a e cmd`); an `s` flag
 * stands after the closing delimiter and other flags. Walking back from each `e`, `w`, `W`, `r`, `R` over
 * blanks and flag letters, the letter is harmless only when it lands on a letter that cannot end a label or
 * be a delimiter: a script with `:` or a blank delimiter (`s x y e`) makes blanks separators; a letter used as
 * a delimiter (`\cREc`, `scacbc`) makes that letter a separator.
 */
export function sedScriptProblem(s: string): string | undefined {
  const labels = s.includes(":");
  // Letters that may be delimiters: `\\c` starts a custom address delimiter; `s`/`y` standing where a
  // command may (after a non-letter, or a letter already a delimiter) takes the next character as one.
  const delimiters = new Set<string>();
  // A blank delimiter (`s x y e`) makes blanks end a replacement, so a flag may follow a blank too.
  let blankDelimiter = false;
  for (let k = 0; k + 1 < s.length; k++) if (s[k] === "\\" && LETTER.test(s[k + 1]!)) delimiters.add(s[k + 1]!);
  for (let k = 0; k + 1 < s.length; k++) {
    const c = s[k]!;
    const next = s[k + 1]!;
    const blank = next === " " || next === "\t";
    if ((c !== "s" && c !== "y") || !(LETTER.test(next) || blank)) continue;
    let j = k - 1;
    while (j >= 0 && /[ \tIM]/.test(s[j]!)) j--;
    const before = j >= 0 ? s[j]! : "";
    if (before === "" || !LETTER.test(before) || delimiters.has(before) || labels) {
      if (blank) blankDelimiter = true;
      else delimiters.add(next);
    }
  }
  for (let k = 0; k < s.length; k++) {
    const c = s[k]!;
    if (!"ewWrR".includes(c)) continue;
    const skip = c === "e" || c === "w" ? /[ \t gpiImM]/ : /[ \t IM]/;
    let j = k - 1;
    let blank = false;
    // A flag letter that is also a delimiter (`sgag:>xge`) may be the closing delimiter: the walk stops on it.
    while (j >= 0 && skip.test(s[j]!) && !delimiters.has(s[j]!)) {
      if (s[j] === " " || s[j] === "\t") blank = true;
      j--;
    }
    const before = j >= 0 ? s[j]! : "";
    if (before === "" || !LETTER.test(before) || delimiters.has(before) || (blank && (labels || blankDelimiter)))
      return c === "e"
        ? "the sed script may use `e` (or `s///e`), which runs a shell command"
        : `the sed script may use \`${c}\`, which ${c === "r" || c === "R" ? "reads" : "writes"} a file Toolgate does not check`;
  }
  return undefined;
}

/** GNU sed 4.9 (`sed --help`). `-i` takes an optional attached suffix: `-ie` is suffix "e", not `-i -e`. */
export const SED: OptionSpec = {
  flags: "nErsuzb",
  shortArgs: { e: "data", f: "content", l: "data" },
  shortOptional: { i: "data" },
  long: [
    "quiet",
    "silent",
    "regexp-extended",
    "separate",
    "unbuffered",
    "null-data",
    "zero-terminated",
    "posix",
    "debug",
    "sandbox",
    "follow-symlinks",
    "binary",
    "help",
    "version",
  ],
  longArgs: { expression: "data", file: "content", "line-length": "data" },
  longOptional: { "in-place": "data" },
  dangerous: { "-f": "runs a script Toolgate cannot check", "--file": "runs a script Toolgate cannot check" },
  same: { "-e": "--expression", "-i": "--in-place", "-f": "--file" },
};

export const sed: ProgramCheck = (argv, fx) => {
  fx.label("sed");
  const { positionals, seen } = parseArgs(argv, 1, SED, fx, "sed");
  const files = [...positionals];
  const scripts: Word[] = [...seen.valuesOf("--expression")];
  const inPlace = seen.has("--in-place");
  // Without `-e`/`-f`, the first operand is the script.
  if (scripts.length === 0 && seen.valuesOf("--file").length === 0) {
    const first = files.shift();
    if (first) scripts.push(first);
  }
  for (const script of scripts) {
    if (!script.literal) {
      runsCode(fx, "the sed script is computed at run time");
      continue;
    }
    const problem = sedScriptProblem(script.value);
    if (problem) runsCode(fx, problem);
  }
  for (const f of files) {
    if (f.literal && f.value === "-") continue;
    fx.read(f, "content");
    if (inPlace) fx.write(f);
  }
  if (inPlace) fx.notReadOnly("`sed -i` edits files in place");
};
