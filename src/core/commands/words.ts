/**
 * Lexical pieces shared by both parsers: quote removal, ANSI-C decoding, whole-line checks. Both parsers
 * build words through `WordBuilder`, so a word means the same thing whichever parser saw it.
 */
import { UNKNOWN, type Word } from "./model";
import { C, E, Q, U, X, type ExpansionMeta, type Segment } from "./atoms";
import { expandPieces } from "./expand";

/** Longest command line analysed; longer lines are unparseable (the gate asks). */
export const MAX_LINE_LENGTH = 16 * 1024;

// C0 controls except tab and newline, DEL, C1 controls: a terminal may treat them as separators or hide text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// Bidirectional overrides and isolates make the text a person approves differ from what runs (Trojan Source).
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/**
 * Invisible or space-like characters that bash treats as ordinary word characters: outside quotes they make
 * one word look like two (`ls\u00a0rm`) or hide text. Zero-width joiners and variation selectors are in here
 * too; inside quotes (emoji in a commit message) they are harmless and allowed.
 */
export const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- a list of invisible code points, some of them combining
  /[\u00a0\u00ad\u034f\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udcff]/;

/** Whole-line checks done before any parsing. Returns why the line is unparseable, or undefined. */
// Either of the two above, so that the common case (neither) is one scan of the line.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_OR_BIDI = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export function lineProblem(line: string): string | undefined {
  if (line.length > MAX_LINE_LENGTH) return `the command is longer than ${MAX_LINE_LENGTH} characters`;
  if (!CONTROL_OR_BIDI.test(line)) return undefined;
  const c = CONTROL.exec(line);
  if (c) return `the command contains a control character (U+${hex(c[0])})`;
  const b = BIDI.exec(line);
  if (b) return `the command contains an invisible text-direction character (U+${hex(b[0])})`;
  return undefined;
}

export function hex(ch: string): string {
  return ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * Interactive shells expand `!` (history) before parsing, outside single quotes: `!rm` re-runs an earlier
 * command that no gate sees. A `!` followed by a blank, `=`, `(`, `"` or the end is left alone by bash, as
 * are `$!`, `${!` (flagged elsewhere) and `[!` (glob negation). A line starting with `^` is a quick
 * substitution of the previous command. Conservative: comments and here-document bodies count too.
 */
export function historyRisk(line: string): string | undefined {
  if (line.indexOf("!") < 0 && line.indexOf("^") < 0) return undefined;
  let quote: "'" | '"' | "$'" | undefined;
  let lineStart = true;
  let escapedAt = -1;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (lineStart && ch === "^") return "a line starting with `^` re-runs the previous command from history";
    lineStart = ch === "\n";
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      continue;
    }
    if (ch === "\\") {
      escapedAt = ++i;
      continue;
    }
    if (quote === "$'") {
      if (ch === "'") quote = undefined;
      continue;
    }
    if (ch === '"') {
      quote = quote === '"' ? undefined : '"';
      continue;
    }
    if (quote === undefined && ch === "'") {
      quote = line[i - 1] === "$" && escapedAt !== i - 1 ? "$'" : "'";
      continue;
    }
    if (ch === "!") {
      const next = line[i + 1];
      const prev = line[i - 1];
      if (
        next === undefined ||
        next === " " ||
        next === "\t" ||
        next === "\n" ||
        next === "=" ||
        next === "(" ||
        next === '"'
      )
        continue;
      if (prev === "$" || prev === "[" || (prev === "{" && line[i - 2] === "$")) continue;
      return "`!` may expand to an earlier command from the shell history";
    }
  }
  return undefined;
}

const NAME_START = /[A-Za-z_]/;

// Unquoted characters that matter after quote removal: globs, braces, the tilde.
const SPECIAL = new Uint8Array(128);
for (const c of "*?[]{},~") SPECIAL[c.charCodeAt(0)] = 1;

/**
 * Accumulates one word from literal, quoted and unknown pieces, and makes of it the words bash makes
 * (expand.ts): `expand()` for argv positions (brace expansion), `build()` for one word (tildes only).
 */
