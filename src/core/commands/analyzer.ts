/**
 * The POSIX-shell `CommandAnalyzer`: parse (fast parser for simple lines, tree-sitter-bash otherwise) into
 * the flat model, then walk every simple command: deny rules, ask rules, allow rules, the built-in
 * catalogue with its per-program checks, wrappers and shell payloads (recursively), risky assignments and
 * expansions, and every file effect through the same path gate as the file tools, following `cd`.
 *
 * Precedence of the answer: deny (found anywhere, even in a line that is otherwise unparseable) >
 * unparseable > ask-rule > unsafe > safe. On Windows the exact-match analyzer decides.
 */
import { lineReadsEnvironment, programReadsEnvironment } from "./environmentReads";
import { homedir } from "node:os";
import { posix } from "node:path";
import type { Parser } from "web-tree-sitter";
import { ExactMatchAnalyzer } from "./exactMatchAnalyzer";
import type { CommandAnalysis, CommandAnalyzer, CommandContext, PathAccess, PathVerdict } from "./types";
import type { ReadFilter } from "../readFilter";
import { parseCommandRules } from "./prefixRules";
import { UNKNOWN, unknownWord, type Redirect, type Script, type SimpleCommand, type Word } from "./model";
import { parseWithTreeSitter } from "./parse";
import { fastParse } from "./fastParse";
import { bundleDir, grammarFilesIn, loadBashGrammar, type GrammarFiles } from "./treeSitter";
import { historyRisk, INVISIBLE, lineProblem } from "./words";
import { catalogueEntry } from "./catalogue";
import type { Effects, NestedOptions, ReadKind } from "./catalogue/effects";
import { gitRuleArgv } from "./catalogue/git";
import { networkUse } from "./catalogue/network";
import { assignmentProblem } from "./envVars";
import { baseName, RuleSet } from "./ruleMatch";
import { suggestRule } from "./suggest";
import { lexicalDeny } from "./lexicalDeny";
import { scanSubstitutions, type SubstitutionScan } from "./substitutionScan";
import { resolveTildes } from "./tildes";
import type { SourceSpan } from "../types";
import { joinSpans } from "./spans";

export interface BashAnalyzerOptions {
  /** Directory holding `tree-sitter.wasm` and `tree-sitter-bash.wasm` (default: the bundle's directory, `dist/`). */
  readonly grammarDir?: string;
  /** The two files, when they are not in one directory (tests use node_modules). */
  readonly grammarFiles?: GrammarFiles;
  /** Home directory for `~` (default: the current user's). */
  readonly homeDir?: string;
  /** Parse simple lines without tree-sitter (default true; the equivalence test turns it off). */
  readonly fastPath?: boolean;
  /** Parsed lines kept (default 256; 0 turns the cache off). Only parsing is cached, never a decision. */
  readonly parseCacheSize?: number;
}

/** Options of a command that is not nested in another. */
const TOP_LEVEL: NestedOptions = { prefix: 0 };

/** Lines longer than this are not cached (memory stays bounded: 256 × 4 KB plus their models). */
const MAX_CACHED_LINE = 4096;
/** An argument that could be code or a command line rather than one name: it has a space or shell punctuation. */
const CODE_TEXT = /[\s;&|()`$"'{}=,]/;

/** Nesting of shell payloads (`bash -c "eval '...'"`) beyond which the line is unparseable. */
export const MAX_PAYLOAD_DEPTH = 8;
/** Working directories tracked at once (each `cd` may or may not have happened); beyond: unknown. */
export const MAX_CWDS = 8;
/**
 * Guessed command starts (`strace a b c`: each of `a`, `b`, `c` may be the program) followed per line.
 * Runners inside runners multiply them; past this the line is unknown rather than slow.
 */
export const MAX_GUESSES = 500;

const WRITABLE_DEVICES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"]);
const READABLE_DEVICES = new Set([
  "/dev/null",
  "/dev/stdin",
  "/dev/zero",
  "/dev/random",
  "/dev/urandom",
  "/dev/tty",
  "/dev/fd/0",
]);
/** Commands a line's `for` variables may expand one command into before its arguments stay unknown. */
const MAX_LOOP_VARIANTS = 16;
const NETWORK_DEVICE = /^\/dev\/(tcp|udp)(\/|$)/;
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$/;
/** Variables whose value bash runs or expands as code later in the same shell. */
const PROMPT_CODE = /^(PS[0-4]|PROMPT_COMMAND)(\[|$)/;
const INVISIBLE_OR_CONTROL = new RegExp(`${INVISIBLE.source}|[\\u0000-\\u001f\\u007f-\\u009f]`);

interface Finding {
  readonly reason: string;
  readonly rule: string;
}

interface CompiledRules {
  readonly allow: RuleSet;
  readonly deny: RuleSet;
  readonly ask: RuleSet;
}

const labelCache = new Map<string, Map<string, string>>();
/** `prefix + name`, one string per distinct label (a label is formatted on every decision). */
function label(prefix: string, name: string): string {
  let byName = labelCache.get(prefix);
  if (!byName) labelCache.set(prefix, (byName = new Map()));
  let l = byName.get(name);
  if (l === undefined) {
    l = prefix + name;
    if (byName.size < 4096) byName.set(name, l);
  }
  return l;
}

export class BashAnalyzer implements CommandAnalyzer {
  private parser: Parser | undefined;
  private loading: Promise<void> | undefined;
  private readonly exact = new ExactMatchAnalyzer();
  private readonly ruleCache = new WeakMap<readonly string[], { loose: RuleSet; exact: RuleSet }>();
  private readonly home: string;
  /** Milliseconds the grammar took to load, once loaded. */
  loadMs: number | undefined;
  private readonly parseCacheSize: number;
  private readonly parseCache: Map<string, Script> | undefined;

  constructor(private readonly options: BashAnalyzerOptions = {}) {
    this.home = options.homeDir ?? homedir();
    this.parseCacheSize = options.parseCacheSize ?? 256;
    this.parseCache = this.parseCacheSize > 0 ? new Map() : undefined;
  }

  ready(): Promise<void> {
    this.loading ??= loadBashGrammar(
      this.options.grammarFiles ?? grammarFilesIn(this.options.grammarDir ?? bundleDir()),
    ).then(
      (g) => {
        this.parser = g.parser;
        this.loadMs = g.loadMs;
      },
      (e: unknown) => {
        this.loading = undefined;
        throw e;
      },
    );
    return this.loading;
  }

  analyze(command: string, ctx: CommandContext): CommandAnalysis {
    try {
      if (ctx.platform === "windows") return this.exact.analyze(command, ctx);
      return this.analyzePosix(command, ctx);
    } catch {
      return {
        verdict: "unparseable",
        reason: "the command could not be analysed",
        rule: "commands:internal-error",
        readOnly: false,
        deletes: false,
      };
    }
  }

  /** The flat model of one line (for tests and `toolgate explain`). */
  /**
   * The flat model of one line (also for tests and `toolgate explain`). Parsing is a pure function of the
   * text, so results are kept in a small LRU cache (`parseCacheSize`); callers never modify a script.
   */
  parse(command: string): Script {
    const cache = this.parseCache;
    if (cache) {
      const hit = cache.get(command);
      if (hit) {
        // Refresh its place in the LRU order.
        cache.delete(command);
        cache.set(command, hit);
        return hit;
      }
    }
    const problem = lineProblem(command);
    if (problem) return { commands: [], risks: [], unparseable: problem };
    let script = this.options.fastPath === false ? undefined : fastParse(command);
    const scan = scanSubstitutions(command);
    if (!script) {
      // Not cached: once the grammar is loaded the answer would differ.
      if (!this.parser) return { commands: [], risks: [], unparseable: "the shell grammar is not loaded yet" };
      // A line the scan already refuses is not worth a tree-sitter parse (deep nesting costs the most).
      script = scan.problem
        ? { commands: [], risks: [], unparseable: scan.problem }
        : parseWithTreeSitter(this.parser, command);
    }
    const missed = unanalysedSubstitution(scan, script);
    if (missed) script = { ...script, unparseable: script.unparseable ?? missed };
    if (cache && command.length <= MAX_CACHED_LINE) {
      if (cache.size >= this.parseCacheSize) cache.delete(cache.keys().next().value!);
      cache.set(command, script);
    }
    return script;
  }

  /** Rules compiled once per settings array (the gate passes the same arrays until settings change). */
  private rules(list: readonly string[], loose: boolean): RuleSet {
    let compiled = this.ruleCache.get(list);
    if (!compiled) {
      const parsed = parseCommandRules(list);
      compiled = { loose: new RuleSet(parsed, true), exact: new RuleSet(parsed, false) };
      this.ruleCache.set(list, compiled);
    }
    return loose ? compiled.loose : compiled.exact;
  }

  private analyzePosix(command: string, ctx: CommandContext): CommandAnalysis {
    const rules: CompiledRules = {
      allow: this.rules(ctx.allow, false),
      deny: this.rules(ctx.deny, true),
      ask: this.rules(ctx.ask, true),
    };
    const run = new Run(this, ctx, rules, this.home);
    run.line = command;
    run.readsEnvironment = lineReadsEnvironment(command);
    const history = historyRisk(command);
    if (history) run.flagUnsafe(history, "commands:risky-construct");
    run.script(this.parse(command), 0);
    if (!run.deny && (run.unparseable || run.unknown)) {
      const denied = lexicalDeny(command, rules.deny);
      if (denied)
        run.deny = {
          reason: `\`${denied.source}\` is denied by your settings`,
          rule: `commands.deny: ${denied.source}`,
        };
    }
    const result = run.result();
    const spans = joinSpans(command, run.decidingSpans(result.verdict));
    return spans.length > 0 ? { ...result, spans } : result;
  }
}

