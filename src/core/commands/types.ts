/**
 * The contract between the gate and the shell analysis. The gate owns policy (modes, tiers, limits);
 * the analyzer owns the shell grammar and says, for one command line, what it would do.
 */
import type { SourceSpan } from "../types";
import type { ReadKind } from "./catalogue/effects";
import type { ReadFilter } from "../readFilter";

export type PathAccess = "read" | "write";

export type PathVerdict =
  { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly rule: string };

/**
 * The same path gate the file tools pass. `path` is as written in the command (after unquoting);
 * relative paths resolve against `cwd`. Writes outside the workspace, into protected paths, and
 * reads of ignored or (when not allowed) external paths come back `ok: false`.
 */
export interface PathGate {
  /**
   * `kind` of a read: "content" (the default) when the program reads what is inside — for a directory, that
   * is a recursive read of every file below it (`grep -r`, `rg`) — or "names" when only names come out (`ls`).
   * "content-nofollow": a content read by a program that does not follow links below a directory.
   * "file-content": the named file's own content, by a reader that reads nothing of a directory it is given
   * (`cat dir` fails: no recursive read).
   * "git-repository": git finds its repository from this directory; "git-history": git prints contents from
   * the objects of the repository found there; "git-stage"/"git-stage-forced": git copies the files below
   * into its objects; "copy-tree": the tree is copied or moved whole (see catalogue/effects.ts).
   * `filter`: of the files below a directory read for its content, the reader reads only those it selects.
   */
  check(path: string, cwd: string, access: PathAccess, kind?: ReadKind, filter?: ReadFilter): PathVerdict;
  /**
   * A glob (`src/*.ts`) whose matches are read for their content, one file each (not recursively): ok only
   * when no name it can match is excluded by the ignore file or leads elsewhere. Optional: without it, such
   * a read asks.
   */
  checkPattern?(pattern: string, cwd: string): PathVerdict;
  /** A file effect whose path is known only when the command runs (a variable, a pattern, an unknown `cd`). */
  unresolved?(access: PathAccess, shown: string): void;
  /**
   * Whether `path` (resolved against `cwd`, links followed) lies inside a workspace root. Optional: without
   * it, the analysis compares the path with the first root (`CommandContext.cwd`) by its spelling.
   */
  inWorkspace?(path: string, cwd: string): boolean;
}

export interface CommandContext {
  /** argv-prefix rules on word boundaries, `*` glob (toolgate.commands.allow plus Bash(...) allow rules). */
  readonly allow: readonly string[];
  /** Programs or prefixes refused anywhere in the tree (toolgate.commands.deny plus Bash(...) deny rules). */
  readonly deny: readonly string[];
  /** Prefixes that always ask (Bash(...) ask rules). */
  readonly ask: readonly string[];
  /** Absolute working directory the command starts in (the first workspace root). */
  readonly cwd: string;
  readonly paths: PathGate;
  readonly platform: "posix" | "windows";
}

/**
 * - `deny`: a denied program or prefix appears somewhere in the tree (after unwrapping and normalising).
 * - `ask-rule`: an ask rule matched.
 * - `safe`: every simple command is allow-listed or a catalogued read-only program with safe arguments,
 *   no risky construct, and every file effect passed the path gate.
 * - `unsafe`: understood, but not provably safe (reason says why: "`curl` is not in your allow list").
 * - `unparseable`: parse error, cap, unknown construct, control characters: the gate must ask (headless: deny)
 *   whatever the switches say, because a denied program could hide inside.
 */
export type CommandVerdict = "deny" | "ask-rule" | "safe" | "unsafe" | "unparseable";

export interface CommandAnalysis {
  readonly verdict: CommandVerdict;
  readonly reason: string;
  readonly rule: string;
  /** Every part is read-only (no writes, no state change): plan mode may run it. */
  readonly readOnly: boolean;
  /** Some part deletes files; no switch auto-approves deletion (only auto mode runs it). */
  readonly deletes: boolean;
  /**
   * The first program or subcommand with the catalogue's network effect (catalogue/network.ts), as the person
   * reads it (`curl`, `git push`, `npm install`); absent when the analysis saw none.
   */
  readonly network?: string;
  /**
   * The line may run commands in a directory outside the one it starts in (`cd ..`, `cd ~`, or a `cd` the
   * analysis could not follow); absent when every directory it may be in is that one or below it.
   */
  readonly leavesStartDir?: true;
  /**
   * Why the line could print the environment it runs with (a program that prints variables, an expansion of a
   * credential-looking name, `/proc/…/environ`, code text an interpreter runs; see environmentReads.ts); absent
   * when it cannot, as far as the analysis sees. The gate does not decide on it: a command outside the OS
   * sandbox (a hook's agent runs it with its own environment) asks on it.
   */
  readonly readsEnvironment?: string;
  /** The narrowest allow rule that would have allowed it (`git log` for `git log --oneline -5`), if any. */
  readonly suggestion?: string;
  /**
   * Where the commands behind the verdict are written in the line (sorted, disjoint; see spans.ts): the denied
   * ones for `deny`, the ask-rule matches for `ask-rule`, every command not vouched for otherwise. Absent when
   * the verdict hangs on no one command (a parse error, a construct of the whole line) or the line is safe.
   */
  readonly spans?: readonly SourceSpan[];
}

export interface CommandAnalyzer {
  /** Loads whatever the analysis needs (e.g. a grammar). Idempotent; analyze() before it resolves fails closed. */
  ready(): Promise<void>;
  /** Never throws: any internal failure is an `unparseable` analysis. */
  analyze(command: string, ctx: CommandContext): CommandAnalysis;
}