export class WordBuilder {
  private value = "";
  private parts = 0;
  /** Positions in `value` of unquoted special characters (rare: most words have none). */
  private specials: number[] | undefined;
  private unquotedExpansion = false;
  private unknown = false;
  private pipe = false;
  private variableName: string | undefined;
  private loopValues: readonly Word[] | undefined;
  /** The pieces, for the words whose expansion is worked out piece by piece (a `{` or `~` in them). */
  private readonly segments: Segment[] = [];
  /** The word's text may brace-expand in a way its pieces do not show (see `opaqueBraces`). */
  private opaque = false;

  private segment(kind: number, meta?: ExpansionMeta): void {
    const last = this.segments[this.segments.length - 1];
    if (kind === U && last?.kind === U) this.segments[this.segments.length - 1] = { kind, end: this.value.length };
    else this.segments.push(meta ? { kind, end: this.value.length, meta } : { kind, end: this.value.length });
  }

  unquoted(text: string): void {
    const base = this.value.length;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 128 && SPECIAL[c] === 1) (this.specials ??= []).push(base + i);
    }
    this.value += text;
    this.parts++;
    this.segment(U);
  }

  quoted(text: string): void {
    this.value += text;
    this.parts++;
    this.segment(Q);
  }

  /** A character after a backslash outside quotes. */
  escaped(ch: string): void {
    this.value += ch;
    this.parts++;
    this.segment(E);
  }

  /**
   * An expansion or substitution whose value is not known here. `simple`: `$x`, `${x}`, `$1`, `$@`... (no
   * operator), whose text holds no quote, comma or brace for bash's brace scan to see.
   */
  expansion(quoted: boolean, simple = false): void {
    this.value += UNKNOWN;
    this.parts++;
    this.unknown = true;
    if (!quoted) this.unquotedExpansion = true;
    this.segment(simple ? X : C, { quoted });
  }

  /** `$NAME`: an expansion whose variable is known by name (and, in a `for` body, the words it takes). */
  variable(name: string, quoted: boolean, loopValues?: readonly Word[]): void {
    if (this.parts === 0) {
      this.variableName = name;
      this.loopValues = loopValues;
    }
    this.value += UNKNOWN;
    this.parts++;
    this.unknown = true;
    if (!quoted) this.unquotedExpansion = true;
    this.segment(X, { quoted, variable: name, ...(loopValues ? { loopValues } : {}) });
  }

  processSubstitution(): void {
    this.value += UNKNOWN;
    this.parts++;
    this.unknown = true;
    this.pipe = true;
    this.segment(C, { quoted: true, pipe: true });
  }

  /**
   * The parser saw text bash's brace scan reads differently from the shell's quoting (a backquote inside
   * double quotes next to a `{`): `expand()` then gives one word known only at run time.
   */
  opaqueBraces(): void {
    this.opaque = true;
  }

  get isEmpty(): boolean {
    return this.parts === 0;
  }

  /** Whether an unquoted `{` or `~` makes the piece-by-piece expansion necessary. */
  private expands(): boolean {
    const { specials, value } = this;
    if (!specials) return false;
    for (const i of specials) if (value[i] === "{" || value[i] === "~") return true;
    return false;
  }

  /**
   * The words of an argv position (a program's arguments, `for` lists, redirect targets): brace expansion,
   * then tildes located. Throws `BraceCap` past `MAX_BRACE_WORDS`.
   */
  expand(): Word[] {
    if (this.opaque)
      return [{ value: UNKNOWN, literal: false, splits: true, glob: false, tilde: undefined, pipe: false }];
    if (!this.expands()) return [this.plain()];
    return expandPieces(this.value, this.segments, "argument");
  }

  /** One word, not brace-expanded: an assignment's value (tildes after `:` too) or a here-string. */
  build(mode: "assignment" | "herestring" = "herestring"): Word {
    if (!this.expands()) return this.plain();
    return expandPieces(this.value, this.segments, mode)[0]!;
  }

  /** The common case: nothing to expand. */
  private plain(): Word {
    const { value, specials } = this;
    const glob = specials !== undefined && hasGlob(value, specials);
    return {
      value,
      literal: !this.unknown && !glob,
      splits: this.unquotedExpansion || glob,
      glob,
      tilde: undefined,
      pipe: this.pipe && this.parts === 1,
      ...(this.variableName !== undefined && this.parts === 1
        ? { variable: this.variableName, ...(this.loopValues ? { loopValues: this.loopValues } : {}) }
        : {}),
    };
  }
}

