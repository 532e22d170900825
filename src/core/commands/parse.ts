/**
 * tree-sitter-bash syntax tree → the flat model (model.ts).
 *
 * The grammar is not bash: it recovers from errors, and some of its leaves keep shell syntax in their text
 * (`\rm` is a `word` whose text holds the backslash). So every leaf is re-read by our own lexical rules
 * (words.ts), any node type not handled here makes the line unparseable, and the walk goes on after a
 * failure only to collect commands for deny rules (a denied program must be found even in a broken line).
 *
 * Caps (each makes the line unparseable): 20,000 syntax nodes, nesting depth 64, 500 simple commands.
 */
import type { Parser, Tree, TreeCursor } from "web-tree-sitter";
import type { SourceSpan } from "../types";
import {
  emptyScript,
  literalWord,
  UNKNOWN,
  unknownWord,
  type Assignment,
  type Redirect,
  type RedirectOp,
  type Script,
  type SimpleCommand,
  type Word,
} from "./model";
import { addUnquotedText, decodeAnsiC, heredocWord, unescapeDouble, WordBuilder } from "./words";
import { BraceCap } from "./expand";
import { MAX_BRACE_WORDS } from "./substitutionScan";

export const MAX_NODES = 20_000;
/**
 * Parser progress checks (tree-sitter calls back about every hundred parse operations) before a parse is
 * cancelled: what a few kilobytes of dense shell cost, a few milliseconds. Counted, not timed, so the same
 * line always gets the same answer. Here-document bodies and quoted text cost almost nothing.
 */
export const MAX_PARSE_CHECKS = 32;
export const MAX_DEPTH = 64;
export const MAX_COMMANDS = 500;

interface TNode {
  readonly type: string;
  readonly named: boolean;
  readonly start: number;
  readonly end: number;
  readonly missing: boolean;
  readonly children: TNode[];
}

class CapError extends Error {}

/** Nodes whose whole text the walker reads itself (so text between their children is accounted for). */
const READ_WHOLE = new Set([
  "string",
  "heredoc_body",
  "expansion",
  "raw_string",
  "ansi_c_string",
  "comment",
  "heredoc_start",
  "heredoc_end",
]);
const BLANK = /^(?:[ \t\n]|\\\n)*$/;
const SCOPES = new Set(["command_substitution", "process_substitution"]);

/**
 * Copies the tree into plain objects in one cursor pass (each cursor step is a call into wasm), and checks
 * that every non-blank character of the line is inside some node: tree-sitter can silently drop a word
 * (`- 2>&1` loses the `-`), and a dropped word could be a program.
 */
function toPlain(tree: Tree, text: string): TNode {
  const cursor: TreeCursor = tree.walk();
  let covered = 0;
  const checkGap = (from: number, to: number): void => {
    if (to <= from) return;
    const gap = text.slice(from, to);
    if (!BLANK.test(gap)) throw new CapError("the parser skipped part of the command");
    // `a\<newline>b` is the one word `ab` to bash; tree-sitter makes two words of it (`r\<newline>m x`
    // would hide `rm`). A line continuation is only a separator after a blank.
    if (gap.startsWith("\\\n") && from > 0) throw new CapError("a line continuation inside a word cannot be analysed");
  };
  const cover = (n: TNode): void => {
    checkGap(covered, n.start);
    if (n.end > covered) covered = n.end;
  };
  // Substitutions are checked on their own, even inside a string or expansion whose text counts as read.
  const scopes: { node: TNode; saved: number }[] = [];
  const enter = (n: TNode): void => {
    if (SCOPES.has(n.type)) {
      scopes.push({ node: n, saved: covered });
      covered = n.start;
    } else if (READ_WHOLE.has(n.type)) cover(n);
  };
  const leave = (n: TNode): void => {
    const top = scopes[scopes.length - 1];
    if (top?.node !== n) return;
    scopes.pop();
    checkGap(covered, n.end);
    covered = Math.max(top.saved, n.end);
  };
  try {
    const make = (): TNode => {
      const n: TNode = {
        type: cursor.nodeType,
        named: cursor.nodeIsNamed,
        start: cursor.startIndex,
        end: cursor.endIndex,
        missing: cursor.nodeIsMissing,
        children: [],
      };
      enter(n);
      return n;
    };
    const root = make();
    const stack: TNode[] = [root];
    let count = 1;
    outer: for (;;) {
      if (cursor.gotoFirstChild()) {
        const child = make();
        stack[stack.length - 1]!.children.push(child);
        stack.push(child);
        if (++count > MAX_NODES || stack.length > MAX_DEPTH * 4)
          throw new CapError("the command is too large or too deeply nested to analyse");
        continue;
      }
      // A leaf.
      cover(stack[stack.length - 1]!);
      for (;;) {
        leave(stack.pop()!);
        if (stack.length === 0) break outer;
        if (cursor.gotoNextSibling()) {
          const sibling = make();
          stack[stack.length - 1]!.children.push(sibling);
          stack.push(sibling);
          if (++count > MAX_NODES) throw new CapError("the command is too large to analyse");
          continue outer;
        }
        cursor.gotoParent();
      }
    }
    if (!BLANK.test(text.slice(covered))) throw new CapError("the parser skipped part of the command");
    return root;
  } finally {
    cursor.delete();
  }
}

