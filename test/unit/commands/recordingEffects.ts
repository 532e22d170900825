/**
 * An `Effects` that records what a catalogue check reports, for grammar tests that read one program's argv
 * without the analyzer: the payloads it would run, the nested commands, and whether it found the line
 * unknown or dangerous.
 */
import type { Effects } from "../../../src/core/commands/catalogue/effects";
import { literalWord, type Word } from "../../../src/core/commands/model";

export interface Recorded {
  readonly fx: Effects;
  readonly payloads: string[];
  /** Nested commands that are not guesses, as their words. */
  readonly nested: string[][];
  readonly unknown: string[];
  readonly dangerous: string[];
  readonly notReadOnly: string[];
  readonly writes: string[];
}

export function recordingEffects(): Recorded {
  const r = {
    payloads: [] as string[],
    nested: [] as string[][],
    unknown: [] as string[],
    dangerous: [] as string[],
    notReadOnly: [] as string[],
    writes: [] as string[],
  };
  const fx: Effects = {
    stdin: undefined,
    piped: undefined,
    dangerous: (why) => r.dangerous.push(why),
    deletes: () => undefined,
    notReadOnly: (why) => r.notReadOnly.push(why),
    unknown: (why) => r.unknown.push(why),
    read: () => undefined,
    write: (path) => r.writes.push(path.value),
    movesTo: () => undefined,
    mayTouch: () => undefined,
    nested: (argv, opts) => {
      if (!opts.guess) r.nested.push(argv.map((w) => w.value));
    },
    payload: (script) => r.payloads.push(script.value),
    assign: () => undefined,
    chdir: () => undefined,
    label: () => undefined,
    printsPaths: () => undefined,
  };
  return { fx, ...r };
}

export const words = (argv: readonly string[]): Word[] => argv.map(literalWord);
