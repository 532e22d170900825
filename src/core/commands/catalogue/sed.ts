/**
 * sed: the script is parsed (GNU syntax). `e` and `s///e` run commands (dangerous); `w`, `W` and `s///w`
 * write files; `r`/`R` read files; `-i` edits its input files in place (a write the catalogue does not vouch
 * for). A script read from a file (`-f`) or computed at run time cannot be checked: dangerous.
 */
import { literalWord, type Word } from "../model";
import type { ProgramCheck } from "./effects";
import { mayBeOption, sliceWord } from "./options";

export interface SedScript {
  /** Why it is dangerous or could not be checked. */
  readonly problem?: string;
  readonly writes: string[];
  readonly reads: string[];
}

const SIMPLE = new Set(["=", "d", "D", "g", "G", "h", "H", "n", "N", "p", "P", "x", "z", "F"]);
const NUMBER_ARG = new Set(["l", "L", "q", "Q"]);

export function parseSedScript(s: string): SedScript {
  const writes: string[] = [];
  const reads: string[] = [];
  let i = 0;
  const fail = (problem: string): SedScript => ({ problem, writes, reads });
  const skipBlank = (): void => {
    while (i < s.length && (s[i] === " " || s[i] === "\t")) i++;
  };
  const toEol = (): string => {
    const start = i;
    while (i < s.length && s[i] !== "\n") i++;
    return s.slice(start, i);
  };
  /** Reads up to an unescaped `delim`; returns false at the end of the script. */
  const until = (delim: string): boolean => {
    for (; i < s.length; i++) {
      if (s[i] === "\\") {
        i++;
        continue;
      }
      if (s[i] === delim) {
        i++;
        return true;
      }
      if (s[i] === "\n" && delim !== "\n") return false;
    }
    return false;
  };
  const address = (second: boolean): boolean => {
    const c = s[i];
    if (c === undefined) return false;
    if (/[0-9]/.test(c)) {
      while (/[0-9]/.test(s[i] ?? "")) i++;
      if (s[i] === "~") {
        i++;
        while (/[0-9]/.test(s[i] ?? "")) i++;
      }
      return true;
    }
    if (c === "$") {
      i++;
      return true;
    }
    if (second && (c === "+" || c === "~")) {
      i++;
      while (/[0-9]/.test(s[i] ?? "")) i++;
      return true;
    }
    if (c === "/" || c === "\\") {
      let delim = "/";
      if (c === "\\") {
        delim = s[i + 1] ?? "";
        if (!delim || delim === "\n") return false;
        i++;
      }
      i++;
      if (!until(delim)) return false;
      while (s[i] === "I" || s[i] === "M") i++;
      return true;
    }
    return false;
  };
  let depth = 0;
  while (i < s.length) {
    const c0 = s[i]!;
    if (c0 === " " || c0 === "\t" || c0 === "\n" || c0 === ";") {
      i++;
      continue;
    }
    if (c0 === "#") {
      toEol();
      continue;
    }
    if (address(false)) {
      skipBlank();
      if (s[i] === ",") {
        i++;
        skipBlank();
        if (!address(true)) return fail("the sed script has an address Toolgate cannot read");
      }
    }
    skipBlank();
    while (s[i] === "!") {
      i++;
      skipBlank();
    }
    const cmd = s[i++];
    if (cmd === undefined) return fail("the sed script ends after an address");
    if (cmd === "{") {
      depth++;
      continue;
    }
    if (cmd === "}") {
      if (--depth < 0) return fail("the sed script has an unmatched `}`");
    } else if (SIMPLE.has(cmd)) {
      // no argument
    } else if (NUMBER_ARG.has(cmd)) {
      skipBlank();
      while (/[0-9]/.test(s[i] ?? "")) i++;
    } else if (cmd === "a" || cmd === "i" || cmd === "c") {
      // Text to the end of the line; a trailing backslash continues it.
      for (; i < s.length; i++) {
        if (s[i] === "\\") i++;
        else if (s[i] === "\n") break;
      }
    } else if (cmd === ":") {
      skipBlank();
      const label = toEol();
      if (!label.trim()) return fail("the sed script has an empty label");
    } else if (cmd === "b" || cmd === "t" || cmd === "T") {
      while (i < s.length && s[i] !== "\n" && s[i] !== ";" && s[i] !== "}") i++;
    } else if (cmd === "r" || cmd === "R" || cmd === "w" || cmd === "W") {
      skipBlank();
      const file = toEol();
      if (!file) return fail(`the sed \`${cmd}\` command has no file`);
      (cmd === "r" || cmd === "R" ? reads : writes).push(file);
    } else if (cmd === "e") {
      return fail("the sed `e` command runs a shell command");
    } else if (cmd === "v") {
      while (i < s.length && s[i] !== "\n" && s[i] !== ";" && s[i] !== "}") i++;
    } else if (cmd === "s" || cmd === "y") {
      const delim = s[i++];
      if (delim === undefined || delim === "\n" || delim === "\\")
        return fail(`the sed \`${cmd}\` command has a delimiter Toolgate cannot read`);
      if (!until(delim) || !until(delim)) return fail(`the sed \`${cmd}\` command is not terminated`);
      if (cmd === "s") {
        while (i < s.length) {
          const f = s[i]!;
          if (/[gpiImM0-9]/.test(f)) i++;
          else if (f === "e") return fail("the sed `s///e` flag runs the result as a shell command");
          else if (f === "w") {
            i++;
            skipBlank();
            const file = toEol();
            if (!file) return fail("the sed `s///w` flag has no file");
            writes.push(file);
          } else break;
        }
      }
    } else {
      return fail(`the sed command \`${cmd}\` is not one Toolgate knows`);
    }
    skipBlank();
    const next = s[i];
    if (next !== undefined && next !== ";" && next !== "\n" && next !== "}" && next !== "#")
      return fail("the sed script has text Toolgate cannot read after a command");
  }
  if (depth !== 0) return fail("the sed script has an unmatched `{`");
  return { writes, reads };
}