/** Parses `text` with tree-sitter and flattens it. Never throws. */
export function parseWithTreeSitter(parser: Parser, text: string): Script {
  const script = emptyScript();
  let tree: Tree | null = null;
  try {
    let checks = 0;
    tree = parser.parse(text, null, { progressCallback: () => ++checks > MAX_PARSE_CHECKS });
    if (!tree) {
      // A cancelled parse would otherwise be resumed by the next call, whatever text that call passes.
      parser.reset();
      script.unparseable =
        checks > MAX_PARSE_CHECKS ? "the command is too large to analyse" : "the shell parser gave up on this command";
      return script;
    }
    // Any ERROR or MISSING node anywhere, whether or not the walk below visits it.
    if (tree.rootNode.hasError) script.unparseable = "the command has a syntax error";
    const root = toPlain(tree, text);
    new Walker(text, script).statement(root);
  } catch (e) {
    script.unparseable ??= e instanceof CapError ? e.message : "the command could not be analysed";
  } finally {
    tree?.delete();
  }
  return script;
}

const STATEMENT_CONTAINERS = new Set([
  "program",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "do_group",
  "if_statement",
  "elif_clause",
  "else_clause",
  "negated_command",
]);
const STATEMENTS = new Set([
  ...STATEMENT_CONTAINERS,
  "command",
  "redirected_statement",
  "variable_assignment",
  "variable_assignments",
  "declaration_command",
  "unset_command",
  "test_command",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
  "function_definition",
]);
const WORDS = new Set([
  "word",
  "string",
  "raw_string",
  "ansi_c_string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
  "number",
  "translated_string",
  "arithmetic_expansion",
  "brace_expression",
]);
const REDIRECTS = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"]);
const RESERVED_WORDS = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "select",
  "while",
  "until",
  "do",
  "done",
  "function",
  "in",
  "[[",
  "]]",
]);
const REDIRECT_OPS = new Set<string>([">", ">>", ">|", "&>", "&>>", "<", "<>", ">&", "<&"]);

/** What of a here-document redirect is on the command's own line: its operator, delimiter, redirects and words. */
function onCommandLine(n: TNode): boolean {
  return (
    n.type === "<<" ||
    n.type === "<<-" ||
    n.type === "heredoc_start" ||
    n.type === "file_descriptor" ||
    REDIRECTS.has(n.type) ||
    WORDS.has(n.type)
  );
}

/** The span of a simple command written as `nodes` (see `SimpleCommand.span`): here-document bodies left out. */
function spanOf(nodes: readonly TNode[]): SourceSpan | undefined {
  let start = Number.POSITIVE_INFINITY;
  let end = -1;
  const visit = (n: TNode): void => {
    if (n.type === "heredoc_redirect") {
      for (const c of n.children) if (onCommandLine(c)) visit(c);
      return;
    }
    if (n.start < start) start = n.start;
    if (n.end > end) end = n.end;
  };
  for (const n of nodes) visit(n);
  return end < 0 ? undefined : { start, end };
}

/** `${x}`, `${1}`, `${@}`: no operator, so no text bash's brace scan could read. */
const SIMPLE_EXPANSION = /^\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])\}$/;

class Walker {
  private depth = 0;
  /** Words brace expansion added to the line so far (capped like one word's). */
  private braceWords = 0;
  /** The word being read has a backquote substitution holding `"` inside double quotes (see `expanded`). */
  private quotedBackquote = false;
  private repeated = false;
  /** The `for` loops whose body is being read, outermost first. */
  private readonly loopScopes: LoopScope[] = [];

  constructor(
    private readonly text: string,
    private readonly script: Script,
  ) {}

  private fail(reason: string): void {
    this.script.unparseable ??= reason;
  }

  /** Text known only at run time is evaluated as code here (see `Script.dynamic`). */
  private dynamic(reason: string): void {
    (this.script.dynamic ??= []).push(reason);
  }

  private src(n: TNode): string {
    return this.text.slice(n.start, n.end);
  }

  private emit(command: SimpleCommand): void {
    if (this.script.commands.length >= MAX_COMMANDS)
      throw new CapError(`the command has more than ${MAX_COMMANDS} parts`);
    this.script.commands.push(command);
  }

  statement(n: TNode): void {
    if (++this.depth > MAX_DEPTH) throw new CapError("the command is nested too deeply to analyse");
    try {
      this.statementInner(n);
    } finally {
      this.depth--;
    }
  }

  private statementInner(n: TNode): void {
    if (n.missing) this.fail("the command is incomplete");
    switch (n.type) {
      case "ERROR":
        this.fail("the command has a syntax error");
        this.salvage(n);
        return;
      case "comment":
        return;
      case "compound_statement":
        if (n.children[0]?.type === "((") {
          for (const c of n.children) if (c.named) this.arithmetic(c);
          return;
        }
        return this.children(n);
      case "command":
        return this.command(n, []);
      case "redirected_statement":
        return this.redirected(n);
      case "variable_assignment":
        return this.emit({
          assignments: [this.assignment(n)],
          words: [],
          redirects: [],
          repeated: this.repeated,
          span: spanOf([n]),
        });
      case "variable_assignments":
        return this.emit({
          assignments: n.children.filter((c) => c.type === "variable_assignment").map((c) => this.assignment(c)),
          words: [],
          redirects: [],
          repeated: this.repeated,
          span: spanOf([n]),
        });
      case "declaration_command":
      case "unset_command":
        return this.declaration(n);
      case "test_command":
        return this.test(n);
      case "while_statement":
      case "for_statement":
      case "c_style_for_statement":
        return this.loop(n);
      case "case_statement":
        return this.caseStatement(n);
      case "function_definition":
        return this.functionDefinition(n);
      default:
        if (STATEMENT_CONTAINERS.has(n.type)) return this.children(n);
        this.fail(`unexpected shell construct \`${n.type}\``);
        this.salvage(n);
    }
  }

  private children(n: TNode): void {
    for (const c of n.children) {
      if (!c.named) {
        if (c.missing) this.fail("the command is incomplete");
        continue;
      }
      this.statement(c);
    }
  }

  /** After a failure: walk everything, keeping any command found (for deny rules). */
  private salvage(n: TNode): void {
    for (const c of n.children) {
      if (STATEMENTS.has(c.type)) this.statement(c);
      else if (c.type === "command_substitution" || c.type === "process_substitution") this.substitution(c);
      else this.salvage(c);
    }
  }

