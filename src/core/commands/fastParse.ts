/**
 * A strict parser for the common shape of command lines, so most lines never reach tree-sitter: simple
 * commands with quoted and unquoted words, `$NAME`/`${NAME}` reads, `$'...'`, prefix assignments, the list
 * and pipe operators (`;` `&` `&&` `||` `|` `|&` newline), comments, and plain redirects (`>`, `>>`, `>|`,
 * `<`, `&>`, `&>>`, `N>&M`, `N<&M`, `>&-`).
 *
 * Anything else returns undefined and the line goes to tree-sitter: substitutions, backquotes, parameter
 * operators, arithmetic, process substitution, here-documents and here-strings, parentheses, braces other
 * than a lone `{}`, brackets, `!`, a `#` inside a word, reserved words and declaration builtins in command
 * position, and every syntax error. Invariant (checked by a property test): whenever this returns a
 * script, it is the one the tree-sitter walker produces for the same line.
 */
import { emptyScript, type Assignment, type Redirect, type RedirectOp, type Script, type Word } from "./model";
import { MAX_COMMANDS } from "./parse";
import { addUnquotedText, decodeAnsiC, unescapeDouble, WordBuilder } from "./words";

/** Words that tree-sitter reads as syntax (or as declarations) in command position. */
const RESERVED = new Set(["if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "function", "select", "in", "coproc", "export", "declare", "typeset", "local", "readonly", "unset"]);
const SPECIAL_PARAM = "@*#?-$!0";
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

class Fallback extends Error {}

function fallback(): never {
  throw new Fallback();
}

export function fastParse(line: string): Script | undefined {
  try {
    return new FastParser(line).parse();
  } catch (e) {
    if (e instanceof Fallback) return undefined;
    throw e;
  }
}

/** The text of `line` from `i` is plain (no character this parser must think about). */
const PLAIN_CHAR = /[A-Za-z0-9_./:@%+,=^-]/;

class FastParser {
  private i = 0;

  constructor(private readonly s: string) {}

  parse(): Script {
    const script = emptyScript();
    const s = this.s;
    let assignments: Assignment[] = [];
    let words: Word[] = [];
    let redirects: Redirect[] = [];
    /** An operator was seen that needs a command after it (`|`, `&&`, `||`). */
    let needCommand = false;
    /** Pipe operators in the current pipeline. */
    let pipes = 0;
    const end = (): boolean => {
      if (words.length === 0 && assignments.length === 0 && redirects.length === 0) return false;
      // tree-sitter wants a program after `x=y > f`.
      if (words.length === 0 && assignments.length > 0 && redirects.length > 0) fallback();
      if (script.commands.length >= MAX_COMMANDS) fallback();
      script.commands.push({ assignments, words, redirects, repeated: false });
      assignments = [];
      words = [];
      redirects = [];
      return true;
    };
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === " " || c === "\t") {
        this.i++;
        continue;
      }
      if (c === "\\" && s[this.i + 1] === "\n") {
        this.i += 2;
        continue;
      }
      if (c === "\n" || c === ";") {
        if (c === ";" && s[this.i + 1] === ";") fallback();
        // tree-sitter glues a newline to a following backslash word (`ls\n\rm` becomes one command), and
        // the line after a pipeline of three or more commands onto its last command: the walker refuses both.
        if (c === "\n" && (pipes >= 2 || /^[ \t]*\\/.test(s.slice(this.i + 1, this.i + 64)))) fallback();
        // ... and an assignment-only line onto the next command (`A=1 B=2` newline `ls`).
        if (c === "\n" && words.length === 0 && assignments.length > 0) fallback();
        if (!needCommand) pipes = 0;
        if (needCommand) {
          // `a &&\n b` continues on the next line; `a && ; b` is an error.
          if (c === ";" || words.length + assignments.length + redirects.length > 0) fallback();
          this.i++;
          continue;
        }
        if (!end() && c === ";") fallback();
        this.i++;
        continue;
      }
      if (c === "&" || c === "|") {
        const next = s[this.i + 1];
        if (c === "&" && next === ">") {
          this.redirect(undefined, redirects);
          continue;
        }
        if (!end()) fallback();
        if (c === "|" && next !== "|") pipes++;
        else pipes = 0;
        if (next === c || (c === "|" && next === "&")) this.i += 2;
        else this.i++;
        needCommand = !(c === "&" && next !== "&");
        continue;
      }
      if (c === "<" || c === ">") {
        this.redirect(undefined, redirects);
        continue;
      }
      if (c === "#") {
        // A comment runs to the end of the line; the newline then ends the command.
        if (needCommand) fallback();
        while (this.i < s.length && s[this.i] !== "\n") this.i++;
        continue;
      }
      if (c === "(" || c === ")") fallback();
      // A word, an assignment, or a descriptor number before a redirect.
      needCommand = false;
      if (words.length === 0) {
        const m = ASSIGNMENT.exec(s.slice(this.i, this.i + 256));
        if (m) {
          const plus = m[0].endsWith("+=");
          const name = m[0].slice(0, plus ? -2 : -1);
          this.i += m[0].length;
          assignments.push({ name, value: this.word().word });
          continue;
        }
      }
      const start = this.i;
      const { word, plain } = this.word();
      const raw = s.slice(start, this.i);
      const after = s[this.i];
      if (plain && /^\d+$/.test(raw) && (after === "<" || after === ">")) {
        this.redirect(Number(raw), redirects);
        continue;
      }
      if (words.length === 0 && (RESERVED.has(raw) || /^[-{}[]/.test(raw) || raw === "." || raw === "source")) fallback();
      // tree-sitter drops a lone `-` before a descriptor redirect (`ls - 1>x`); the walker then refuses the line.
      if (raw === "-" && /^[ \t]*\d/.test(s.slice(this.i, this.i + 64))) fallback();
      // tree-sitter misreads a program like `a:b` or `a@b` after an assignment; leave such lines to it.
      if (words.length === 0 && assignments.length > 0 && !/^[A-Za-z0-9_./-]+$/.test(raw)) fallback();
      words.push(word);
    }
    if (needCommand) fallback();
    end();
    return script;
  }

  private redirect(fd: number | undefined, out: Redirect[]): void {
    const s = this.s;
    let op: RedirectOp;
    const c = s[this.i];
    const next = s[this.i + 1];
    if (c === "&") {
      if (fd !== undefined) fallback();
      op = s[this.i + 2] === ">" ? "&>>" : "&>";
      this.i += op.length;
    } else if (c === ">") {
      if (next === ">") op = ">>";
      else if (next === "&") op = ">&";
      else if (next === "|") op = ">|";
      else if (next === "(") fallback();
      else op = ">";
      this.i += op.length;
    } else {
      if (next === "<" || next === ">" || next === "(") fallback();
      op = next === "&" ? "<&" : "<";
      this.i += op.length;
    }
    if (op === ">&" || op === "<&") {
      const m = /^(\d+|-)(?=[\s;&|<>]|$)/.exec(s.slice(this.i, this.i + 16));
      if (!m) fallback();
      this.i += m[0].length;
      out.push({ op, fd, target: { value: m[0], literal: true, splits: false, glob: false, tilde: undefined, pipe: false } });
      return;
    }
    while (s[this.i] === " " || s[this.i] === "\t") this.i++;
    const t = s[this.i];
    if (t === undefined || /[\n;&|<>()#]/.test(t)) fallback();
    out.push({ op, fd, target: this.word().word });
  }

  /** Reads one word. `plain`: no quoting or expansion at all (so a digit run can be a descriptor). */
  private word(): { word: Word; plain: boolean } {
    const s = this.s;
    const b = new WordBuilder();
    let plain = true;
    let run = "";
    const flush = (): void => {
      if (run) {
        if (addUnquotedText(run, b)) fallback();
        run = "";
      }
    };
    const wordStart = this.i;
    for (;;) {
      const c = s[this.i];
      if (c === undefined || c === " " || c === "\t" || c === "\n" || c === ";" || c === "&" || c === "|" || c === "<" || c === ">") break;
      if (PLAIN_CHAR.test(c)) {
        run += c;
        this.i++;
        continue;
      }
      plain = false;
      switch (c) {
        case "\\": {
          const next = s[this.i + 1];
          if (next === undefined) fallback();
          run += c + next;
          this.i += 2;
          continue;
        }
        case "'": {
          flush();
          const close = s.indexOf("'", this.i + 1);
          if (close < 0) fallback();
          b.quoted(s.slice(this.i + 1, close));
          this.i = close + 1;
          continue;
        }
        case '"':
          flush();
          this.doubleQuoted(b);
          continue;
        case "$":
          flush();
          this.dollar(b, false);
          continue;
        case "*":
        case "?":
        case "~":
          run += c;
          this.i++;
          continue;
        case "{":
          if (this.i === wordStart && s[this.i + 1] === "}" && /^[\s;&|<>]?$/.test(s[this.i + 2] ?? "")) {
            run += "{}";
            this.i += 2;
            continue;
          }
          return fallback();
        default:
          // Unicode letters and the like are word characters; anything shell-special goes to tree-sitter.
          if (c.charCodeAt(0) < 0x80) fallback();
          run += c;
          this.i++;
      }
    }
    flush();
    return { word: b.build(), plain };
  }

  private doubleQuoted(b: WordBuilder): void {
    const s = this.s;
    this.i++;
    let from = this.i;
    const literal = (to: number): void => {
      if (to > from) b.quoted(unescapeDouble(s.slice(from, to)));
    };
    for (;;) {
      const c = s[this.i];
      if (c === undefined || c === "`") fallback();
      if (c === "\\") {
        if (this.i + 1 >= s.length) fallback();
        this.i += 2;
        continue;
      }
      if (c === '"') {
        literal(this.i);
        this.i++;
        return;
      }
      if (c === "$") {
        literal(this.i);
        this.dollar(b, true);
        from = this.i;
        continue;
      }
      this.i++;
    }
  }

  /** `$NAME`, `${NAME}`, `$1`, `$@`..., or (outside double quotes) `$'...'`. */
  private dollar(b: WordBuilder, quoted: boolean): void {
    const s = this.s;
    const next = s[this.i + 1];
    if (next === undefined) fallback();
    if (next === "'" && !quoted) {
      let j = this.i + 2;
      for (; j < s.length && s[j] !== "'"; j++) if (s[j] === "\\") j++;
      if (j >= s.length) fallback();
      const decoded = decodeAnsiC(s.slice(this.i + 2, j));
      if (decoded === undefined) fallback();
      b.quoted(decoded);
      this.i = j + 1;
      return;
    }
    if (next === "{") {
      const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9])\}/.exec(s.slice(this.i, this.i + 260));
      if (!m) fallback();
      this.i += m[0].length;
      b.expansion(quoted);
      return;
    }
    if (NAME_START.test(next)) {
      let j = this.i + 2;
      while (j < s.length && NAME_CHAR.test(s[j]!)) j++;
      this.i = j;
      b.expansion(quoted);
      return;
    }
    if (/[0-9]/.test(next)) {
      if (/[0-9]/.test(s[this.i + 2] ?? "")) fallback();
      this.i += 2;
      b.expansion(quoted);
      return;
    }
    if (SPECIAL_PARAM.includes(next)) {
      this.i += 2;
      b.expansion(quoted);
      return;
    }
    fallback();
  }
}