/** The state of one analysis: findings, working directories, what vouched for each part. */
class Run {
  deny: Finding | undefined;
  ask: Finding | undefined;
  unparseable: Finding | undefined;
  /** What runs is decided only at run time (`$x` as a program, `eval "$x"`, `$((x))`): a hard ask. */
  unknown: Finding | undefined;
  unsafe: Finding | undefined;
  /** Something other than a missing allow rule stands in the way (no single rule would do). */
  blocked = false;
  /** Commands that only lack an allow rule (rule-normalised argv). */
  readonly notAllowed: (readonly Word[])[] = [];
  readonly labels: string[] = [];
  readOnly = true;
  deletes = false;
  /** The first program (or subcommand) with the catalogue's network effect, as the person reads it. */
  network: string | undefined;
  /** Why the line could print the environment it runs with (environmentReads.ts), once something could. */
  readsEnvironment: string | undefined;
  /** Possible working directories; undefined once a `cd` went somewhere not followed. */
  cwds: string[] | undefined;
  /** The top-level line's text (spans index it), for following `cd DIR && …`. */
  line: string | undefined;
  /** The command being checked is a top-level `cd` whose success the next command depends on (see `sureCd`). */
  private sureCd = false;
  /** Inside the `&&` chain after such a `cd`: where the line may be once it ends, and the last command's span. */
  private afterCd: { either: string[]; last: SourceSpan } | undefined;
  /** `for` variables of the script being read that nothing else in it can change (see `stableLoopVariables`). */
  private stableLoops: ReadonlySet<string> = new Set();
  /** Guessed command starts followed so far (see `MAX_GUESSES`); shared with the runs that guess payloads. */
  guesses = { count: 0 };
  /** The span in the analysed line of the command being checked (see `SimpleCommand.span`). */
  private at: SourceSpan | undefined;
  /** While a payload is analysed: the span of the command carrying it (the payload's own offsets are elsewhere). */
  private lock: SourceSpan | undefined;
  /** Spans of the commands that raised any finding; of those found denied; of those an ask rule matched. */
  private readonly flagged: SourceSpan[] = [];
  private readonly deniedAt: SourceSpan[] = [];
  private readonly askedAt: SourceSpan[] = [];

  constructor(
    private readonly analyzer: BashAnalyzer,
    readonly ctx: CommandContext,
    readonly rules: CompiledRules,
    private readonly home: string,
  ) {
    this.cwds = [ctx.cwd];
  }

  private mark(list: SourceSpan[]): void {
    if (this.at) list.push(this.at);
  }

  /** The spans of the commands behind a verdict: the denied ones for a deny, else every one not vouched for. */
  decidingSpans(verdict: CommandAnalysis["verdict"]): readonly SourceSpan[] {
    if (verdict === "deny") return this.deniedAt;
    if (verdict === "ask-rule") return this.askedAt;
    if (verdict === "safe") return [];
    return this.flagged;
  }

  flagUnsafe(reason: string, rule: string, needsAllow = false): void {
    this.mark(this.flagged);
    this.unsafe ??= { reason, rule };
    if (!needsAllow) this.blocked = true;
    this.readOnly = false;
  }

  /** A deletion is never auto-approved, so its reason is the one a person should read first. */
  noteDeletion(reason: string, rule: string): void {
    this.deletes = true;
    this.flagUnsafe(reason, rule);
  }

  flagUnparseable(reason: string): void {
    this.mark(this.flagged);
    this.unparseable ??= { reason, rule: "commands:parse-error" };
    this.readOnly = false;
  }

