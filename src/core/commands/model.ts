/**
 * The flat model of one command line that both parsers (the tree-sitter walker in parse.ts and the strict
 * fast parser in fastParse.ts) produce, and the only thing the analysis looks at.
 *
 * Invariant: every program the line can run appears in `commands` (nested substitutions, process
 * substitutions, loop and function bodies included); anything the parser could not account for sets
 * `unparseable`, never silently drops a command.
 */

import type { SourceSpan } from "../types";

/** Stands for the unknown text of an expansion inside `Word.value`; a C string can never contain it. */
export const UNKNOWN = "\u0000";

/**
 * A tilde prefix bash expands in a word (`~`, `~/x`; after `=` and `:` in assignments): `value` holds its text
 * from `at` to `end` (`~`, `~+`, `~user`). `home` is `~`, `pwd` is `~+`; `other` (`~-`, `~user`, `~1`) is known
 * only at run time. The analyzer replaces the first two (tildes.ts `resolveTildes`).
 */
export interface TildeSpot {
  readonly at: number;
  readonly end: number;
  readonly kind: "home" | "pwd" | "other";
}

/** One shell word after brace expansion and quote removal (tildes located, not yet replaced). */
export interface Word {
  /** Text after quote removal; unknown parts (expansions, substitutions) are `UNKNOWN`. */
  readonly value: string;
  /** The shell passes exactly `value`: no expansion, substitution, glob, brace or tilde. */
  readonly literal: boolean;
  /** An unquoted expansion, glob or brace: the shell may turn it into several words, or none. */
  readonly splits: boolean;
  /** Unquoted glob (`*`, `?`, `[...]`) or brace (`{a,b}`, `{1..3}`) characters: `value` is a pattern. */
  readonly glob: boolean;
  /**
   * Tilde expansion pending: `home` when the only one is a leading `~` or `~/...`, `other` for any other (and
   * for one known only at run time once the analyzer has replaced what it can).
   */
  readonly tilde: "home" | "other" | undefined;
  /** Where the pending tilde expansions are (absent when there are none). */
  readonly tildes?: readonly TildeSpot[];
  /** The whole word is a process substitution (`<(...)`/`>(...)`): a pipe whose commands are in the model. */
  readonly pipe: boolean;
  /** The whole word is one expansion of this variable (`$f` or `"$f"`); `value` is then `UNKNOWN`. */
  readonly variable?: string;
  /**
   * In the body of `for variable in WORDS`: those words (one per iteration). The variable may still have been
   * changed in between; the analyzer decides whether it can rely on them.
   */
  readonly loopValues?: readonly Word[];
}

export interface Assignment {
  /** Variable name; `name[index]` for an array element. */
  readonly name: string;
  readonly value: Word;
  /** `for NAME in WORDS`: the words NAME takes, one per iteration (filled in as the parser reads them). */
  readonly loopValues?: Word[];
}

export type RedirectOp = ">" | ">>" | ">|" | "&>" | "&>>" | "<" | "<>" | ">&" | "<&" | "<<" | "<<-" | "<<<";

export interface Redirect {
  readonly op: RedirectOp;
  /** Explicit descriptor (`2>`), if any. */
  readonly fd: number | undefined;
  /** File, descriptor number, `-`, here-string word, or the text of a here-document (see `heredocWord`). */
  readonly target: Word;
}

export interface SimpleCommand {
  /** `NAME=value` words before the program; with no words this is an assignment statement. */
  readonly assignments: readonly Assignment[];
  /** argv; `words[0]` is the program as written (after quote removal). May be empty. */
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  /** Inside a loop or function body: it may run many times or later, so a `cd` in it makes the cwd unknown. */
  readonly repeated: boolean;
  /**
   * Where it is written in the parsed text: from its first assignment, word or redirect to the end of its last
   * one on its own line (a here-document's body is not part of it). Both parsers give the same span.
   */
  readonly span?: SourceSpan;
}

export interface Script {
  /** Every simple command, substitutions before the command that contains them. */
  readonly commands: SimpleCommand[];
  /** Constructs that make the line unsafe whatever its commands are (`${!x}`, arithmetic on variables...). */
  readonly risks: string[];
  /** Why the line could not be fully understood; commands may then be partial (still used for deny). */
  unparseable: string | undefined;
  /**
   * Constructs that evaluate text known only at run time as code (`$((x))`, `${!x}`, `${x@P}`, an array
   * index): what they run cannot be resolved, so the line is a hard ask in every mode.
   */
  dynamic?: string[];
  /**
   * Offsets in the parsed text of every substitution the parser analysed (the `$` of `$(`, a backquote, the
   * `<`/`>` of a process substitution). The analyzer checks them against an independent scan of the text.
   */
  substitutions?: number[];
}

export function emptyScript(): Script {
  return { commands: [], risks: [], unparseable: undefined };
}

/** A word whose text is known only at run time: `"$x"`, or with `splits` an unquoted `$x`. */
export function unknownWord(splits: boolean): Word {
  return { value: UNKNOWN, literal: false, splits, glob: false, tilde: undefined, pipe: false };
}

export function literalWord(value: string): Word {
  return { value, literal: true, splits: false, glob: false, tilde: undefined, pipe: false };
}
