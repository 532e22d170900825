/**
 * An independent lexical scan of a line for every place bash would run a command while expanding words:
 * `$(...)`, backquotes, `<(...)`/`>(...)` — in any word position, inside double quotes, `${...}` operands,
 * arithmetic and unquoted here-documents. The parsers must have analysed a substitution starting at each
 * such place; one they did not see (tree-sitter keeps `${x:-`cmd`}` as opaque text) makes the line
 * unparseable. The scan also caps brace expansion (`{a,b}{a,b}...` multiplies words until bash dies).
 *
 * The only text the scan skips is text bash never expands: single quotes and `$'...'` in command context
 * and in unquoted `${...}`, comments, escaped characters, bodies of here-documents with a quoted delimiter.
 * Where bash's quoting rules get subtle (a quote in `${...}` inside double quotes or in arithmetic, a
 * backslash inside backquotes, `case` inside `$(...)`, `$((` that is not arithmetic) the scan gives up,
 * and giving up is a refusal: the line is unparseable.
 */

/** Words one brace-expanded word may become before the line is refused. */
export const MAX_BRACE_WORDS = 10_000;
/** Nested quotes, substitutions, expansions and parentheses (the parsers' own cap is 64 statements). */
export const MAX_SCAN_DEPTH = 128;

export interface SubstitutionScan {
  /** Offsets of `$` of `$(`, of a backquote, of `<`/`>` of a process substitution. */
  readonly openers: number[];
  /** Why the scan could not follow the line, or why its brace expansion is too large. */
  readonly problem: string | undefined;
}

type Kind = "cmd" | "dq" | "param" | "arith" | "bracket" | "bq" | "heredoc";

interface Ctx {
  readonly kind: Kind;
  /** Open parentheses (cmd, arith), braces (param), brackets (bracket) inside this context. */
  depth: number;
  /** cmd: opened by `$(`/`<(`/`>(` (a `)` at depth 0 closes it); param: inside double quotes. */
  readonly nested: boolean;
  /** cmd: unquoted `{` of the current word not yet closed, with the commas seen at their level. */
  braces?: { start: number; commas: number }[];
  /** cmd: product of the brace alternatives of the current word. */
  braceWords?: number;
}

class GiveUp extends Error {}

/** Characters that end an unquoted word. */
const METACHAR = new Set([" ", "\t", "\n", ";", "&", "|", "<", ">", "(", ")"]);