  /** The analysis cannot say what this runs: asked in every mode, like a parse error. */
  flagUnknown(reason: string, rule: string): void {
    this.mark(this.flagged);
    this.unknown ??= { reason, rule };
    this.blocked = true;
    this.readOnly = false;
  }

  script(s: Script, depth: number): void {
    const outerLoops = this.stableLoops;
    this.stableLoops = stableLoopVariables(s);
    try {
      this.scriptCommands(s, depth);
    } finally {
      this.stableLoops = outerLoops;
    }
  }

  private scriptCommands(s: Script, depth: number): void {
    if (s.unparseable) this.flagUnparseable(s.unparseable);
    for (const r of s.risks) this.flagUnsafe(r, "commands:risky-construct");
    if (s.dynamic) for (const r of s.dynamic) this.flagUnknown(r, "commands:dynamic-code");
    // A `cd` that may run repeatedly or later (loop, function) leaves the directory unknown from the start.
    if (
      s.commands.some(
        (c) => c.repeated && c.words.some((w) => w.value === "cd" || w.value === "pushd" || w.value === "popd"),
      )
    )
      this.cwds = undefined;
    // Loop and function bodies may run after everything else: check them last, against every directory seen.
    // A deny is final: once found, the rest cannot change the answer.
    const once = s.commands.filter((c) => !c.repeated);
    for (let i = 0; i < once.length && !this.deny; i++) {
      const c = once[i]!;
      const line = depth === 0 && this.lock === undefined ? this.line : undefined;
      if (line !== undefined && this.afterCd && !linked(line, this.afterCd.last, c.span)) this.leaveCd();
      this.sureCd = line !== undefined && sureCd(line, c, once[i - 1]?.span, once[i + 1]?.span);
      this.command(c, depth);
      this.sureCd = false;
      if (this.afterCd && c.span) this.afterCd.last = c.span;
    }
    this.leaveCd();
    for (const c of s.commands) if (c.repeated && !this.deny) this.command(c, depth);
  }

  /** The `&&` chain after a `cd` that must have succeeded has ended: the line may be in either directory. */
  private leaveCd(): void {
    const after = this.afterCd;
    if (!after) return;
    this.afterCd = undefined;
    if (!this.cwds) return;
    const all = [...after.either];
    for (const d of this.cwds) if (!all.includes(d)) all.push(d);
    this.cwds = all.length > MAX_CWDS ? undefined : all;
  }

  private command(parsed: SimpleCommand, depth: number): void {
    this.at = this.lock ?? parsed.span;
    // Before anything judges a word: the tildes bash replaces, from the directory the command runs in.
    const c = this.withTildes(parsed);
    const prefix = c.words.length > 0;
    for (const a of c.assignments) this.assignment(a.name, a.value, prefix);
    let stdin: Word | undefined;
    for (const r of c.redirects) {
      this.redirect(r);
      // The last input redirect wins: a here-document or here-string gives the text; a file, nothing known.
      if (r.fd === undefined || r.fd === 0) {
        if (r.op === "<<" || r.op === "<<-" || r.op === "<<<") stdin = r.target;
        else if (r.op === "<" || r.op === "<>" || r.op === "<&") stdin = undefined;
      }
    }
    if (prefix) this.simple(c.words, depth, stdin ? { prefix: 0, stdin } : TOP_LEVEL);
  }

  /** The command with its known tildes replaced (`~` from the home directory, `~+` from the one cwd). */
  private withTildes(c: SimpleCommand): SimpleCommand {
    const has = (w: Word): boolean => w.tildes !== undefined;
    if (!c.words.some(has) && !c.assignments.some((a) => has(a.value)) && !c.redirects.some((r) => has(r.target)))
      return c;
    const r = (w: Word): Word => this.tildes(w);
    return {
      ...c,
      words: c.words.map(r),
      assignments: c.assignments.map((a) => ({ ...a, value: r(a.value) })),
      redirects: c.redirects.map((x) => ({ ...x, target: r(x.target) })),
    };
  }

  private tildes(w: Word): Word {
    return resolveTildes(w, this.home, this.cwds?.length === 1 ? this.cwds[0] : undefined);
  }

  /**
   * A program the catalogue does not know may read or write any file it is given: each argument, and the
   * value in `--opt=value`, `-oVALUE` and `key=value` (`dd if=.env of=…`), goes to the path gate as a read
   * and as a write. The gate records what binds in every mode — an ignored or read-denied file (a refusal),
   * a protected path or an ask rule (a hard ask) — and the other outcomes change nothing: the command is not
   * vouched for anyway. Every directory the line may be in counts.
   */
  private uncataloguedArguments(argv: readonly Word[]): void {
    for (const w of argv.slice(1, 257)) {
      if (!w.literal) continue;
      for (const v of argumentPaths(w.value)) this.touchArgument(v, true);
    }
  }

  /**
   * A program the catalogue does not know may run its arguments as a command (`chronic rm -rf src`): when
   * they contain a denied (or always-asking) command, what the line runs cannot be told from its text, so it
   * is a hard ask in every mode — not a refusal, since most programs only name the word (`man rm`).
   */
  private uncataloguedCommandWords(argv: readonly Word[], stdin: Word | undefined): void {
    if (this.rules.deny.empty && this.rules.ask.empty) return;
    const last = Math.min(argv.length, 257);
    if (this.codeTextRules(argv, argv.slice(1, last), stdin)) return;
    for (let i = 1; i < last; i++) {
      const w = argv[i]!;
      if (!w.literal || w.value.startsWith("-")) continue;
      const rest = argv.slice(i, i + 64);
      const hit = [this.rules.deny, this.rules.ask]
        .map((r) => r.match(rest, r.key(w.value)))
        .find((m) => m.match !== "no");
      if (hit) {
        this.ask ??= {
          reason: `\`${baseName(argv[0]!.value)}\` is not a program Toolgate knows, and it may run \`${display(rest)}\`, which matches your rule \`${hit.rule!.source}\``,
          rule: `commands:unknown-runner: ${hit.rule!.source}`,
        };
        return;
      }
    }
  }

  /**
   * Code or a command line in an argument or on the input of a command that is not vouched for
   * (`perl -e 'system("rm -rf x")'`, `man -P 'rm x'`, `node -e …`, `at now <<< 'rm x'`): a denied or
   * always-asking command the lexical scan (the one for unparseable lines) finds in the text is a hard ask in
   * every mode. Only arguments with a space or shell punctuation are scanned, so `man rm` names a word and
   * is left to the word checks. True when it asked.
   */
  private codeTextRules(argv: readonly Word[], args: readonly Word[], stdin: Word | undefined): boolean {
    if (this.rules.deny.empty && this.rules.ask.empty) return false;
    const texts = args.map((w) => w.value).filter((v) => CODE_TEXT.test(v));
    if (stdin) texts.push(stdin.value);
    const who = `\`${baseName(argv[0]!.value)}\` may run the text it is given, and that text`;
    return texts.some((text) => this.textNamesRule(text, who));
  }

