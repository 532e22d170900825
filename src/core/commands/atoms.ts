/**
 * A word as bash's expansion steps read it: one atom per character, each with the kind of piece it came from
 * (see expand.ts). Shared by brace expansion (expand.ts) and tilde location (tildes.ts).
 */
import type { Word } from "./model";

/** Piece kinds: unquoted, quoted (single, double, `$'…'`), backslash-escaped, simple expansion, other expansion. */
export const U = 0;
export const Q = 1;
export const E = 2;
/** `$x`, `${x}`, `$1`, `$@`…: its raw text has no quote, comma, brace (other than its own pair) or slash. */
export const X = 3;
/** `$(…)`, backquotes, `${x…}` with an operator, arithmetic, `<(…)`: its raw text is not known here. */
export const C = 4;

export interface ExpansionMeta {
  readonly quoted: boolean;
  readonly variable?: string;
  readonly loopValues?: readonly Word[];
  readonly pipe?: boolean;
}

/** A run of one kind in the word's value (after quote removal); an expansion is one `UNKNOWN` character. */
export interface Segment {
  readonly kind: number;
  readonly end: number;
  readonly meta?: ExpansionMeta;
}

/** One atom per character (an empty quoted piece is an atom with no character). */
export class Atoms {
  readonly ch: string[] = [];
  readonly kind: number[] = [];
  readonly meta: (ExpansionMeta | undefined)[] = [];

  add(ch: string, kind: number, meta?: ExpansionMeta): number {
    this.ch.push(ch);
    this.kind.push(kind);
    this.meta.push(meta);
    return this.ch.length - 1;
  }

  is(id: number | undefined, kind: number, ch: string): boolean {
    return id !== undefined && this.kind[id] === kind && this.ch[id] === ch;
  }
}

export function atomsOf(value: string, segments: readonly Segment[]): { atoms: Atoms; ids: number[] } {
  const atoms = new Atoms();
  const ids: number[] = [];
  let from = 0;
  for (const s of segments) {
    if (s.end === from && s.kind === Q) ids.push(atoms.add("", Q));
    for (let i = from; i < s.end; i++) ids.push(atoms.add(value[i]!, s.kind, s.meta));
    from = s.end;
  }
  return { atoms, ids };
}