/** Cheap test: nothing in the line can start a substitution or a brace expansion. */
const MAY_EXPAND = /[`{]|[$<>]\(|\$\[/;

export function scanSubstitutions(line: string): SubstitutionScan {
  if (!MAY_EXPAND.test(line)) return { openers: [], problem: undefined };
  const scanner = new Scanner(line);
  try {
    scanner.run(0, line.length, { kind: "cmd", depth: 0, nested: false });
    return { openers: scanner.openers, problem: undefined };
  } catch (e) {
    if (e instanceof GiveUp) return { openers: scanner.openers, problem: e.message };
    throw e;
  }
}

interface Heredoc {
  readonly delimiter: string;
  readonly strip: boolean;
  readonly quoted: boolean;
}

class Scanner {
  readonly openers: number[] = [];
  private pending: Heredoc[] = [];
  /** Where the current unquoted word started in command context (a `#` there starts a comment). */
  private boundary = 0;

  constructor(private readonly s: string) {}

  private giveUp(reason: string): never {
    throw new GiveUp(reason);
  }

  /** Scans `[from, to)` starting in `root`; returns where it stopped (`to`, or after a closing context). */
  run(from: number, to: number, root: Ctx): number {
    const s = this.s;
    const stack: Ctx[] = [root];
    let i = from;
    this.boundary = from;
    while (i < to) {
      const ctx = stack[stack.length - 1]!;
      if (stack.length + ctx.depth > MAX_SCAN_DEPTH) this.giveUp("the command is nested too deeply to analyse");
      const c = s[i]!;
      const next = s[i + 1];
      switch (ctx.kind) {
        case "bq":
          // bash ends backquotes at the first unescaped backquote, whatever quotes are inside.
          if (c === "\\") this.giveUp("a backslash inside backquotes cannot be analysed");
          if (c === "`") {
            stack.pop();
            i++;
            continue;
          }
          if ((c === "$" || c === "<" || c === ">") && next === "(") this.openers.push(i);
          i++;
          continue;
        case "dq":
        case "heredoc":
          if (c === "\\") {
            i += 2;
            continue;
          }
          if (c === '"' && ctx.kind === "dq") {
            stack.pop();
            i++;
            continue;
          }
          i = this.dollarOrBackquote(i, stack, true);
          continue;
        case "param":
          if (c === "\\") {
            i += 2;
            continue;
          }
          if (c === "}") {
            if (ctx.depth > 0) ctx.depth--;
            else stack.pop();
            i++;
            continue;
          }
          if (c === "{") {
            ctx.depth++;
            i++;
            continue;
          }
          if (c === '"') {
            stack.push({ kind: "dq", depth: 0, nested: false });
            i++;
            continue;
          }
          if (c === "'") {
            if (ctx.nested) this.giveUp("a quote inside `${...}` within double quotes cannot be analysed");
            i = this.singleQuoted(i, s[i - 1] === "$");
            continue;
          }
          i = this.expansionOrChar(i, stack);
          continue;
        case "arith":
        case "bracket": {
          if (c === "'" || c === '"' || c === "\\")
            this.giveUp("quotes or backslashes inside arithmetic cannot be analysed");
          const open = ctx.kind === "arith" ? "(" : "[";
          const close = ctx.kind === "arith" ? ")" : "]";
          if (c === open) {
            ctx.depth++;
            i++;
            continue;
          }
          if (c === close) {
            if (ctx.depth > 0) {
              ctx.depth--;
              i++;
              continue;
            }
            if (ctx.kind === "arith") {
              // `$((a) )` is a command substitution holding a subshell to bash, not arithmetic.
              if (next !== ")") this.giveUp("`((` that is not arithmetic cannot be analysed");
              i++;
            }
            stack.pop();
            i++;
            continue;
          }
          i = this.expansionOrChar(i, stack);
          continue;
        }
        case "cmd":
          i = this.command(i, ctx, stack);
          if (stack.length === 0) return i;
          continue;
      }
    }
    if (stack.length > 1) this.giveUp("a quote, substitution or expansion is not closed");
    return i;
  }

  /** One step in command context. */
  private command(i: number, ctx: Ctx, stack: Ctx[]): number {
    const s = this.s;
    const c = s[i]!;
    const next = s[i + 1];
    if (METACHAR.has(c)) {
      ctx.braces = undefined;
      ctx.braceWords = 1;
      this.boundary = i + 1;
    }
    switch (c) {
      case "\\":
        return i + 2;
      case "'":
        return this.singleQuoted(i, false);
      case '"':
        stack.push({ kind: "dq", depth: 0, nested: false });
        return i + 1;
      case "#":
        if (i === this.boundary) {
          const nl = s.indexOf("\n", i);
          return nl < 0 ? s.length : nl;
        }
        return i + 1;
      case "\n":
        return (this.boundary = this.heredocBodies(i + 1));
      case "(":
        if (next === "(") {
          stack.push({ kind: "arith", depth: 0, nested: false });
          return i + 2;
        }
        ctx.depth++;
        return i + 1;
      case ")":
        if (ctx.depth > 0) ctx.depth--;
        else if (ctx.nested) stack.pop();
        return i + 1;
      case "<":
      case ">":
        if (next === "(") {
          this.openers.push(i);
          stack.push({ kind: "cmd", depth: 0, nested: true });
          return (this.boundary = i + 2);
        }
        if (c === "<" && next === "<") {
          if (s[i + 2] === "<") return i + 3;
          return this.heredocStart(i + 2);
        }
        return i + 1;
      case "{":
        (ctx.braces ??= []).push({ start: i, commas: 0 });
        return i + 1;
      case ",": {
        const top = ctx.braces?.[ctx.braces.length - 1];
        if (top) top.commas++;
        return i + 1;
      }
      case "}": {
        const top = ctx.braces?.pop();
        if (top) this.brace(ctx, top.start, i, top.commas);
        return i + 1;
      }
      case "c":
        // `case x in a) ...` inside `$(...)`: its `)` would end the substitution here but not in bash.
        if (
          ctx.nested &&
          s.startsWith("case", i) &&
          i === this.boundary &&
          (i + 4 >= s.length || METACHAR.has(s[i + 4]!))
        )
          this.giveUp("`case` inside a substitution cannot be analysed");
        return i + 1;
      case "$":
        if (next === "'") return this.singleQuoted(i + 1, true);
        return this.dollarOrBackquote(i, stack, false);
      case "`":
        return this.dollarOrBackquote(i, stack, false);
      default:
        return i + 1;
    }
  }

  /** A process substitution `<(`/`>(` at `i` (pushes its context), else as `dollarOrBackquote`. */
  private expansionOrChar(i: number, stack: Ctx[]): number {
    const c = this.s[i];
    if ((c === "<" || c === ">") && this.s[i + 1] === "(") {
      this.openers.push(i);
      stack.push({ kind: "cmd", depth: 0, nested: true });
      return i + 2;
    }
    return this.dollarOrBackquote(i, stack, false);
  }

  /** `$(`, `$((`, `${`, `$[` or a backquote at `i` (pushes its context); anything else is one character. */
  private dollarOrBackquote(i: number, stack: Ctx[], quoted: boolean): number {
    const s = this.s;
    const c = s[i];
    if (c === "`") {
      this.openers.push(i);
      stack.push({ kind: "bq", depth: 0, nested: false });
      return i + 1;
    }
    if (c !== "$") return i + 1;
    const next = s[i + 1];
    if (next === "(") {
      if (s[i + 2] === "(") {
        stack.push({ kind: "arith", depth: 0, nested: false });
        return i + 3;
      }
      this.openers.push(i);
      stack.push({ kind: "cmd", depth: 0, nested: true });
      return (this.boundary = i + 2);
    }
    if (next === "{") {
      stack.push({
        kind: "param",
        depth: 0,
        nested: quoted || stack.some((x) => x.kind === "dq" || x.kind === "heredoc"),
      });
      return i + 2;
    }
    if (next === "[") {
      stack.push({ kind: "bracket", depth: 0, nested: false });
      return i + 2;
    }
    return i + 1;
  }

  /** A single-quoted string (`ansi`: `$'...'`, where `\'` does not end it) starting at the quote `i`. */
  private singleQuoted(i: number, ansi: boolean): number {
    const s = this.s;
    let j = i + 1;
    for (; j < s.length; j++) {
      if (s[j] === "'") return j + 1;
      if (ansi && s[j] === "\\") j++;
    }
    return this.giveUp("a quote is not closed");
  }

  /** After `<<` or `<<-`: reads the delimiter word and queues its body. */
  private heredocStart(i: number): number {
    const s = this.s;
    let strip = false;
    if (s[i] === "-") {
      strip = true;
      i++;
    }
    while (s[i] === " " || s[i] === "\t") i++;
    let raw = "";
    let delimiter = "";
    while (i < s.length && !METACHAR.has(s[i]!)) {
      const ch = s[i]!;
      if (ch === "'" || ch === '"') {
        const close = s.indexOf(ch, i + 1);
        if (close < 0) this.giveUp("a quote is not closed");
        raw += s.slice(i, close + 1);
        delimiter += s.slice(i + 1, close);
        i = close + 1;
        continue;
      }
      if (ch === "\\") {
        raw += s.slice(i, i + 2);
        delimiter += s[i + 1] ?? "";
        i += 2;
        continue;
      }
      if (ch === "$" || ch === "`") this.giveUp("a here-document delimiter with an expansion cannot be analysed");
      raw += ch;
      delimiter += ch;
      i++;
    }
    if (delimiter === "") this.giveUp("a here-document has no delimiter");
    this.pending.push({ delimiter, strip, quoted: /['"\\]/.test(raw) });
    return i;
  }

  /** At the start of a line: the bodies of the here-documents the previous line started. */
  private heredocBodies(i: number): number {
    const s = this.s;
    const pending = this.pending;
    this.pending = [];
    for (const h of pending) {
      const bodyStart = i;
      let bodyEnd = s.length;
      let after = s.length;
      while (i < s.length) {
        let end = s.indexOf("\n", i);
        if (end < 0) end = s.length;
        let text = s.slice(i, end);
        if (h.strip) text = text.replace(/^\t+/, "");
        if (text === h.delimiter) {
          bodyEnd = i;
          after = Math.min(end + 1, s.length);
          break;
        }
        i = end + 1;
      }
      if (!h.quoted && bodyEnd > bodyStart) this.run(bodyStart, bodyEnd, { kind: "heredoc", depth: 0, nested: false });
      i = after;
    }
    return i;
  }

  /** A closed unquoted group `{...}` from `start` to `end`: multiplies the words of the current word. */
  private brace(ctx: Ctx, start: number, end: number, commas: number): void {
    let alternatives = commas + 1;
    if (commas === 0) {
      if (end - start > 48) return;
      const m = /^\{(-?\d+)\.\.(-?\d+)(?:\.\.-?\d+)?\}$|^\{[A-Za-z]\.\.[A-Za-z](?:\.\.-?\d+)?\}$/.exec(
        this.s.slice(start, end + 1),
      );
      if (!m) return;
      alternatives = m[1] !== undefined ? Math.abs(Number(m[2]) - Number(m[1])) + 1 : 58;
    }
    ctx.braceWords = (ctx.braceWords ?? 1) * alternatives;
    if (!(ctx.braceWords <= MAX_BRACE_WORDS))
      this.giveUp(`the brace expansion makes more than ${MAX_BRACE_WORDS} words`);
  }
}