const SED_FLAGS = new Set(["n", "E", "r", "s", "u", "z", "b"]);
const SED_LONG = new Set([
  "quiet",
  "silent",
  "regexp-extended",
  "separate",
  "unbuffered",
  "null-data",
  "posix",
  "debug",
  "sandbox",
  "follow-symlinks",
  "binary",
  "help",
  "version",
]);

export const sed: ProgramCheck = (argv, fx) => {
  fx.label("sed");
  const scripts: Word[] = [];
  const files: Word[] = [];
  let inPlace = false;
  let optionsDone = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (optionsDone || !mayBeOption(w) || v === "-") {
      files.push(w);
      continue;
    }
    if (!w.literal) {
      fx.dangerous("`sed` gets an argument computed at run time that could be any option");
      files.push(w);
      continue;
    }
    if (v === "--") {
      optionsDone = true;
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = v.slice(2, eq >= 0 ? eq : undefined);
      if (name === "expression" || name === "file" || name === "line-length") {
        const value = eq >= 0 ? sliceWord(w, eq + 1) : argv[++i];
        if (!value) continue;
        if (name === "expression") scripts.push(value);
        else if (name === "file") {
          fx.read(value, "content");
          fx.dangerous("`sed --file` runs a script Toolgate cannot check");
        }
      } else if ("in-place".startsWith(name) && name.length >= 2) inPlace = true;
      else if (!SED_LONG.has(name)) fx.notReadOnly(`\`--${name}\` is not a \`sed\` option Toolgate knows`);
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j]!;
      if (SED_FLAGS.has(c)) continue;
      if (c === "i") {
        // `-i` takes an optional attached suffix: `-ie` is suffix "e", not `-i -e`.
        inPlace = true;
        break;
      }
      if (c === "e" || c === "f" || c === "l") {
        const value = j < v.length - 1 ? sliceWord(w, j + 1) : argv[++i];
        if (value && c === "e") scripts.push(value);
        if (value && c === "f") {
          fx.read(value, "content");
          fx.dangerous("`sed -f` runs a script Toolgate cannot check");
        }
        break;
      }
      fx.notReadOnly(`\`-${c}\` is not a \`sed\` option Toolgate knows`);
      break;
    }
  }
  if (scripts.length === 0 && !argv.slice(1).some((w) => /^(-[a-z]*f|--file)/.test(w.value))) {
    const first = files.shift();
    if (first) scripts.push(first);
  }
  for (const script of scripts) {
    if (!script.literal) {
      fx.dangerous("the sed script is computed at run time");
      continue;
    }
    const parsed = parseSedScript(script.value);
    if (parsed.problem) fx.dangerous(parsed.problem);
    for (const f of parsed.writes) if (f !== "/dev/stdout" && f !== "/dev/stderr") fx.write(literalWord(f));
    for (const f of parsed.reads) if (f !== "/dev/stdin") fx.read(literalWord(f), "content");
  }
  for (const f of files) {
    if (f.literal && f.value === "-") continue;
    fx.read(f, "content");
    if (inPlace) fx.write(f);
  }
  if (inPlace) fx.notReadOnly("`sed -i` edits files in place");
};