/** Unquoted `*` or `?`, or `[` ... `]` (a word with a `{` goes through expand.ts instead). */
function hasGlob(value: string, specials: readonly number[]): boolean {
  let open = false;
  for (const i of specials) {
    const ch = value[i];
    if (ch === "*" || ch === "?") return true;
    if (ch === "[") open = true;
    else if (ch === "]" && open) return true;
  }
  return false;
}

/**
 * Feeds unquoted word text (as written, backslashes included) into `b`. Returns a reason when the text holds
 * something an unquoted word cannot hold, which means the parser misread the line: quotes, unescaped
 * blanks or operators, an expansion the parser did not see, invisible characters.
 */
export function addUnquotedText(text: string, b: WordBuilder): string | undefined {
  let run = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\") {
      const next = text[i + 1];
      if (next === undefined) return "a word ends in a lone backslash";
      i++;
      if (next === "\n") continue;
      if (run) {
        b.unquoted(run);
        run = "";
      }
      b.escaped(next);
      continue;
    }
    if (
      ch === "'" ||
      ch === '"' ||
      ch === "`" ||
      ch === " " ||
      ch === "\t" ||
      ch === "\n" ||
      ch === ";" ||
      ch === "&" ||
      ch === "|" ||
      ch === "<" ||
      ch === ">" ||
      ch === "(" ||
      ch === ")"
    ) {
      return `unexpected \`${ch}\` inside a word`;
    }
    if (ch === "$") {
      const next = text[i + 1];
      if (next !== undefined && (NAME_START.test(next) || /[0-9{(['"@*#?$!-]/.test(next)))
        return "an expansion the parser did not recognise";
    }
    run += ch;
  }
  if (run) {
    if (INVISIBLE.test(run)) return "a word contains an invisible or space-like character outside quotes";
    b.unquoted(run);
  }
  return undefined;
}

/**
 * The text a here-document feeds, as a word (a shell reading it runs it). Literal when nothing in it
 * expands: a quoted delimiter, or no `$`, backquote or backslash. `<<-` strips leading tabs.
 */
export function heredocWord(body: string, strip: boolean, expand: boolean): Word {
  const value = strip ? body.replace(/^\t+/gm, "") : body;
  return {
    value,
    literal: !expand || !/[$`\\]/.test(value),
    splits: false,
    glob: false,
    tilde: undefined,
    pipe: false,
  };
}

/** Removes the backslashes bash removes inside double quotes (before `$`, `` ` ``, `"`, `\`, newline). */
export function unescapeDouble(text: string): string {
  if (!text.includes("\\")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length) {
      const next = text[i + 1]!;
      if (next === "$" || next === "`" || next === '"' || next === "\\") {
        out += next;
        i++;
        continue;
      }
      if (next === "\n") {
        i++;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

/** Decodes the body of `$'...'` (without the `$'` and `'`). Returns undefined for an escape it cannot decode. */
export function decodeAnsiC(body: string): string | undefined {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return undefined;
    const simple: Record<string, string> = {
      a: "\x07",
      b: "\b",
      e: "\x1b",
      E: "\x1b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?",
    };
    if (simple[e] !== undefined) {
      out += simple[e];
      continue;
    }
    if (/[0-7]/.test(e)) {
      let digits = e;
      while (digits.length < 3 && /[0-7]/.test(body[i + 1] ?? "")) digits += body[++i];
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      continue;
    }
    const width = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
    if (width > 0) {
      let digits = "";
      while (digits.length < width && /[0-9a-fA-F]/.test(body[i + 1] ?? "")) digits += body[++i];
      if (!digits) {
        out += "\\" + e;
        continue;
      }
      const cp = parseInt(digits, 16);
      if (cp > 0x10ffff) return undefined;
      out += String.fromCodePoint(cp);
      continue;
    }
    if (e === "c") {
      const c = body[++i];
      if (c === undefined) return undefined;
      out += String.fromCharCode(c.charCodeAt(0) & 0x1f);
      continue;
    }
    out += "\\" + e;
  }
  return out;
}