  /**
   * A deny or always-asking command the lexical scan finds in `text` (code or a command line whose syntax is
   * not the shell's) is a hard ask; `who` begins the reason ("`perl` may run the text it is given, and that
   * text"). True when it asked.
   */
  private textNamesRule(text: string, who: string): boolean {
    const plain = text.replaceAll(UNKNOWN, " ");
    for (const [rules, kind] of [
      [this.rules.deny, "deny"],
      [this.rules.ask, "ask"],
    ] as const) {
      const rule = rules.empty ? undefined : lexicalDeny(plain, rules);
      if (!rule) continue;
      this.mark(this.askedAt);
      this.ask ??= {
        reason: `${who} names \`${rule.source}\`, which your ${kind} rule covers`,
        rule: `commands:runs-text: ${rule.source}`,
      };
      return true;
    }
    return false;
  }

  /** See `Effects.mayTouch`: the path gate records what binds in every mode; its verdicts are not used. */
  /**
   * Files moved to `dest` leave the workspace when it lies outside: a deletion. A destination known only at
   * run time is already a hard ask (its write goes through `path`), so only known paths are judged here.
   */
  movesTo(dest: Word, base: Word | undefined, program: string): void {
    if (dest.pipe || (base && !base.literal)) return;
    let path: string;
    if (dest.tilde === "home" && !dest.value.includes(UNKNOWN) && !dest.glob) path = this.home + dest.value.slice(1);
    else if (dest.literal) path = dest.value;
    else return;
    if (base && !path.startsWith("/")) path = posix.join(base.value, path);
    const root = this.ctx.cwd;
    const inside = (cwd: string): boolean => {
      if (this.ctx.paths.inWorkspace) return this.ctx.paths.inWorkspace(path || ".", cwd);
      const rel = posix.relative(root, posix.resolve(cwd, path));
      return !(rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel));
    };
    const cwds = path.startsWith("/") ? [this.ctx.cwd] : (this.cwds ?? []);
    if (cwds.some((cwd) => !inside(cwd)))
      this.noteDeletion(`\`${program}\` moves files out of the workspace (to \`${path}\`)`, "commands:deletes");
  }

  touchArgument(v: string, writes: boolean): void {
    if (v.length > 4096 || v.includes("\n")) return;
    for (const cwd of this.cwds ?? [this.ctx.cwd]) {
      this.ctx.paths.check(v, cwd, "read", "names");
      if (writes) this.ctx.paths.check(v, cwd, "write");
    }
  }

  assignment(name: string, value: Word, _prefix: boolean, depth = 0): void {
    // A prompt or prompt command is shell code that runs later (`PS4` under `set -x`): denied programs in it
    // are refused like any other nested command.
    if (PROMPT_CODE.test(name)) this.guessPayload(value.value.replaceAll(UNKNOWN, " _ "), depth);
    // Only a deny ends the search: an earlier finding that merely blocks an allow (`GIT_CONFIG_COUNT=1`) must not
    // hide a denied program in a later value, since "run all commands" lets blocked lines run.
    if (this.deny) return;
    const problem = assignmentProblem(name, value);
    if (!problem) return;
    // A variable that configures programs may hold a command (`GIT_SSH_COMMAND`, `PAGER`, `LESSOPEN='|cmd'`):
    // denied programs in it are refused like any other nested command.
    if (!PROMPT_CODE.test(name)) this.guessPayload(value.value.replaceAll(UNKNOWN, " _ "), depth);
    if (this.deny) return;
    // The value's own syntax is the program's (`LESS='+!rm x'`, `GIT_CONFIG_VALUE_0`): a denied or always-asking
    // command the lexical scan finds in it is a hard ask, even where it does not parse as a command line.
    if (this.textNamesRule(value.value, `\`${name}=\` configures a program that may run its value, and the value`))
      return;
    // After these, the programs the line runs are no longer the ones the analysis looked up: a `PATH` that
    // does not keep the old one first (`$PATH:…`; a value read at run time counts as replaced), a file every
    // child bash runs, an exported function, a library loaded into every program, a pipe `less` opens, and
    // every `GIT_*` variable past the harmless identity ones: git takes its repository (`GIT_DIR`, whose
    // config runs `core.fsmonitor`), configuration (`GIT_CONFIG_*`), templates, helpers and exec path from them,
    // as it does from `--git-dir` and `-c`, which are hard asks too.
    const bare = name.replace(/\[.*$/, "");
    if (
      (bare === "PATH" && !value.value.startsWith(`${UNKNOWN}:`)) ||
      bare.startsWith("GIT_") ||
      bare === "BASH_ENV" ||
      bare === "ENV" ||
      /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_INSERT_LIBRARIES|DYLD_LIBRARY_PATH|LESSOPEN|LESSCLOSE)$/.test(bare) ||
      !/^[A-Za-z_][A-Za-z0-9_]*$/.test(bare)
    )
      return this.flagUnknown(problem, "commands:environment");
    this.flagUnsafe(problem, "commands:environment");
  }

  private redirect(r: Redirect): void {
    const t = r.target;
    // bash itself opens a socket for `/dev/tcp/HOST/PORT` and `/dev/udp/…` (no such file exists): network
    // access no deny rule on `curl` would see, decided in every mode by a person. A target not known before
    // run time could be one too, which the path gate's unknown-write ask already covers.
    if (r.op !== "<<" && r.op !== "<<-" && r.op !== "<<<" && NETWORK_DEVICE.test(t.value.replace(/\/{2,}/g, "/")))
      return this.flagUnknown(`\`${show(t)}\` makes bash open a network connection`, "commands:network-redirect");
    switch (r.op) {
      case "<<":
      case "<<-":
      case "<<<":
        return;
      case ">&":
      case "<&":
        if (t.literal && /^(\d+|-)$/.test(t.value)) return;
        if (r.op === "<&") return this.path(t, "read", "content");
        return this.path(t, "write");
      case "<":
        return this.path(t, "read", "content");
      case "<>":
        this.path(t, "read", "content");
        return this.path(t, "write");
      default:
        return this.path(t, "write");
    }
  }

  /** Checks one file effect with the path gate, in every possible working directory. */
  path(word: Word, access: PathAccess, kind: ReadKind = "content", base?: Word, filter?: ReadFilter): void {
    if (word.pipe) return;
    const values = this.loopValuesOf(word);
    if (values) {
      for (const v of values) this.path(v, access, kind, base, filter);
      return;
    }
    if (word.literal && (access === "write" ? WRITABLE_DEVICES : READABLE_DEVICES).has(word.value)) return;
    if (access === "write") this.readOnly = false;
    let path: string;
    if (word.tilde === "home" && !word.value.includes(UNKNOWN) && !word.glob) path = this.home + word.value.slice(1);
    else if (word.literal) path = word.value;
    else if (
      word.glob &&
      !word.value.includes(UNKNOWN) &&
      word.tilde === undefined &&
      access === "read" &&
      kind === "names"
    ) {
      // Only names come out: check the directory the pattern lists.
      const segments = word.value.split("/");
      const fixed = segments.slice(
        0,
        segments.findIndex((s) => /[*?[{]/.test(s)),
      );
      path = fixed.length === 0 ? "." : fixed.join("/") || "/";
    } else if (
      word.glob &&
      !word.value.includes(UNKNOWN) &&
      word.tilde === undefined &&
      access === "read" &&
      kind === "file-content" &&
      !base &&
      this.ctx.paths.checkPattern
    ) {
      // Files read one by one: the path gate decides from the pattern whether it can match a protected one.
      const cwds = word.value.startsWith("/") ? [this.ctx.cwd] : this.cwds;
      if (!cwds)
        return this.flagUnsafe(
          `\`${show(word)}\` is relative to a directory Toolgate could not follow`,
          "path:unknown-cwd",
        );
      // Every directory is checked (not only up to the first failure): the path gate records refusals and
      // hard asks for the gate, and a later directory may be the one that reaches a protected path.
      const failed = firstFailure(cwds.map((cwd) => this.ctx.paths.checkPattern!(word.value, cwd)));
      if (failed) this.flagUnsafe(failed.reason, failed.rule);
      return;
    } else {
      const shown = show(word);
      this.ctx.paths.unresolved?.(access, shown);
      if (word.glob && !word.value.includes(UNKNOWN))
        this.flagUnsafe(
          `\`${shown}\` is a pattern: it could ${access === "write" ? "write" : "read"} files the ignore file or the workspace boundary protects`,
          "path:pattern",
        );
      else this.flagUnsafe(`\`${shown}\` is a path known only when the command runs`, "path:unknown");
      return;
    }
    if (base) {
      if (!base.literal) {
        this.ctx.paths.unresolved?.(access, show(base));
        return this.flagUnsafe(`\`${show(base)}\` is a directory known only when the command runs`, "path:unknown");
      }
      if (!path.startsWith("/")) path = posix.join(base.value, path);
    }
    if (path === "") path = ".";
    const cwds = path.startsWith("/") ? [this.ctx.cwd] : this.cwds;
    if (!cwds) {
      this.ctx.paths.unresolved?.(access, path);
      return this.flagUnsafe(
        `\`${path}\` is relative to a directory Toolgate could not follow after \`cd\``,
        "path:unknown-cwd",
      );
    }
    // Checked even once the line is blocked: file deny rules and protected paths bind in every mode, and the
    // path gate records them for the gate (see CommandPathGate).
    // Every directory is checked, not only up to the first failure (see above).
    // A `file-content` reader given a directory reads nothing of it: the gate checks the name, not the tree.
    const failed = firstFailure(cwds.map((cwd) => this.ctx.paths.check(path, cwd, access, kind, filter)));
    if (failed) this.flagUnsafe(failed.reason, failed.rule);
  }

  /**
   * The command once per value of the `for` variables among its arguments (`wc -l "$f"` in `for f in a b`
   * is `wc -l a` and `wc -l b`), when they keep the loop's words (see `loopValuesOf`) and there are at most
   * `MAX_LOOP_VARIANTS` combinations; otherwise undefined and the arguments stay unknown. The program word
   * is never replaced.
   */
  private loopVariants(words: readonly Word[]): (readonly Word[])[] | undefined {
    let variants: (readonly Word[])[] | undefined;
    for (let i = 1; i < words.length; i++) {
      const values = this.loopValuesOf(words[i]!);
      if (!values) continue;
      const base: (readonly Word[])[] = variants ?? [words];
      if (base.length * values.length > MAX_LOOP_VARIANTS) return undefined;
      variants = base.flatMap((argv) => values.map((v) => argv.map((w, j) => (j === i ? v : w))));
    }
    return variants;
  }

  /**
   * The words a `for` variable takes, when a path argument is exactly that variable (`wc -l "$f"` in
   * `for f in src/*.ts`) and each iteration passes one of them unchanged: nothing else in the line assigns
   * the variable, no value could be read as an option, and an unquoted use (which splits and globs again)
   * only takes plain literal words.
   */
  private loopValuesOf(word: Word): readonly Word[] | undefined {
    const values = word.loopValues;
    if (!values || values.length === 0 || !word.variable || !this.stableLoops.has(word.variable)) return undefined;
    const resolved = values.some((v) => v.tildes) ? values.map((v) => this.tildes(v)) : values;
    for (const v of resolved) {
      if (v.value === "" || v.value.includes(UNKNOWN) || v.value.startsWith("-") || v.pipe) return undefined;
      if (word.splits && (!v.literal || /[\s*?[\]{}]/.test(v.value))) return undefined;
    }
    return resolved;
  }

  chdir(target: Word | "home" | "unknown"): void {
    const current = this.cwds;
    if (!current) return;
    let next: string;
    if (target === "unknown") {
      this.cwds = undefined;
      return;
    }
    if (target === "home") next = this.home;
    else if (target.tilde === "home" && !target.value.includes(UNKNOWN) && !target.glob)
      next = posix.resolve(this.home + target.value.slice(1));
    else if (!target.literal) {
      this.cwds = undefined;
      return;
    } else {
      if (this.sureCd) return this.enterCd(current.map((c) => posix.resolve(c, target.value)));
      // A relative `cd` from each directory the line may be in; the old ones stay (the cd may fail).
      for (const c of [...current]) this.addCwd(posix.resolve(c, target.value));
      return;
    }
    if (this.sureCd) return this.enterCd([next]);
    this.addCwd(next);
  }

  /**
   * `cd DIR && …`: what the chain runs, runs in DIR only (the cd succeeded); once the chain ends (`||`, `;`,
   * a newline) the line may be in DIR or where it was before.
   */
  private enterCd(dirs: readonly string[]): void {
    const either = [...(this.afterCd?.either ?? []), ...(this.cwds ?? [])];
    for (const d of dirs) if (!either.includes(d)) either.push(d);
    const unique = [...new Set(dirs)];
    if (either.length > MAX_CWDS || unique.length > MAX_CWDS) {
      this.cwds = undefined;
      this.afterCd = undefined;
      return;
    }
    this.cwds = unique;
    this.afterCd = { either: [...new Set(either)], last: this.at ?? { start: 0, end: 0 } };
  }

  private addCwd(dir: string): void {
    if (!this.cwds || this.cwds.includes(dir)) return;
    if (this.cwds.length >= MAX_CWDS) {
      this.cwds = undefined;
      return;
    }
    this.cwds.push(dir);
  }

  payload(word: Word, what: string, depth: number): void {
    if (depth >= MAX_PAYLOAD_DEPTH) return this.flagUnparseable("commands are nested too deeply to analyse");
    if (word.literal) return this.inPayload(() => this.script(this.analyzer.parse(word.value), depth + 1));
    this.readsEnvironment ??= `${what} runs a command computed at run time, which can print the environment`;
    this.flagUnknown(`${what} runs a command computed at run time`, "commands:dynamic-code");
    // Still look for denied programs in the part that is known (`eval "rm $x"`).
    this.guessPayload(word.value.replaceAll(UNKNOWN, " _ "), depth);
  }

  /** Findings inside a payload belong to the command that carries it. */
  private inPayload(f: () => void): void {
    const [lock, at] = [this.lock, this.at];
    this.lock = lock ?? at;
    try {
      f();
    } finally {
      this.lock = lock;
      this.at = at;
    }
  }

  /** Parses `text` only to find denied or ask-rule commands in it. */
  guessPayload(text: string, depth: number): void {
    if (depth >= MAX_PAYLOAD_DEPTH) return;
    // A parse costs about as much as a handful of guessed commands.
    if ((this.guesses.count += 8) > MAX_GUESSES)
      return this.flagUnknown("the command runs too many nested commands to analyse", "commands:cap");
    const guess = new Run(this.analyzer, this.ctx, this.rules, this.home);
    guess.guesses = this.guesses;
    guess.script(this.analyzer.parse(text), depth + 1);
    if (!guess.deny && guess.unparseable) {
      const denied = lexicalDeny(text, this.rules.deny);
      if (denied)
        guess.deny = {
          reason: `\`${denied.source}\` is denied by your settings`,
          rule: `commands.deny: ${denied.source}`,
        };
    }
    if (guess.deny) this.mark(this.deniedAt);
    if (guess.ask) this.mark(this.askedAt);
    this.deny ??= guess.deny;
    this.ask ??= guess.ask;
    this.network ??= guess.network;
    if (guess.unknown) this.flagUnknown(guess.unknown.reason, guess.unknown.rule);
  }

  /** One simple command (after quote removal): rules, catalogue, wrappers, effects. */
  simple(words: readonly Word[], depth: number, opts: NestedOptions & { outerAllowed?: boolean; stdin?: Word }): void {
    if (depth > MAX_PAYLOAD_DEPTH * 4) return this.flagUnparseable("commands are nested too deeply to analyse");
    if (opts.guess && ++this.guesses.count > MAX_GUESSES)
      return this.flagUnknown("the command runs too many nested commands to analyse", "commands:cap");
    const variants = this.loopVariants(words);
    if (variants) {
      for (const v of variants) this.simple(v, depth, opts);
      return;
    }
    const program = words[0]!;
    let argv = words;
    if (opts.extraArgs) argv = [...words, unknownWord(true)];
    if (opts.assignments) for (const a of opts.assignments) this.assignment(a.name, a.value, true);
    if (!program.literal) {
      // `/???/rm`: the program's own name is still plain text, and a denied one is still denied.
      if (program.glob && !program.value.includes(UNKNOWN)) {
        const base = baseName(program.value);
        if (
          !/[*?[\]{}]/.test(base) &&
          this.checkDeny([{ ...program, value: base, literal: true }, ...argv.slice(1)], this.rules.deny.key(base))
        )
          return;
      }
      if (opts.guess) return;
      if (program.tilde === "home" && !program.glob && !program.value.includes(UNKNOWN)) {
        // `~/bin/tool`: a known file, just not one any rule or catalogue entry vouches for.
        const base = baseName(program.value);
        if (this.checkDeny([{ ...program, value: base, literal: true }, ...argv.slice(1)], this.rules.deny.key(base)))
          return;
        this.notAllowed.push(argv);
        return this.flagUnsafe(`\`${show(program)}\` is not in your allow list`, "commands:not-allowed", true);
      }
      return this.flagUnknown(unknownProgramReason(program), "commands:unknown-program");
    }
    const name = program.value;
    if (name === "" || INVISIBLE_OR_CONTROL.test(name)) {
      if (opts.guess) return;
      return this.flagUnparseable("the program name contains invisible or control characters");
    }
    const base = baseName(name);
    const systemPath = !name.includes("/") || SYSTEM_BIN.test(name);
    // Rules see the program as `git` whether written `git`, `/usr/bin/git` or with global options.
    const ruleProgram = systemPath ? base : name;
    let ruleArgv: readonly Word[] =
      ruleProgram === name ? argv : [{ ...program, value: ruleProgram }, ...argv.slice(1)];
    if (systemPath && base === "git") ruleArgv = gitRuleArgv(ruleArgv);

    const looseKey = this.rules.deny.key(name);
    if (this.checkDeny(argv, looseKey) || (ruleArgv !== argv && this.checkDeny(ruleArgv, looseKey))) return;
    const a = this.rules.ask.match(ruleArgv, looseKey);
    if (a.match !== "no") this.mark(this.askedAt);
    if (a.match !== "no")
      this.ask ??= { reason: `\`${a.rule!.source}\` always asks`, rule: `permissions.ask: Bash(${a.rule!.source})` };
    // Recorded for every resolved program, guessed ones included: the sandboxed tier asks at the network.
    const values = ruleArgv.map((w) => w.value);
    this.network ??= networkUse(base, values);
    this.readsEnvironment ??= programReadsEnvironment(base, argv, opts.stdin);
    if (opts.guess) {
      // Only looking for denied commands: follow what this one runs, ignore the rest.
      const entry = systemPath ? catalogueEntry(base) : undefined;
      entry?.(argv, new CommandEffects(this, depth, ruleArgv, false, opts.stdin, true));
      return;
    }

    const allowRule = this.rules.allow.match(ruleArgv, ruleProgram);
    const allowed = opts.outerAllowed === true || allowRule.match === "yes";
    const check = systemPath ? catalogueEntry(base, argv) : undefined;
    if (!check) {
      this.uncataloguedArguments(argv);
      this.uncataloguedCommandWords(argv, opts.stdin);
      if (allowed) {
        this.readOnly = false;
        this.labels.push(
          allowRule.match === "yes" ? label("commands.allow: ", allowRule.rule!.source) : label("allowed: ", base),
        );
        return;
      }
      this.notAllowed.push(ruleArgv);
      return this.flagUnsafe(`\`${base}\` is not in your allow list`, "commands:not-allowed", true);
    }

    const fx = new CommandEffects(this, depth, ruleArgv, allowed, opts.stdin);
    check(argv, fx);
    const name_ = fx.labelName || base;
    if (fx.danger !== undefined) {
      this.codeTextRules(argv, argv.slice(1, 257), opts.stdin);
      return this.flagUnsafe(fx.danger, label("catalogue: ", name_));
    }
    // Text on the input of a command that changes state may be what it runs (`make -f - <<< 'all:; rm x'`).
    if (fx.notReadOnlyReason !== undefined) this.codeTextRules(argv, [], opts.stdin);
    if (fx.deletion !== undefined) {
      this.deletes = true;
      return this.flagUnsafe(fx.deletion, label("catalogue: ", name_));
    }
    if (fx.notReadOnlyReason !== undefined) {
      this.readOnly = false;
      if (allowed) {
        this.labels.push(
          allowRule.match === "yes" ? label("commands.allow: ", allowRule.rule!.source) : label("allowed: ", name_),
        );
        return;
      }
      this.notAllowed.push(ruleArgv);
      return this.flagUnsafe(
        `\`${name_}\` is not in your allow list (${fx.notReadOnlyReason})`,
        "commands:not-allowed",
        true,
      );
    }
    this.labels.push(label("catalogue: ", name_));
  }

  /** Deny rules against one spelling of the command; true when denied. */
  private checkDeny(argv: readonly Word[], key: string): boolean {
    const d = this.rules.deny.match(argv, key);
    if (d.match === "yes") {
      this.mark(this.deniedAt);
      this.deny ??= {
        reason: `\`${d.rule!.source}\` is denied by your settings`,
        rule: `commands.deny: ${d.rule!.source}`,
      };
      return true;
    }
    if (d.match === "maybe")
      this.flagUnknown(
        `\`${display(argv)}\` could turn out to be \`${d.rule!.source}\`, which is denied`,
        `commands.deny: ${d.rule!.source}`,
      );
    return false;
  }

  result(): CommandAnalysis {
    const r = this.verdict();
    // Where the line may run: anywhere but the starting directory and below it (`cd ..`, `cd ~`, a `cd` not
    // followed) is a directory whose files the analysis did not look at.
    const start = this.ctx.cwd;
    const leaves = this.cwds === undefined || this.cwds.some((d) => d !== start && !d.startsWith(`${start}/`));
    return {
      ...r,
      ...(this.network !== undefined ? { network: this.network } : {}),
      ...(this.readsEnvironment !== undefined ? { readsEnvironment: this.readsEnvironment } : {}),
      ...(leaves ? { leavesStartDir: true as const } : {}),
    };
  }

  private verdict(): CommandAnalysis {
    const deletes = this.deletes;
    if (this.deny) return { verdict: "deny", ...this.deny, readOnly: false, deletes };
    if (this.unparseable) return { verdict: "unparseable", ...this.unparseable, readOnly: false, deletes };
    if (this.unknown) return { verdict: "unparseable", ...this.unknown, readOnly: false, deletes };
    if (this.ask) return { verdict: "ask-rule", ...this.ask, readOnly: false, deletes };
    if (this.unsafe) {
      const suggestion = this.blocked ? undefined : suggestFor(this.notAllowed);
      return { verdict: "unsafe", ...this.unsafe, readOnly: false, deletes, ...(suggestion ? { suggestion } : {}) };
    }
    const labels = this.labels;
    let rule: string;
    if (labels.length === 0) rule = "catalogue: empty";
    else if (labels.length === 1) rule = labels[0]!;
    else {
      const unique = [...new Set(labels)];
      rule = unique.length <= 3 ? unique.join(", ") : `${unique.slice(0, 3).join(", ")}, …`;
    }
    return {
      verdict: "safe",
      reason: this.readOnly
        ? "every part is a read-only command"
        : "every part is allowed and its file effects stay inside the workspace",
      rule,
      readOnly: this.readOnly,
      deletes,
    };
  }
}

/** One rule that would let every not-allowed part run, if there is one. */
function suggestFor(notAllowed: readonly (readonly Word[])[]): string | undefined {
  const first = notAllowed[0];
  if (!first) return undefined;
  const suggestion = suggestRule(first);
  if (!suggestion) return undefined;
  // The suggestion has no globs: each part must start with exactly its words.
  const words = suggestion.split(" ");
  for (const argv of notAllowed) {
    if (argv.length < words.length) return undefined;
    for (let i = 0; i < words.length; i++) if (!argv[i]!.literal || argv[i]!.value !== words[i]) return undefined;
  }
  return suggestion;
}

class CommandEffects implements Effects {
  /** The first reason of each kind (the analysis reports the first). */
  danger: string | undefined;
  deletion: string | undefined;
  notReadOnlyReason: string | undefined;
  labelName = "";

  constructor(
    private readonly run: Run,
    private readonly depth: number,
    private readonly ruleArgv: readonly Word[],
    private readonly allowed: boolean,
    readonly stdin: Word | undefined,
    /** Only following nested commands to find denied ones. */
    private readonly guess = false,
  ) {}

  dangerous(reason: string): void {
    this.danger ??= reason;
  }
  deletes(reason: string): void {
    this.deletion ??= reason;
    if (!this.guess) this.run.noteDeletion(reason, "commands:deletes");
  }
  notReadOnly(reason: string): void {
    this.notReadOnlyReason ??= reason;
  }
  unknown(reason: string): void {
    if (!this.guess)
      this.run.flagUnknown(reason, label("catalogue: ", this.labelName || baseName(this.ruleArgv[0]?.value ?? "?")));
  }
  read(path: Word, kind: ReadKind, base?: Word, filter?: ReadFilter): void {
    if (!this.guess) this.run.path(path, "read", kind, base, filter);
  }
  write(path: Word, base?: Word): void {
    if (!this.guess) this.run.path(path, "write", "content", base);
  }
  movesTo(dest: Word, base?: Word): void {
    if (!this.guess) this.run.movesTo(dest, base, baseName(this.ruleArgv[0]?.value ?? "?"));
  }
  mayTouch(path: Word, base: Word | undefined, writes: boolean): void {
    if (this.guess || !path.literal || (base && !base.literal)) return;
    const v = base && !path.value.startsWith("/") ? posix.join(base.value, path.value) : path.value;
    this.run.touchArgument(v, writes);
  }
  nested(argv: readonly Word[], opts: NestedOptions): void {
    if (argv.length === 0) return;
    const stdin = opts.extraArgs ? undefined : this.stdin;
    if (this.guess) return this.run.simple(argv, this.depth + 1, { ...opts, guess: true, stdin });
    // An allow rule for the outer command that reaches into the nested one licenses it (`sudo apt update`).
    const outer = this.run.rules.allow.match(this.ruleArgv, this.ruleArgv[0]!.value);
    const outerAllowed = this.allowed && outer.match === "yes" && outer.rule!.words.length > opts.prefix;
    this.run.simple(argv, this.depth + 1, { ...opts, outerAllowed, stdin });
  }
  payload(script: Word, what: string): void {
    if (this.guess) this.run.guessPayload(script.value.replaceAll(UNKNOWN, " _ "), this.depth);
    else this.run.payload(script, what, this.depth);
  }
  chdir(target: Word | "home" | "unknown"): void {
    if (!this.guess) this.run.chdir(target);
  }
  assign(name: string, value: Word): void {
    if (!this.guess) this.run.assignment(name, value, false);
  }
  label(name: string): void {
    this.labelName = name;
  }
}

/**
 * A substitution the independent scan finds but the parser did not analyse (or a scan that gave up, or a
 * brace expansion past its cap): the line cannot be vouched for.
 */
function unanalysedSubstitution(scan: SubstitutionScan, script: Script): string | undefined {
  if (scan.problem) return scan.problem;
  if (scan.openers.length === 0) return undefined;
  const analysed = script.substitutions ?? [];
  const seen = scan.openers.length > 16 ? new Set(analysed) : undefined;
  for (const at of scan.openers)
    if (!(seen ? seen.has(at) : analysed.includes(at)))
      return "the command has a substitution in a place Toolgate cannot analyse";
  return undefined;
}

/**
 * Why a program word cannot be looked up, in words a person can read: the variable it comes from, or the parts
 * that are written out; a name made only of expansions is said to be computed (never a bare "…").
 */
function unknownProgramReason(w: Word): string {
  if (w.variable !== undefined)
    return `the program is the value of \`$${w.variable}\`, known only when the command runs`;
  if (w.value.replaceAll(UNKNOWN, "") === "")
    return "the program's name is computed by an expansion or substitution, so it is known only when the command runs";
  return `the program \`${show(w)}\` (… stands for the parts computed then) is known only when the command runs`;
}

function show(w: Word): string {
  return w.value.replaceAll(UNKNOWN, "…");
}

function display(argv: readonly Word[]): string {
  return argv.map(show).join(" ");
}

/** The text between two spans without blanks, newlines and line continuations ("" when out of order). */
function between(line: string, from: SourceSpan | undefined, to: SourceSpan | undefined): string | undefined {
  const start = from?.end ?? 0;
  if (!to || to.start < start) return undefined;
  return line.slice(start, to.start).replace(/\\\n|\s/g, "");
}

/** The command at `to` runs only if the one ending at `from` ran and (for `&&`) succeeded, in the same shell. */
function linked(line: string, from: SourceSpan, to: SourceSpan | undefined): boolean {
  const t = between(line, from, to);
  return t === "&&" || t === "|" || t === "|&";
}

/**
 * A `cd` whose success the next command depends on: followed by `&&`, and itself not in a pipeline (a
 * subshell), not negated, not the right side of `||` — what precedes it starts a list or is `&&`.
 */
function sureCd(line: string, c: SimpleCommand, prev: SourceSpan | undefined, next: SourceSpan | undefined): boolean {
  const program = c.words[0];
  if (!program?.literal || program.value !== "cd" || !c.span) return false;
  if (between(line, c.span, next) !== "&&") return false;
  const before = between(line, prev, c.span);
  if (before === undefined) return false;
  return before === "" || /(;|&&|\(|\{|(^|[^|&<>])&)$/.test(before);
}

/** The first verdict that failed, if any. */
function firstFailure(verdicts: readonly PathVerdict[]): { reason: string; rule: string } | undefined {
  for (const v of verdicts) if (!v.ok) return v;
  return undefined;
}

/** The strings in one argument an unknown program could take as a path. */
function argumentPaths(arg: string): string[] {
  const out: string[] = [];
  const eq = arg.indexOf("=");
  if (arg.startsWith("--")) {
    if (eq > 0) out.push(arg.slice(eq + 1));
  } else if (arg.startsWith("-")) {
    if (arg.length > 2) out.push(arg.slice(2));
    if (eq > 0) out.push(arg.slice(eq + 1));
  } else {
    out.push(arg);
    if (eq > 0) out.push(arg.slice(eq + 1));
  }
  return out.filter((v) => v !== "" && v !== "-");
}

/** Declarations that make one name stand for another (`declare -n ref=f`): any assignment may then be to `f`. */
const NAMEREF_DECLARATIONS = new Set(["declare", "typeset", "local", "readonly", "export"]);

/**
 * `for` variables of one script that keep the loop's words: assigned by exactly one `for`, and named
 * nowhere else as something assigned — no `f=…` (also inside strings `eval` or a nested shell could run),
 * no `read f`/`printf -v f`/`getopts o f`, no arithmetic `f++`, no `…=f` a nameref could point with; and no
 * `source`/`.` or nameref declaration in the script at all, since those can assign any name unseen.
 */
function stableLoopVariables(s: Script): ReadonlySet<string> {
  const loops = new Map<string, number>();
  for (const c of s.commands)
    for (const a of c.assignments) if (a.loopValues) loops.set(a.name, (loops.get(a.name) ?? 0) + 1);
  if (loops.size === 0) return new Set();
  const texts: string[] = [];
  const assigned = new Set<string>();
  for (const c of s.commands) {
    const program = c.words[0]?.value;
    if (program === "source" || program === ".") return new Set();
    if (program !== undefined && NAMEREF_DECLARATIONS.has(program) && c.words.some((w) => /^-[A-Za-z]*n/.test(w.value)))
      return new Set();
    for (const a of c.assignments) {
      if (!a.loopValues) assigned.add(a.name.replace(/\[.*$/s, ""));
      texts.push(a.value.value);
    }
    for (const w of c.words) texts.push(w.value);
    for (const r of c.redirects) texts.push(r.target.value);
  }
  const stable = new Set<string>();
  for (const [name, count] of loops) {
    if (count !== 1 || assigned.has(name)) continue;
    const named = new RegExp(`(^|[^A-Za-z0-9_-])${name}([+]?=|\\[|\\+\\+|--|$)|(\\+\\+|--)${name}\\b|=${name}$`, "m");
    if (!texts.some((t) => named.test(t))) stable.add(name);
  }
  return stable;
}