  private withRepeated(f: () => void): void {
    const before = this.repeated;
    this.repeated = true;
    try {
      f();
    } finally {
      this.repeated = before;
    }
  }

  private redirected(n: TNode): void {
    const body = n.children.find((c) => c.named && !REDIRECTS.has(c.type));
    const redirectNodes = n.children.filter((c) => REDIRECTS.has(c.type));
    if (n.children.some((c) => c.named && c !== body && !REDIRECTS.has(c.type))) this.fail("unexpected redirect");
    this.sameLine(n.children.filter((c) => c.named));
    if (body?.type === "command") return this.command(body, redirectNodes);
    if (body) this.statement(body);
    const last = this.script.commands.length - 1;
    const redirects: Redirect[] = [];
    const after: TNode[] = [];
    const extraWords: Word[] = [];
    for (const r of redirectNodes) this.redirect(r, redirects, extraWords, after);
    let tail = body;
    while (tail && (tail.type === "pipeline" || tail.type === "list"))
      tail = tail.children.filter((c) => c.named).pop();
    if (tail !== body && tail?.type === "command" && last >= 0) {
      // tree-sitter hangs `a | b > f x` as `(a | b) > f x` (also for `&&`, `||`); in bash the redirect and
      // `x` belong to `b`.
      // It runs after the substitutions in what was just read: move it after them.
      const target = this.script.commands.splice(last, 1)[0]!;
      const moved = spanOf(redirectNodes);
      this.script.commands.push({
        ...target,
        words: [...target.words, ...extraWords],
        redirects: [...target.redirects, ...redirects],
        ...(target.span && moved
          ? { span: { start: target.span.start, end: Math.max(target.span.end, moved.end) } }
          : {}),
      });
    } else {
      if (extraWords.length > 0) this.fail("unexpected redirect");
      this.emit({ assignments: [], words: [], redirects, repeated: this.repeated, span: spanOf(redirectNodes) });
    }
    for (const s of after) this.statement(s);
  }

  /**
   * A simple command never continues past an unescaped newline. tree-sitter-bash sometimes glues the next
   * line onto a command (`a | b | c` newline `d > f` makes `d` an argument of `c`), which would hide `d`.
   */
  private sameLine(nodes: readonly TNode[]): void {
    for (let i = 1; i < nodes.length; i++) {
      const prev = nodes[i - 1]!;
      const next = nodes[i]!;
      if (next.type === "heredoc_body" || next.type === "heredoc_end" || prev.type === "comment") continue;
      if (this.text.slice(prev.end, next.start).replace(/\\\n/g, "").includes("\n"))
        this.fail("the parser joined two lines into one command");
    }
  }

  private command(n: TNode, outerRedirects: readonly TNode[]): void {
    this.sameLine([...n.children, ...outerRedirects]);
    const assignments: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    const after: TNode[] = [];
    // `{NAME}` right before a redirect: an assignment bash makes before the command runs (see fdVariable).
    const fdVariables: Assignment[] = [];
    const named = n.children.filter((c) => c.named);
    const position = new Map(named.map((c, i) => [c, i]));
    const nextOf = (c: TNode): TNode | undefined => named[(position.get(c) ?? named.length) + 1] ?? outerRedirects[0];
    // `at` is the command's own child holding the word (the `command_name` around a program word).
    const argument = (c: TNode, at = c): void => {
      const ws = this.words(c);
      const fdv = this.fdVariable(at, nextOf(at));
      if (fdv) fdVariables.push(fdv);
      else words.push(...ws);
    };
    // tree-sitter splits some words in two (`{,}\{x`, `a=$X/b`) or keeps a piece outside any word (`=~x`):
    // nodes with no blank between them are one word to bash.
    let group: TNode[] = [];
    let groupAt: TNode | undefined;
    const flush = (): void => {
      if (group.length === 1) argument(group[0]!, groupAt);
      else if (group.length > 1) words.push(...this.joined(group));
      group = [];
    };
    const piece = (c: TNode, at: TNode): void => {
      const prev = group[group.length - 1];
      if (prev && prev.end !== c.start) flush();
      if (group.length === 0) groupAt = at;
      group.push(c);
    };
    let assignmentEnd = -1;
    for (const c of n.children) {
      // An assignment's value runs to the next blank: a node right after it is part of it to bash.
      if (c.start === assignmentEnd && c.end > c.start) this.fail("the parser split one word in two");
      if (!c.named) {
        if (c.missing) this.fail("the command is incomplete");
        else if (c.end > c.start) piece(c, c);
        continue;
      }
      if (c.type === "variable_assignment") {
        flush();
        assignmentEnd = c.end;
        assignments.push(this.assignment(c));
      } else if (c.type === "command_name") {
        flush();
        const parts = c.children.filter((x) => x.named);
        if (parts.length !== 1) this.fail("unexpected program name");
        // An unquoted reserved word is never a program to bash: tree-sitter misread the line (`! { ...; }`).
        if (parts[0]?.type === "word" && RESERVED_WORDS.has(this.src(parts[0])))
          this.fail("the parser misread a reserved word as a program");
        for (const p of parts) piece(p, c);
      } else if (REDIRECTS.has(c.type)) {
        flush();
        this.redirect(c, redirects, words, after);
      } else if (WORDS.has(c.type)) piece(c, c);
      else {
        flush();
        this.fail(c.type === "ERROR" ? "the command has a syntax error" : `unexpected \`${c.type}\` in a command`);
        this.salvage(c);
      }
    }
    flush();
    for (const r of outerRedirects) this.redirect(r, redirects, words, after);
    if (fdVariables.length > 0)
      this.emit({ assignments: fdVariables, words: [], redirects: [], repeated: this.repeated, span: spanOf([n]) });
    this.emit({
      assignments,
      words,
      redirects,
      repeated: this.repeated,
      span: spanOf([...n.children, ...outerRedirects]),
    });
    for (const s of after) this.statement(s);
  }

