/**
 * A strict recursive-descent parser for the common shapes of command lines, so most lines never reach
 * tree-sitter (a tree-sitter parse plus walk costs 20-700 µs; this costs 1-30 µs).
 *
 * Covered: simple commands with quoted and unquoted words, `$NAME`/`${NAME}` reads, `$'...'`, command
 * substitution `$(...)` (also in double quotes), process substitution `<(...)`/`>(...)`, prefix assignments,
 * `;` `&` `&&` `||` `|` `|&` and newlines, `!`, comments, redirects (`>`, `>>`, `>|`, `<`, `&>`, `&>>`, `N>&M`,
 * `N<&M`, `>&-`, `<<<`), here-documents (`<<` and `<<-`, one per line), subshells `( ... )`, groups
 * `{ ...; }`, `if`/`elif`/`else`, `for NAME in ...`, `while`/`until`, with redirects after a compound.
 *
 * Anything else returns undefined and the line goes to tree-sitter: backquotes, parameter operators,
 * arithmetic, `[`/`[[`, `case`, functions, declaration builtins, braces other than a lone `{}` or a group,
 * a `#` or `(` inside a word, and every syntax error. Invariant (checked by a property test): whenever this
 * returns a script, it is the one the tree-sitter walker (parse.ts) produces for the same line, so both
 * paths give identical verdicts. Rules below marked "tree-sitter" hand over lines tree-sitter misreads, so
 * that its (refusing) answer stays the answer.
 */
import {
  emptyScript,
  literalWord,
  type Assignment,
  type Redirect,
  type RedirectOp,
  type Script,
  type Word,
} from "./model";
import { innermostLoop, MAX_COMMANDS, MAX_DEPTH, type LoopScope } from "./parse";
import { addUnquotedText, decodeAnsiC, heredocWord, unescapeDouble, WordBuilder } from "./words";

/** Words that are syntax in command position and not handled here (or read differently by tree-sitter). */
const UNSUPPORTED_KEYWORDS = new Set([
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "function",
  "select",
  "in",
  "coproc",
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
  "unset",
  "}",
  ".",
  "source",
]);
const FALLBACK = { fallback: true } as const;

function fallback(): never {
  throw FALLBACK;
}

/** A cap reached: tree-sitter would reach it too (after costing far more), so the line is refused here. */
class Cap {
  constructor(readonly reason: string) {}
}

export function fastParse(line: string): Script | undefined {
  try {
    const p = new FastParser(line);
    p.program();
    return p.script;
  } catch (e) {
    if (e === FALLBACK) return undefined;
    if (e instanceof Cap) return { commands: [], risks: [], unparseable: e.reason };
    throw e;
  }
}

// Character classes (ASCII): plain word characters, and characters that end a word.
const PLAIN = new Uint8Array(128);
const ENDS_WORD = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+,=^-") PLAIN[c.charCodeAt(0)] = 1;
for (const c of " \t\n;&|<>()") ENDS_WORD[c.charCodeAt(0)] = 1;