  /**
   * bash reads `{NAME}` written right before a redirect operator (`ls {fd}<f`, `exec {a[i]}>f`) as "open the
   * descriptor and store its number in NAME", not as an argument, which is how tree-sitter reads it. It is an
   * assignment to NAME (an index there is arithmetic, which can run commands), made before the command runs.
   */
  private fdVariable(c: TNode, next: TNode | undefined): Assignment | undefined {
    if (!next || !REDIRECTS.has(next.type) || next.start !== c.end) return undefined;
    if (next.children.some((x) => x.type === "file_descriptor")) return undefined;
    const m = /^\{([A-Za-z_][A-Za-z0-9_]*)(\[.*\])?\}$/s.exec(this.src(c));
    if (!m) return undefined;
    const index = m[2];
    if (index !== undefined && !/^\[(\d+|@|\*)\]$/.test(index))
      this.dynamic("an array index is evaluated as arithmetic, which can run commands");
    return { name: `${m[1]!}${index ?? ""}`, value: unknownWord(false) };
  }

  /**
   * Adds one redirect to `out`. tree-sitter hangs what follows a here-document's start line (`| sh`,
   * `> out`, `&& ls`, extra arguments) under the heredoc node: those go to `words`, `out` and `after`.
   */
  private redirect(n: TNode, out: Redirect[], words: Word[] | undefined, after: TNode[]): void {
    if (n.type === "herestring_redirect") {
      const target = n.children.filter((c) => c.named && c.type !== "file_descriptor");
      if (target.length !== 1) this.fail("unexpected here-string");
      out.push({
        op: "<<<",
        fd: this.fd(n),
        target: target[0] ? this.word(target[0], "herestring") : literalWord(""),
      });
      return;
    }
    if (n.type === "heredoc_redirect") {
      const op = n.children.find((c) => !c.named && (c.type === "<<" || c.type === "<<-"));
      const start = n.children.find((c) => c.type === "heredoc_start");
      // A quoted delimiter makes the body literal; otherwise it is expanded like a double-quoted string.
      const expanded = start !== undefined && !/['"\\]/.test(this.src(start));
      // The body runs from the line after the command line to the line of the delimiter.
      const body = n.children.find((c) => c.type === "heredoc_body");
      const end = n.children.find((c) => c.type === "heredoc_end");
      const lineStart = (pos: number): number => this.text.lastIndexOf("\n", pos - 1) + 1;
      const text = body && end ? this.text.slice(lineStart(body.start), lineStart(end.start)) : "";
      // bash ends the body only at a line that is exactly the delimiter; where tree-sitter ends it elsewhere
      // (`EOF ; ls` or inside `$( )`), what bash expands is not what tree-sitter shows.
      if (start && end) {
        const strip = (l: string): string => (op?.type === "<<-" ? l.replace(/^\t+/, "") : l);
        const delimiter = this.src(start).replace(/['"\\]/g, "");
        const endLineStart = lineStart(end.start);
        const endLineEnd = this.text.indexOf("\n", end.start);
        const endLine = strip(this.text.slice(endLineStart, endLineEnd < 0 ? this.text.length : endLineEnd));
        if (endLine !== delimiter || text.split("\n").some((l) => strip(l).startsWith(delimiter)))
          this.fail("a here-document ends where bash would not end it");
      }
      out.push({
        op: op?.type === "<<-" ? "<<-" : "<<",
        fd: this.fd(n),
        target: heredocWord(text, op?.type === "<<-", expanded),
      });
      for (const c of n.children) {
        if (!c.named) continue;
        if (c.type === "heredoc_body") {
          if (expanded) this.heredocBody(c);
          this.nested(c);
        } else if (c.type === "heredoc_start" || c.type === "heredoc_end" || c.type === "file_descriptor") continue;
        else if (REDIRECTS.has(c.type)) this.redirect(c, out, words, after);
        else if (WORDS.has(c.type) && words) words.push(...this.words(c));
        else if (STATEMENTS.has(c.type)) after.push(c);
        else {
          this.fail(`unexpected \`${c.type}\` in a here-document`);
          this.salvage(c);
        }
      }
      return;
    }
    // file_redirect: [descriptor] operator destination
    this.sameLine(n.children);
    let op: string | undefined;
    const targets: TNode[] = [];
    for (const c of n.children) {
      if (c.type === "file_descriptor") continue;
      if (!c.named) {
        if (op === undefined) op = c.type;
        else this.fail("unexpected redirect");
      } else if (WORDS.has(c.type)) targets.push(c);
      else {
        this.fail(`unexpected \`${c.type}\` in a redirect`);
        this.salvage(c);
      }
    }
    if (op === ">&-" || op === "<&-") {
      out.push({ op: op === ">&-" ? ">&" : "<&", fd: this.fd(n), target: literalWord("-") });
      // Words after `2>&-` are arguments of the command (tree-sitter hangs them on the redirect).
      if (targets.length > 0 && !words) this.fail("unexpected redirect");
      for (const t of targets) words?.push(...this.words(t));
      return;
    }
    if (op === undefined || !REDIRECT_OPS.has(op) || targets.length === 0 || (targets.length > 1 && !words)) {
      this.fail("unexpected redirect");
      for (const t of targets) this.word(t);
      return;
    }
    // bash brace-expands a target and refuses one that becomes several words ("ambiguous redirect").
    const [first, ...rest] = this.adjacent(targets);
    const target = this.joined(first!);
    if (target.length !== 1) this.fail("a redirect target brace-expands to several words");
    out.push({ op: op as RedirectOp, fd: this.fd(n), target: target[0] ?? literalWord("") });
    // tree-sitter hangs the words after `> f` on the redirect; in bash they are arguments of the command.
    if (rest.length > 0 && !words) this.fail("unexpected redirect");
    for (const t of rest) words?.push(...this.joined(t));
  }

  /** tree-sitter does not see backquotes (and some other expansions) in here-document bodies: refuse them. */
  private heredocBody(n: TNode): void {
    let pos = n.start;
    const gaps: string[] = [];
    for (const c of n.children) {
      if (c.type === "heredoc_content") continue;
      gaps.push(this.text.slice(pos, c.start));
      pos = c.end;
    }
    gaps.push(this.text.slice(pos, n.end));
    for (const g of gaps) {
      if (/(^|[^\\])(\\\\)*(`|\$[({[])/.test(g))
        this.fail("a here-document contains a substitution Toolgate cannot analyse");
    }
  }

  private fd(n: TNode): number | undefined {
    const d = n.children.find((c) => c.type === "file_descriptor");
    if (!d) return undefined;
    const v = Number(this.src(d));
    if (!Number.isInteger(v)) this.fail("unexpected file descriptor");
    return v;
  }

  private assignment(n: TNode, associative = false): Assignment {
    const named = n.children.filter((c) => c.named);
    const nameNode = named[0];
    let name = nameNode ? this.src(nameNode) : "";
    if (nameNode?.type === "subscript") {
      this.subscript(nameNode);
    } else if (nameNode?.type !== "variable_name") {
      this.fail("unexpected assignment");
      name = "";
    }
    const valueNode = named[1];
    if (named.length > 2) this.fail("unexpected assignment");
    let value = literalWord("");
    if (valueNode) {
      if (valueNode.type === "array") {
        for (const el of valueNode.children) {
          if (!el.named) continue;
          this.arrayElementIndex(el, associative);
          this.word(el);
        }
        const b = new WordBuilder();
        b.expansion(false);
        value = b.build();
      } else if (WORDS.has(valueNode.type)) value = this.word(valueNode, "assignment");
      else {
        this.fail(`unexpected \`${valueNode.type}\` in an assignment`);
        this.salvage(valueNode);
      }
    }
    return { name, value };
  }

  private subscript(n: TNode): void {
    const index = n.children.filter((c) => c.named).slice(1);
    const text = index.map((c) => this.src(c)).join("");
    if (!/^(\d+|@|\*)$/.test(text)) this.dynamic("an array index is evaluated as arithmetic, which can run commands");
    for (const c of index) this.nested(c);
  }

  /**
   * `[INDEX]=value` in an array literal: an indexed array evaluates INDEX as arithmetic, so a name or an
   * expansion there can run commands (`b=([$x]=1)`). An associative array (`declare -A`) only expands it.
   */
  private arrayElementIndex(el: TNode, associative: boolean): void {
    const m = /^\[([^\]]*)\]\+?=/s.exec(this.src(el));
    if (!m) return;
    const index = m[1] ?? "";
    if (/^(\d+|@|\*)$/.test(index)) return;
    if (associative && /^[A-Za-z0-9_.:/@%+,-]+$/.test(index)) return;
    this.dynamic("an array index is evaluated as arithmetic, which can run commands");
  }

  /**
   * A declaration's value that bash reads as a compound array assignment at run time: a value starting with
   * `(` that is not array syntax (`declare -a a='([0]=$(cmd))'`, `declare -a a=$x`) is parsed again, and its
   * expansions run. That happens with `-a`/`-A`, and for `declare`/`typeset`/`local` also when the name is
   * already an array, which the line may have made anywhere (or bash itself: `PIPESTATUS`, `BASH_REMATCH`).
   */
  private compoundFromValue(keyword: string, flags: string, value: Word): void {
    const first = value.value[0];
    if (first !== "(" && first !== UNKNOWN) return;
    if (/[aA]/.test(flags) || keyword === "declare" || keyword === "typeset" || keyword === "local")
      this.dynamic(`\`${keyword}\` may read a value computed or quoted here as an array, running what it contains`);
  }

  /** `export/declare/local/readonly/typeset/unset ...` as argv, `NAME=value` rebuilt as one word. */
  private declaration(n: TNode): void {
    const words: Word[] = [];
    const keyword = n.children.find((c) => !c.named);
    const name = keyword?.type ?? "";
    words.push(literalWord(name));
    // Option letters seen so far (`-a`, `-gA`): they apply to every name after them.
    let flags = "";
    for (const c of n.children) {
      if (!c.named) continue;
      if (c.type === "variable_assignment") {
        const parts = c.children.filter((x) => x.named);
        const valueNode = parts[1];
        if (parts.length === 2 && parts[0]!.type === "variable_name" && valueNode && WORDS.has(valueNode.type)) {
          // An argument like any other to bash: `export A={a,b}` exports `A=a` then `A=b`.
          const b = new WordBuilder();
          b.unquoted(this.text.slice(c.start, valueNode.start));
          this.part(valueNode, b, false);
          for (const w of this.expanded(b, this.src(c))) {
            this.compoundFromValue(name, flags, { ...w, value: w.value.slice(w.value.indexOf("=") + 1) });
            words.push(w);
          }
          continue;
        }
        const a = this.assignment(c, flags.includes("A"));
        if (c.children.filter((x) => x.named)[1]?.type !== "array") this.compoundFromValue(name, flags, a.value);
        const eq = this.text.slice(c.start, c.end).indexOf("=");
        const op = this.text[c.start + eq - 1] === "+" ? "+=" : "=";
        const b = new WordBuilder();
        b.quoted(a.name + op);
        if (a.value.literal) b.quoted(a.value.value);
        else b.expansion(true);
        words.push(b.build());
      } else if (c.type === "variable_name") words.push(literalWord(this.src(c)));
      else if (c.type === "subscript") {
        this.subscript(c);
        words.push(literalWord(this.src(c)));
      } else if (WORDS.has(c.type)) {
        const w = this.word(c);
        if (w.literal && /^[-+][A-Za-z]+$/.test(w.value)) flags += w.value.slice(1);
        else {
          // `'a=(…)'` quoted whole: the same as a value after `=`; a word computed whole may be anything.
          const eq = w.value.indexOf("=");
          if (eq >= 0 && !w.value.slice(0, eq).includes(UNKNOWN))
            this.compoundFromValue(name, flags, { ...w, value: w.value.slice(eq + 1) });
          else if (w.value.includes(UNKNOWN)) this.compoundFromValue(name, flags, w);
        }
        words.push(w);
      } else {
        this.fail(`unexpected \`${c.type}\` in a declaration`);
        this.salvage(c);
      }
    }
    this.emit({ assignments: [], words, redirects: [], repeated: this.repeated, span: spanOf([n]) });
  }

  /** `[ ... ]` and `[[ ... ]]`: collect substitutions; flag what evaluates a variable's value as code. */
  private test(n: TNode): void {
    const double = n.children[0]?.type === "[[";
    if (!double) this.singleBracketRisk(n);
    const visit = (e: TNode): void => {
      if (e.type === "test_operator") {
        const op = this.src(e);
        // Operands that are numbers or numeric specials (`$#`, `$?`) cannot hold code; anything else can.
        const operands = this.src(n).replace(/^\[\[?|\]\]?$/g, "");
        const numeric = /^(?:\s|\d|\$[#?$!]|-[a-zA-Z]+|&&|\|\||!)*$/.test(operands);
        if (op === "-v" || op === "-R") {
          if (/[[$`"'\\]/.test(operands)) this.dynamic(`\`${op}\` evaluates an array index, which can run commands`);
          else this.script.risks.push(`\`${op}\` tests a variable`);
        }
        if (double && /^-(eq|ne|lt|le|gt|ge)$/.test(op) && !numeric)
          this.dynamic(`\`[[ ... ${op} ... ]]\` evaluates its operands as arithmetic, which can run commands`);
        return;
      }
      if (e.type === "command_substitution" || e.type === "process_substitution") return this.substitution(e);
      if (e.type === "expansion") return this.expansion(e);
      if (e.type === "arithmetic_expansion") return this.arithmetic(e);
      if (e.type === "redirected_statement" || e.type === "command") return this.statement(e);
      if (e.type === "ERROR") this.fail("the command has a syntax error");
      if (e.missing) this.fail("the command is incomplete");
      for (const c of e.children) visit(c);
    };
    for (const c of n.children) visit(c);
  }

  /**
   * In `[ ... ]` the operands are ordinary words: an unquoted expansion can split into `-v 'a[$(cmd)]'`, and
   * a quoted one can become `-v` next to an operand that names an array element. `-v` evaluates the index.
   */
  private singleBracketRisk(n: TNode): void {
    let unquoted = false;
    let computed = false;
    let bracket = false;
    const visit = (e: TNode, inString: boolean): void => {
      if (
        e.type === "simple_expansion" ||
        e.type === "expansion" ||
        e.type === "command_substitution" ||
        e.type === "arithmetic_expansion"
      ) {
        computed = true;
        if (!inString) unquoted = true;
        return;
      }
      if ((e.type === "word" || e.type === "raw_string" || e.type === "string_content") && this.src(e).includes("["))
        bracket = true;
      for (const c of e.children) visit(c, inString || e.type === "string");
    };
    for (const c of n.children) if (c.named) visit(c, false);
    if (unquoted) this.dynamic("an unquoted expansion in `[ ... ]` could become an operator that runs commands");
    else if (computed && bracket) this.dynamic("`[ -v ... ]` evaluates an array index, which can run commands");
  }

  private loop(n: TNode): void {
    let loopValues: Word[] | undefined;
    let loopName = "";
    let scoped = false;
    let lastValueEnd = -1;
    this.withRepeated(() => {
      for (const c of n.children) {
        if (!c.named) {
          if (c.missing) this.fail("the command is incomplete");
          continue;
        }
        if (n.type === "c_style_for_statement" && c.type !== "do_group" && c.type !== "compound_statement") {
          this.arithmetic(c);
        } else if (n.type === "for_statement" && c.type === "variable_name") {
          // `for PATH in ...` assigns like `PATH=...`.
          const b = new WordBuilder();
          b.expansion(true);
          loopValues = [];
          loopName = this.src(c);
          this.emit({
            assignments: [{ name: loopName, value: b.build(), loopValues }],
            words: [],
            redirects: [],
            repeated: true,
            span: spanOf([c]),
          });
        } else if (n.type === "for_statement" && WORDS.has(c.type)) {
          // Two nodes with no blank between them are one word to bash (tree-sitter splits some).
          if (lastValueEnd === c.start) this.fail("the parser split one word in two");
          lastValueEnd = c.end;
          const ws = this.words(c);
          loopValues?.push(...ws);
        } else {
          // The body sees the loop variable as one of the words read above.
          if (loopValues && !scoped) scoped = this.loopScopes.push({ name: loopName, values: loopValues }) > 0;
          this.statement(c);
        }
      }
    });
    if (scoped) this.loopScopes.pop();
  }

  private caseStatement(n: TNode): void {
    for (const c of n.children) {
      if (!c.named) continue;
      if (c.type === "case_item") {
        for (const i of c.children) {
          if (!i.named) continue;
          if (STATEMENTS.has(i.type) || i.type === "ERROR") this.statement(i);
          else if (i.type === "extglob_pattern") continue;
          else if (WORDS.has(i.type)) this.word(i);
          else this.statement(i);
        }
      } else if (WORDS.has(c.type)) this.word(c);
      else this.statement(c);
    }
  }

  private functionDefinition(n: TNode): void {
    // A function outlives the line in the agent's shell and can shadow any program (`cd() {...}` would
    // make every later `cd` go elsewhere than the analysis assumes), so defining one is never safe.
    const name = n.children.find((c) => c.type === "word");
    this.script.risks.push(
      `defining the shell function \`${name ? this.src(name) : "?"}\` changes what later commands run`,
    );
    this.withRepeated(() => {
      for (const c of n.children) {
        if (!c.named || c.type === "word") continue;
        if (REDIRECTS.has(c.type)) {
          const redirects: Redirect[] = [];
          const after: TNode[] = [];
          this.redirect(c, redirects, undefined, after);
          this.emit({ assignments: [], words: [], redirects, repeated: true, span: spanOf([c]) });
          for (const s of after) this.statement(s);
        } else this.statement(c);
      }
    });
  }

  private substitution(n: TNode): void {
    (this.script.substitutions ??= []).push(n.start);
    for (const c of n.children) {
      if (!c.named) {
        if (c.missing) this.fail("the command is incomplete");
        continue;
      }
      if (c.type === "file_redirect") {
        // `$(< file)` reads the file.
        const redirects: Redirect[] = [];
        this.redirect(c, redirects, undefined, []);
        this.emit({ assignments: [], words: [], redirects, repeated: this.repeated, span: spanOf([c]) });
      } else this.statement(c);
    }
  }

  /** Inside an expansion, arithmetic or here-document body: only nested substitutions and expansions matter. */
  private nested(n: TNode): void {
    for (const c of n.children) {
      if (c.missing) this.fail("the command is incomplete");
      if (c.type === "ERROR") this.fail("the command has a syntax error");
      if (c.type === "command_substitution" || c.type === "process_substitution") this.substitution(c);
      else if (c.type === "expansion") this.expansion(c);
      else if (c.type === "arithmetic_expansion") this.arithmetic(c);
      else this.nested(c);
    }
  }

  /** Arithmetic evaluates variable values as expressions, and `a[$(cmd)]` inside one runs cmd: any name is a risk. */
  private arithmetic(n: TNode): void {
    const visit = (e: TNode): void => {
      if (e.missing) this.fail("the command is incomplete");
      switch (e.type) {
        case "number":
          if (e.children.length === 0) return;
          break;
        case "binary_expression":
        case "unary_expression":
        case "parenthesized_expression":
        case "ternary_expression":
        case "postfix_expression":
        case "arithmetic_expansion":
          break;
        case "ERROR":
          this.fail("the command has a syntax error");
          break;
        case "command_substitution":
        case "process_substitution":
          this.dynamic("arithmetic on the output of a command can run commands");
          return this.substitution(e);
        default:
          if (e.named) {
            this.dynamic("arithmetic on a variable's value can run commands");
            return this.nested(e);
          }
      }
      for (const c of e.children) visit(c);
    };
    visit(n);
  }

  /**
   * `${...}`: plain reads, defaults, lengths, pattern removal and substitution are fine; indirection (`${!x}`),
   * transformations (`${x@P}` runs prompt expansion), arithmetic offsets and indexes, zsh flags are risks.
   */
  private expansion(n: TNode): void {
    const text = this.src(n);
    const m = /^\$\{([#!]?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!0-]?)(\[[^\]]*\])?/.exec(text);
    if (!m || (m[2] === "" && m[1] === "")) {
      this.dynamic(`\`${text}\` is an unusual expansion`);
    } else {
      const [head, prefix, , index] = m;
      const rest = text.slice(head.length, -1);
      if (prefix === "!") this.dynamic(`\`${text}\` is an indirect expansion`);
      if (index !== undefined && !/^\[(\d+|@|\*)\]$/.test(index))
        this.dynamic("an array index is evaluated as arithmetic, which can run commands");
      if (rest.startsWith("@P")) this.dynamic(`\`${text}\` expands a value as a prompt, which can run commands`);
      else if (rest.startsWith("@")) this.script.risks.push(`\`${text}\` transforms a value`);
      else if (rest.startsWith(":") && !/^:[-=?+]/.test(rest) && !/^:\s*-?\d+(:\s*-?\d+)?$/.test(rest)) {
        this.dynamic("a substring offset is evaluated as arithmetic, which can run commands");
      } else if (/^:?=/.test(rest) && prefix === "") {
        // `${NAME:=value}` assigns NAME.
        const b = new WordBuilder();
        b.expansion(true);
        this.emit({
          assignments: [{ name: m[2]!, value: b.build() }],
          words: [],
          redirects: [],
          repeated: this.repeated,
          span: spanOf([n]),
        });
      }
    }
    this.nested(n);
  }

  /** One word, not brace-expanded (assignment values, here-strings, words the model does not keep). */
  word(n: TNode, mode: "assignment" | "herestring" = "herestring"): Word {
    const b = new WordBuilder();
    this.part(n, b, false);
    return b.build(mode);
  }

  /** The words bash makes of an argv word (brace expansion), within the per-line cap. */
  words(n: TNode): Word[] {
    const b = new WordBuilder();
    const outer = this.quotedBackquote;
    this.quotedBackquote = false;
    this.part(n, b, false);
    const ws = this.expanded(b, this.src(n));
    this.quotedBackquote = outer;
    return ws;
  }

  /** Runs of nodes with no blank between them (one word each to bash). */
  private adjacent(nodes: readonly TNode[]): TNode[][] {
    const runs: TNode[][] = [];
    for (const c of nodes) {
      const run = runs[runs.length - 1];
      if (run && run[run.length - 1]!.end === c.start) run.push(c);
      else runs.push([c]);
    }
    return runs;
  }

  /** The words bash makes of adjacent nodes read as one word (unnamed ones are unquoted text). */
  private joined(nodes: readonly TNode[]): Word[] {
    if (nodes.length === 1 && nodes[0]!.named) return this.words(nodes[0]!);
    // A `$` ending one piece starts an expansion with the next to bash (`a=$X/b` split after `$`).
    for (const c of nodes.slice(0, -1)) if (this.text[c.end - 1] === "$") this.fail("the parser split an expansion");
    const b = new WordBuilder();
    const outer = this.quotedBackquote;
    this.quotedBackquote = false;
    for (const c of nodes) {
      if (c.named) this.part(c, b, false);
      else this.unquoted(this.src(c), b);
    }
    const ws = this.expanded(b, this.text.slice(nodes[0]!.start, nodes[nodes.length - 1]!.end));
    this.quotedBackquote = outer;
    return ws;
  }

  private expanded(b: WordBuilder, raw: string): Word[] {
    // bash's brace scan ends a double-quoted string at a `"` inside backquotes: its braces are not ours to see.
    if (this.quotedBackquote && raw.includes("{")) b.opaqueBraces();
    this.quotedBackquote = false;
    let ws: Word[];
    try {
      ws = b.expand();
    } catch (e) {
      if (e instanceof BraceCap) throw new CapError(`the brace expansion makes more than ${MAX_BRACE_WORDS} words`);
      throw e;
    }
    this.braceWords += ws.length - 1;
    if (this.braceWords > MAX_BRACE_WORDS)
      throw new CapError(`the brace expansion makes more than ${MAX_BRACE_WORDS} words`);
    return ws;
  }

  private part(n: TNode, b: WordBuilder, quoted: boolean): void {
    if (n.missing) this.fail("the command is incomplete");
    switch (n.type) {
      case "word":
      case "brace_expression":
        return this.unquoted(this.src(n), b);
      case "number":
        if (n.children.length === 0) return this.unquoted(this.src(n), b);
        return this.concatenation(n, b);
      case "raw_string": {
        const t = this.src(n);
        if (t.length < 2 || t[0] !== "'" || t[t.length - 1] !== "'") return this.fail("unexpected quoted string");
        return b.quoted(t.slice(1, -1));
      }
      case "ansi_c_string": {
        const t = this.src(n);
        const decoded =
          t.startsWith("$'") && t.endsWith("'") && t.length >= 3 ? decodeAnsiC(t.slice(2, -1)) : undefined;
        if (decoded === undefined) return this.fail("unexpected $'...' string");
        return b.quoted(decoded);
      }
      case "string":
        return this.doubleQuoted(n, b);
      case "translated_string": {
        const inner = n.children.filter((c) => c.named);
        if (inner.length !== 1 || inner[0]!.type !== "string") return this.fail('unexpected $"..." string');
        return this.doubleQuoted(inner[0]!, b);
      }
      case "concatenation":
        return this.concatenation(n, b);
      case "simple_expansion": {
        const name = this.src(n).slice(1);
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return b.expansion(quoted, /^([0-9]|[@*#?$!0-])$/.test(name));
        return b.variable(name, quoted, innermostLoop(this.loopScopes, name));
      }
      case "expansion":
        this.expansion(n);
        return b.expansion(quoted, SIMPLE_EXPANSION.test(this.src(n)));
      case "command_substitution": {
        const text = this.src(n);
        this.substitution(n);
        if (quoted && text.startsWith("`") && text.includes('"')) this.quotedBackquote = true;
        return b.expansion(quoted);
      }
      case "process_substitution":
        this.substitution(n);
        return b.processSubstitution();
      case "arithmetic_expansion":
        this.arithmetic(n);
        return b.expansion(quoted);
      default:
        this.fail(`unexpected \`${n.type}\` in a word`);
        this.salvage(n);
        b.expansion(quoted);
    }
  }

  private unquoted(text: string, b: WordBuilder): void {
    const problem = addUnquotedText(text, b);
    if (problem) this.fail(problem);
  }

  /** Adjacent pieces; any text between children the grammar did not cover is read as unquoted text. */
  private concatenation(n: TNode, b: WordBuilder): void {
    let pos = n.start;
    for (const c of n.children) {
      if (c.start > pos) this.unquoted(this.text.slice(pos, c.start), b);
      if (c.named) this.part(c, b, false);
      else this.unquoted(this.src(c), b);
      pos = c.end;
    }
    if (pos < n.end) this.unquoted(this.text.slice(pos, n.end), b);
  }

  private doubleQuoted(n: TNode, b: WordBuilder): void {
    const t = this.src(n);
    if (t.length < 2 || t[0] !== '"' || t[t.length - 1] !== '"') return this.fail("unexpected quoted string");
    let pos = n.start + 1;
    const end = n.end - 1;
    const literal = (from: number, to: number): void => {
      if (to <= from) return;
      const raw = this.text.slice(from, to);
      if (/(^|[^\\])(\\\\)*[`]/.test(raw) || /(^|[^\\])(\\\\)*\$[A-Za-z_{(0-9@*#?$!-]/.test(raw))
        this.fail("an expansion the parser did not recognise");
      b.quoted(unescapeDouble(raw));
    };
    for (const c of n.children) {
      if (!c.named) continue;
      if (c.type === "string_content") continue;
      literal(pos, c.start);
      this.part(c, b, true);
      pos = c.end;
    }
    literal(pos, end);
  }
}

/** The words of the innermost `for` over `name` whose body is being read, if any. */
export function innermostLoop(scopes: readonly LoopScope[], name: string): readonly Word[] | undefined {
  for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i]!.name === name) return scopes[i]!.values;
  return undefined;
}

export interface LoopScope {
  readonly name: string;
  readonly values: readonly Word[];
}