const ASSIGNMENT = /[A-Za-z_][A-Za-z0-9_]*\+?=/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const BRACED = /\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9])\}/y;
const DUP_TARGET = /(?:\d+|-)(?=[\s;&|<>)]|$)/y;
/** What the walker refuses in an expanded here-document body (a substitution tree-sitter may not see). */
const HEREDOC_SUBSTITUTION = /(^|[^\\])(\\\\)*(`|\$[({[])/;

const NO_TERMS: ReadonlySet<string> = new Set();
/** Shared by every command without redirects or assignments (never written to: others get their own). */
const NO_REDIRECTS: Redirect[] = [];
const NO_ASSIGNMENTS: Assignment[] = [];
const THEN = new Set(["then"]);
const AFTER_THEN = new Set(["elif", "else", "fi"]);
const FI = new Set(["fi"]);
const DO = new Set(["do"]);
const DONE = new Set(["done"]);
const CLOSE_BRACE = new Set(["}"]);

interface PendingHeredoc {
  readonly delimiter: string;
  readonly strip: boolean;
  readonly expand: boolean;
  /** Its redirect, whose target becomes the body once read. */
  readonly redirect: { target: Word };
}

class FastParser {
  readonly script: Script = emptyScript();
  private i = 0;
  private repeated = false;
  /** The `for` loops whose body is being read, outermost first. */
  private readonly loopScopes: LoopScope[] = [];
  private depth = 0;
  /** Inside `$(...)` or `<(...)`: comments and here-documents are left to tree-sitter. */
  private substitution = 0;
  private heredocs: PendingHeredoc[] = [];
  /** tree-sitter: facts about the statement just parsed, checked when a newline follows it. */
  private lastPipes = 0;
  private lastAssignmentOnly = false;

  constructor(private readonly s: string) {}

  program(): void {
    if (this.list(NO_TERMS, false) !== "" || this.heredocs.length > 0) fallback();
  }

  private emit(assignments: Assignment[], words: Word[], redirects: Redirect[], start: number, end: number): void {
    if (this.script.commands.length >= MAX_COMMANDS) throw new Cap(`the command has more than ${MAX_COMMANDS} parts`);
    this.script.commands.push({ assignments, words, redirects, repeated: this.repeated, span: { start, end } });
  }

  private code(at = this.i): number {
    return this.s.charCodeAt(at);
  }

  private blanks(): void {
    for (;;) {
      const c = this.code();
      if (c === 32 || c === 9) this.i++;
      else if (c === 92 && this.code(this.i + 1) === 10) {
        // tree-sitter: a line continuation not after a blank is refused by the walker (see parse.ts).
        const before = this.code(this.i - 1);
        if (this.i > 0 && before !== 32 && before !== 9) fallback();
        this.i += 2;
      } else return;
    }
  }

  /** Consumes one newline, then the bodies of here-documents started on the line it ends. */
  private newline(): void {
    if (this.lastPipes >= 2 || this.lastAssignmentOnly) fallback(); // tree-sitter joins the next line on
    if (/^[ \t]*\\/.test(this.s.slice(this.i + 1, this.i + 64))) fallback(); // tree-sitter: `\n\rm` is one word
    this.i++;
    if (this.heredocs.length === 0) return;
    if (this.heredocs.length > 1 || this.substitution > 0) fallback();
    const h = this.heredocs.pop()!;
    const s = this.s;
    const bodyStart = this.i;
    for (;;) {
      if (this.i >= s.length) fallback();
      let end = s.indexOf("\n", this.i);
      if (end < 0) end = s.length;
      let lineText = s.slice(this.i, end);
      if (h.strip) lineText = lineText.replace(/^\t+/, "");
      if (lineText === h.delimiter) {
        const body = s.slice(bodyStart, this.i);
        if (h.expand && HEREDOC_SUBSTITUTION.test(body)) fallback();
        h.redirect.target = heredocWord(body, h.strip, h.expand);
        this.i = end;
        return;
      }
      if (lineText.startsWith(h.delimiter)) fallback(); // tree-sitter may end the body at `EOF;`
      this.i = end + 1;
    }
  }

  /** Blanks, newlines and comments between statements. */
  private separators(): void {
    for (;;) {
      this.blanks();
      const c = this.code();
      if (c === 10) this.newline();
      else if (c === 35) {
        if (this.substitution > 0) fallback();
        while (this.i < this.s.length && this.code() !== 10) this.i++;
      } else return;
    }
  }

  /**
   * A keyword-like plain word at the cursor (`if`, `{`, `!`, or one starting with `-`, `{`, `[`, `!`),
   * without consuming it; "" for anything else (most words: no string is made for them).
   */
  private peekWord(): string {
    const s = this.s;
    const first = s.charCodeAt(this.i);
    // Keywords are short lower-case words; `-`, `{`, `}`, `[`, `!`, `.` starts are checked by callers.
    const special = first === 45 || first === 123 || first === 125 || first === 91 || first === 33 || first === 46;
    if (!special && !(first >= 97 && first <= 122)) return "";
    let j = this.i;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if ((c < 128 && PLAIN[c] === 1) || c === 123 || c === 125 || c === 33 || c === 91) j++;
      else break;
    }
    if (!special && j - this.i > 8) return "";
    const c = s.charCodeAt(j);
    if (j < s.length && !(c < 128 && ENDS_WORD[c] === 1)) return special ? s.slice(this.i, j) : "";
    return s.slice(this.i, j);
  }

  private keyword(word: string): void {
    if (this.peekWord() !== word) fallback();
    this.i += word.length;
  }

  /**
   * Statements until a terminator: a keyword of `terms` in command position, or `)` when `paren`.
   * Returns the terminator ("" at the end of the text), not consumed.
   */
  private list(terms: ReadonlySet<string>, paren: boolean): string {
    if (++this.depth > MAX_DEPTH) throw new Cap("the command is nested too deeply to analyse");
    let statements = 0;
    for (;;) {
      this.separators();
      if (this.i >= this.s.length) break;
      const c = this.code();
      if (c === 41) {
        if (!paren) fallback();
        this.depth--;
        if (statements === 0) fallback();
        return ")";
      }
      const word = this.peekWord();
      if (word && terms.has(word)) {
        this.depth--;
        if (statements === 0) fallback();
        return word;
      }
      this.andOr();
      statements++;
      this.blanks();
      const d = this.code();
      if (d === 59) {
        if (this.code(this.i + 1) === 59) fallback();
        this.i++;
      } else if (d === 38) this.i++;
      else if (d === 10 || d === 35 || d === 41 || this.i >= this.s.length) continue;
      else if (!terms.has(this.peekWord())) fallback();
    }
    this.depth--;
    if (terms.size > 0 || paren) fallback();
    return "";
  }

  private andOr(): void {
    this.pipeline();
    for (;;) {
      this.blanks();
      const c = this.code();
      if ((c === 38 && this.code(this.i + 1) === 38) || (c === 124 && this.code(this.i + 1) === 124)) {
        this.i += 2;
        this.lastPipes = 0;
        this.lastAssignmentOnly = false;
        this.separatorsAfterOperator();
        this.pipeline();
      } else return;
    }
  }

  /** After `&&`, `||`, `|` a newline may continue the line; a comment there is left to tree-sitter. */
  private separatorsAfterOperator(): void {
    for (;;) {
      this.blanks();
      const c = this.code();
      if (c === 10) this.newline();
      else if (c === 35) fallback();
      else return;
    }
  }

  private pipeline(): void {
    if (this.peekWord() === "!") {
      this.i++;
      const c = this.code();
      if (c !== 32 && c !== 9) fallback();
      this.blanks();
      // tree-sitter misreads `! {`, `! if`, `! while`...: the walker refuses those.
      const next = this.peekWord();
      if (next === "{" || next === "if" || next === "for" || next === "while" || next === "until" || next === "!")
        fallback();
    }
    let pipes = 0;
    this.command();
    for (;;) {
      this.blanks();
      if (this.code() === 124 && this.code(this.i + 1) !== 124) {
        this.i += this.code(this.i + 1) === 38 ? 2 : 1;
        pipes++;
        this.lastPipes = 0;
        this.lastAssignmentOnly = false;
        this.separatorsAfterOperator();
        this.command();
      } else break;
    }
    this.lastPipes = pipes;
  }

  private command(): void {
    this.blanks();
    this.lastAssignmentOnly = false;
    const c = this.code();
    if (c === 40) {
      if (this.code(this.i + 1) === 40) fallback(); // (( arithmetic ))
      this.i++;
      this.list(NO_TERMS, true);
      this.i++;
      return this.compoundRedirects();
    }
    const word = this.peekWord();
    switch (word) {
      case "{":
        this.i++;
        this.list(CLOSE_BRACE, false);
        this.i++;
        return this.compoundRedirects();
      case "if":
        return this.ifStatement();
      case "for":
        return this.forStatement();
      case "while":
      case "until":
        return this.whileStatement(word);
      default:
        if (
          UNSUPPORTED_KEYWORDS.has(word) ||
          word.startsWith("-") ||
          word.startsWith("{") ||
          word.startsWith("[") ||
          word.startsWith("!")
        )
          fallback();
        return this.simple();
    }
  }

  private ifStatement(): void {
    this.i += 2;
    this.list(THEN, false);
    this.keyword("then");
    let t = this.list(AFTER_THEN, false);
    while (t === "elif") {
      this.keyword("elif");
      this.list(THEN, false);
      this.keyword("then");
      t = this.list(AFTER_THEN, false);
    }
    if (t === "else") {
      this.keyword("else");
      t = this.list(FI, false);
    }
    this.keyword("fi");
    this.compoundRedirects();
  }

  private forStatement(): void {
    this.i += 3;
    const outer = this.repeated;
    this.repeated = true;
    this.blanks();
    NAME.lastIndex = this.i;
    const name = NAME.exec(this.s);
    if (!name) fallback();
    const nameStart = this.i;
    this.i += name[0].length;
    const after = this.code();
    if (after !== 32 && after !== 9) fallback();
    // `for NAME in` assigns NAME like `NAME=...` (the walker emits it first).
    const b = new WordBuilder();
    b.expansion(true);
    const loopValues: Word[] = [];
    this.emit([{ name: name[0], value: b.build(), loopValues }], [], [], nameStart, this.i);
    this.blanks();
    this.keyword("in");
    let values = 0;
    for (;;) {
      this.blanks();
      const c = this.code();
      if (c === 59 || c === 10) break;
      if (this.i >= this.s.length || (c < 128 && ENDS_WORD[c] === 1)) fallback();
      loopValues.push(this.word());
      values++;
    }
    if (values === 0) fallback(); // tree-sitter: `for f in ; do` is an error to it
    if (this.code() === 59) this.i++;
    this.separators();
    this.keyword("do");
    this.loopScopes.push({ name: name[0], values: loopValues });
    this.list(DONE, false);
    this.loopScopes.pop();
    this.keyword("done");
    this.repeated = outer;
    this.compoundRedirects();
  }

  private whileStatement(word: string): void {
    this.i += word.length;
    const outer = this.repeated;
    this.repeated = true;
    this.list(DO, false);
    this.keyword("do");
    this.list(DONE, false);
    this.keyword("done");
    this.repeated = outer;
    this.compoundRedirects();
  }

  /** Redirects after a compound belong to no simple command: the walker emits them as a command of their own. */
  private compoundRedirects(): void {
    const redirects: Redirect[] = [];
    let start = -1;
    let end = -1;
    for (;;) {
      this.blanks();
      const c = this.code();
      if (c === 60 || c === 62 || (c === 38 && this.code(this.i + 1) === 62)) {
        if (this.code(this.i + 1) === 40) fallback();
        if (start < 0) start = this.i;
        this.redirect(undefined, redirects);
        end = this.i;
        continue;
      }
      if (c >= 48 && c <= 57) {
        let j = this.i;
        while (this.code(j) >= 48 && this.code(j) <= 57) j++;
        const op = this.code(j);
        if (op !== 60 && op !== 62) fallback();
        const fd = Number(this.s.slice(this.i, j));
        if (start < 0) start = this.i;
        this.i = j;
        this.redirect(fd, redirects);
        end = this.i;
        continue;
      }
      break;
    }
    const c = this.code();
    if (this.i < this.s.length && c !== 59 && c !== 38 && c !== 124 && c !== 10 && c !== 41 && c !== 35) fallback();
    if (redirects.length > 0) this.emit([], [], redirects, start, end);
    this.lastAssignmentOnly = false;
  }

  private simple(): void {
    let assignments: Assignment[] = NO_ASSIGNMENTS;
    const words: Word[] = [];
    let redirects: Redirect[] = NO_REDIRECTS;
    const s = this.s;
    this.blanks();
    const spanStart = this.i;
    let spanEnd = this.i;
    for (; ; spanEnd = this.i) {
      this.blanks();
      if (this.i >= s.length) break;
      const c = this.code();
      if (c === 59 || c === 10 || c === 41 || c === 124) break;
      if (c === 38) {
        if (this.code(this.i + 1) === 62) {
          if (redirects === NO_REDIRECTS) redirects = [];
          this.redirect(undefined, redirects);
          continue;
        }
        break;
      }
      if (c === 35) {
        if (words.length + assignments.length + redirects.length === 0) fallback();
        break; // a comment; the list reads it
      }
      if (c === 40) fallback();
      if ((c === 60 || c === 62) && this.code(this.i + 1) !== 40) {
        if (redirects === NO_REDIRECTS) redirects = [];
        this.redirect(undefined, redirects);
        continue;
      }
      if (words.length === 0) {
        ASSIGNMENT.lastIndex = this.i;
        const m = ASSIGNMENT.exec(s);
        if (m) {
          const text = m[0];
          const name = text.endsWith("+=") ? text.slice(0, -2) : text.slice(0, -1);
          this.i += text.length;
          if (assignments === NO_ASSIGNMENTS) assignments = [];
          assignments.push({ name, value: this.word("assignment") });
          continue;
        }
      }
      const start = this.i;
      const word = this.word();
      const end = this.i;
      const after = this.code();
      if (this.plain && (after === 60 || after === 62) && this.code(this.i + 1) !== 40 && /^\d+$/.test(word.value)) {
        if (redirects === NO_REDIRECTS) redirects = [];
        this.redirect(Number(word.value), redirects);
        continue;
      }
      if (words.length === 0 && assignments.length > 0) {
        const raw = s.slice(start, end);
        // tree-sitter misreads `A=1 a:b`, and keywords after assignments.
        if (
          /^([A-Za-z_][A-Za-z0-9_]*[^A-Za-z0-9_./\-+,=]|[-{[!#])/.test(raw) ||
          UNSUPPORTED_KEYWORDS.has(raw) ||
          raw === "if" ||
          raw === "for" ||
          raw === "while" ||
          raw === "until"
        )
          fallback();
      }
      if (end - start === 1 && s[start] === "-" && /^[ \t]*[\d<>&]/.test(s.slice(end, end + 64))) fallback(); // tree-sitter drops `-` in `ls - 1>x`
      words.push(word);
    }
    if (words.length === 0 && assignments.length === 0 && redirects.length === 0) fallback();
    if (words.length === 0 && assignments.length > 0 && redirects.length > 0) fallback(); // tree-sitter wants a program
    this.emit(assignments, words, redirects, spanStart, spanEnd);
    this.lastAssignmentOnly = words.length === 0 && redirects.length === 0;
  }

  private redirect(fd: number | undefined, out: Redirect[]): void {
    const s = this.s;
    let op: RedirectOp;
    const c = s[this.i];
    const next = s[this.i + 1];
    if (c === "&") {
      if (fd !== undefined) fallback();
      op = s[this.i + 2] === ">" ? "&>>" : "&>";
    } else if (c === ">") {
      op = next === ">" ? ">>" : next === "&" ? ">&" : next === "|" ? ">|" : ">";
    } else if (next === "<") {
      if (s[this.i + 2] === "<") op = "<<<";
      else op = s[this.i + 2] === "-" ? "<<-" : "<<";
    } else if (next === ">") fallback();
    else op = next === "&" ? "<&" : "<";
    this.i += op.length;
    if (op === ">&" || op === "<&") {
      DUP_TARGET.lastIndex = this.i;
      const m = DUP_TARGET.exec(s);
      if (!m) fallback();
      this.i += m[0].length;
      out.push({ op, fd, target: literalWord(m[0]) });
      return;
    }
    this.blanks();
    const t = this.code();
    if (
      this.i >= s.length ||
      (t < 128 && ENDS_WORD[t] === 1 && !((t === 60 || t === 62) && this.code(this.i + 1) === 40)) ||
      t === 35
    )
      fallback();
    if (op === "<<" || op === "<<-") {
      if (this.substitution > 0 || this.heredocs.length > 0) fallback();
      const start = this.i;
      const word = this.word();
      const raw = s.slice(start, this.i);
      if (!word.literal || word.value === "" || /[$`]/.test(raw)) fallback();
      const redirect = { op, fd, target: literalWord("") };
      this.heredocs.push({ delimiter: word.value, strip: op === "<<-", expand: !/['"\\]/.test(raw), redirect });
      out.push(redirect);
      return;
    }
    // tree-sitter: a here-string after another redirect is a syntax error to it.
    if (op === "<<<" && out.some((r) => r.op !== "<<<")) fallback();
    out.push({ op, fd, target: this.word(op === "<<<" ? "herestring" : "argument") });
  }

  /** Whether the last word read was made of plain characters only (so a digit run can be a descriptor). */
  private plain = false;

  /**
   * Reads one word. Brace words go to tree-sitter (only a lone `{}` is read here, which bash leaves as it
   * is), so an argv word is always one word after expansion.
   */
  private word(mode: "argument" | "assignment" | "herestring" = "argument"): Word {
    const s = this.s;
    const start = this.i;
    // Fast case: a word of plain characters is itself.
    let j = start;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c < 128 && PLAIN[c] === 1) j++;
      else break;
    }
    const end = s.charCodeAt(j);
    if (j > start && (j === s.length || (end < 128 && ENDS_WORD[end] === 1))) {
      this.i = j;
      this.plain = true;
      return literalWord(s.slice(start, j));
    }
    this.plain = false;
    const b = new WordBuilder();
    let run = "";
    const flush = (): void => {
      if (run) {
        if (addUnquotedText(run, b)) fallback();
        run = "";
      }
    };
    for (;;) {
      const c = s[this.i];
      if (c === undefined) break;
      const code = c.charCodeAt(0);
      if (code < 128 && PLAIN[code] === 1) {
        run += c;
        this.i++;
        continue;
      }
      if ((c === "<" || c === ">") && s[this.i + 1] === "(" && this.i === start) {
        this.processSubstitution(b);
        const n = this.code();
        if (this.i < s.length && !(n < 128 && ENDS_WORD[n] === 1)) fallback();
        return this.finish(b, mode);
      }
      if (code < 128 && ENDS_WORD[code] === 1) break;
      switch (c) {
        case "\\": {
          const next = s[this.i + 1];
          if (next === undefined || next === "\n") fallback(); // tree-sitter splits `a\<newline>b`
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
          if (this.i === start && s[this.i + 1] === "}") {
            const after = this.code(this.i + 2);
            if (this.i + 2 >= s.length || (after < 128 && ENDS_WORD[after] === 1)) {
              run += "{}";
              this.i += 2;
              continue;
            }
          }
          return fallback();
        default:
          // Unicode letters and the like are word characters; anything else shell-special goes to tree-sitter.
          if (code < 128) fallback();
          run += c;
          this.i++;
      }
    }
    flush();
    if (b.isEmpty) fallback();
    return this.finish(b, mode);
  }

  private finish(b: WordBuilder, mode: "argument" | "assignment" | "herestring"): Word {
    if (mode !== "argument") return b.build(mode);
    const words = b.expand();
    if (words.length !== 1) fallback();
    return words[0]!;
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

  /** `$NAME`, `${NAME}`, `$1`, `$@`..., `$(...)`, or (outside double quotes) `$'...'`. */
  private dollar(b: WordBuilder, quoted: boolean): void {
    const s = this.s;
    const next = s[this.i + 1];
    if (next === undefined) fallback();
    if (next === "(") {
      if (s[this.i + 2] === "(") fallback(); // $(( arithmetic ))
      (this.script.substitutions ??= []).push(this.i);
      this.i += 2;
      this.nested();
      return b.expansion(quoted);
    }
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
      BRACED.lastIndex = this.i;
      const m = BRACED.exec(s);
      if (!m) fallback();
      this.i += m[0].length;
      return b.expansion(quoted, true);
    }
    const code = next.charCodeAt(0);
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95) {
      let j = this.i + 2;
      for (;;) {
        const d = s.charCodeAt(j);
        if ((d >= 65 && d <= 90) || (d >= 97 && d <= 122) || (d >= 48 && d <= 57) || d === 95) j++;
        else break;
      }
      const name = s.slice(this.i + 1, j);
      this.i = j;
      return b.variable(name, quoted, innermostLoop(this.loopScopes, name));
    }
    if (code >= 48 && code <= 57) {
      const d = s.charCodeAt(this.i + 2);
      if (d >= 48 && d <= 57) fallback();
      this.i += 2;
      return b.expansion(quoted, true);
    }
    if ("@*#?-$!0".includes(next)) {
      this.i += 2;
      return b.expansion(quoted, true);
    }
    fallback();
  }

  /** The commands of `$(...)` or `<(...)`, the cursor just after the opening parenthesis. */
  private nested(): void {
    if (/^\s*[<)]/.test(this.s.slice(this.i, this.i + 64))) fallback(); // `$(< file)`, `$()`
    const pending = this.heredocs.length;
    this.substitution++;
    const savedPipes = this.lastPipes;
    const savedAssign = this.lastAssignmentOnly;
    this.list(NO_TERMS, true);
    this.substitution--;
    if (this.heredocs.length !== pending) fallback();
    this.lastPipes = savedPipes;
    this.lastAssignmentOnly = savedAssign;
    this.i++;
  }

  private processSubstitution(b: WordBuilder): void {
    (this.script.substitutions ??= []).push(this.i);
    this.i += 2;
    this.nested();
    b.processSubstitution();
  }
}
