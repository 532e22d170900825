/**
 * Brace expansion and tilde detection: the argv bash makes of one word, before anything judges it.
 *
 * bash expands braces on the word's raw text, then tildes, then parameters, substitutions and quotes. Both
 * parsers describe a word as pieces (`WordBuilder`: unquoted text, quoted text, backslash-escaped characters,
 * expansions); this module re-reads those pieces the way bash's brace scanner reads the raw text (braces.c:
 * an unquoted `{` with a matching `}` and an unquoted `,` or `..` between; `${` is not a brace; a `{`
 * starting a word and followed by `}` is left alone; sequences `{a..e}`, `{1..10..2}`, `{01..10}`), so the
 * words come out as bash's do. Tildes are only located here (a `~` at the start, and in words bash reads as
 * assignments after the first `=` and each unquoted `:`): the analyzer replaces them with the known home or
 * working directory (tildes.ts `resolveTildes`), since the directory depends on the `cd`s before the word runs.
 *
 * Fail closed: where the pieces cannot tell what bash's raw-text scan would do (an expansion whose text is
 * not seen here, next to a brace that expands; a quoted comma deciding between a list and a sequence; a
 * letter range crossing the backslash) the word becomes one word known only at run time, which may split.
 * More than `MAX_BRACE_WORDS` words is a cap: the caller makes the line unparseable.
 */
import { UNKNOWN, type Word } from "./model";
import { MAX_BRACE_WORDS } from "./substitutionScan";
import { atomsOf, C, E, Q, U, X, type Atoms, type Segment } from "./atoms";
import { assignmentLike, tildes } from "./tildes";

/** Thrown past `MAX_BRACE_WORDS`. */
export class BraceCap extends Error {}
/** Thrown where the pieces cannot tell what bash would make of the word. */
class Ambiguous extends Error {}

/** Which expansions a word position gets: argv words (brace, tilde), assignment values and here-strings. */
export type ExpandMode = "argument" | "assignment" | "herestring";

/**
 * The words bash makes of one word: `argument` brace-expands; all modes locate tildes. Unquoted empty
 * results are dropped (`{,}` is no word at all), as bash drops them.
 */
export function expandPieces(value: string, segments: readonly Segment[], mode: ExpandMode): Word[] {
  const { atoms, ids } = atomsOf(value, segments);
  if (mode !== "argument") return [assemble(atoms, ids, mode === "assignment" ? "value" : assignmentLike(atoms, ids))];
  let results: number[][];
  try {
    results = braceExpand(atoms, ids);
    const changed = results.length !== 1 || !sameAtoms(results[0]!, ids);
    if (changed && ids.some((id) => atoms.kind[id] === C)) throw new Ambiguous();
    if (!changed) return [assemble(atoms, ids, assignmentLike(atoms, ids))];
  } catch (e) {
    if (e instanceof Ambiguous) return [runTimeWord()];
    throw e;
  }
  // bash keeps a word's assignment flag only when brace expansion left it unchanged.
  return results.filter((r) => r.length > 0).map((r) => assemble(atoms, r, "no"));
}

function sameAtoms(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function runTimeWord(): Word {
  return { value: UNKNOWN, literal: false, splits: true, glob: false, tilde: undefined, pipe: false };
}

function isBlankEscape(atoms: Atoms, id: number | undefined): boolean {
  if (id === undefined || atoms.kind[id] !== E) return false;
  const c = atoms.ch[id];
  return c === " " || c === "\t" || c === "\n";
}

/** bash's brace_gobbler over atoms: the index of the first `satisfy` that counts, or `s.length`. */
function gobble(atoms: Atoms, s: readonly number[], from: number, satisfy: "{" | "}" | ","): number {
  let level = 0;
  let commas = satisfy === "}" ? 0 : 1;
  for (let i = from; i < s.length; i++) {
    const id = s[i]!;
    if (atoms.kind[id] !== U) continue;
    const c = atoms.ch[id];
    if (c === satisfy && level === 0 && commas > 0) {
      // A `{` at the start (or after an escaped blank) followed by `}` is not a brace expansion.
      if (c === "{" && (i === 0 || isBlankEscape(atoms, s[i - 1])) && atoms.is(s[i + 1], U, "}")) continue;
      return i;
    }
    if (c === "{") level++;
    else if (c === "}" && level > 0) level--;
    else if (satisfy === "}" && level === 0) {
      if (c === ",") commas++;
      else if (c === "." && atoms.is(s[i + 1], U, ".") && !atoms.is(s[i + 2], U, "}")) commas++;
    }
  }
  return s.length;
}

function cross(a: readonly number[][], b: readonly number[][]): number[][] {
  if (a.length * b.length > MAX_BRACE_WORDS) throw new BraceCap();
  const out: number[][] = [];
  for (const x of a) for (const y of b) out.push(x.length === 0 ? y : y.length === 0 ? x : [...x, ...y]);
  return out;
}

/** bash's brace_expand over atoms; returns `[s]` itself when nothing expands. */
function braceExpand(atoms: Atoms, s: number[]): number[][] {
  let i = 0;
  for (;;) {
    i = gobble(atoms, s, i, "{");
    if (i >= s.length) return [s];
    if (gobble(atoms, s, i + 1, "}") < s.length) break;
    i++;
  }
  const start = i + 1;
  const end = gobble(atoms, s, start, "}");
  const amble = s.slice(start, end);
  let tack: number[][];
  if (!ambleHasComma(atoms, amble)) {
    const seq = sequence(atoms, amble);
    if (seq) tack = seq;
    else if (end + 1 < s.length) tack = [s.slice(start - 1, end + 1)];
    else return [s];
  } else tack = expandAmble(atoms, amble);
  let result = cross([s.slice(0, start - 1)], tack);
  const post = s.slice(end + 1);
  if (post.length > 0) result = cross(result, braceExpand(atoms, post));
  return result;
}

/**
 * bash tests the amble's raw text for a comma not after a backslash (quoted ones count). An unquoted comma
 * is one; an escaped one is not; a comma inside quotes may or may not be written as one (`$'\x2c'`).
 */
function ambleHasComma(atoms: Atoms, amble: readonly number[]): boolean {
  let quoted = false;
  for (const id of amble) {
    if (atoms.ch[id] !== ",") continue;
    if (atoms.kind[id] === U) return true;
    if (atoms.kind[id] === Q) quoted = true;
  }
  if (quoted) throw new Ambiguous();
  return false;
}

function expandAmble(atoms: Atoms, amble: number[]): number[][] {
  const out: number[][] = [];
  for (let start = 0; ;) {
    const i = gobble(atoms, amble, start, ",");
    const part = braceExpand(atoms, amble.slice(start, i));
    if (out.length + part.length > MAX_BRACE_WORDS) throw new BraceCap();
    out.push(...part);
    if (i >= amble.length) return out;
    start = i + 1;
  }
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const INT32_MAX = (1n << 31n) - 1n;

/** strtoimax on the whole text (digits with an optional sign); undefined when not a number or out of range. */
function int64(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const n = BigInt(text);
  return n > INT64_MAX || n < INT64_MIN ? undefined : n;
}

const ALPHA = /^[A-Za-z]$/;

/** `{x..y[..incr]}` as bash's expand_seqterm reads it: new unquoted atoms per word, or undefined. */
function sequence(atoms: Atoms, amble: readonly number[]): number[][] | undefined {
  if (amble.some((id) => atoms.kind[id] !== U)) return undefined;
  const text = amble.map((id) => atoms.ch[id]).join("");
  const dots = text.indexOf("..");
  if (dots < 0) return undefined;
  const lhs = text.slice(0, dots);
  const rhs = text.slice(dots + 2);
  if (lhs === "" || rhs === "") return undefined;
  const lhsInt = int64(lhs);
  const lhsChar = lhsInt === undefined && ALPHA.test(lhs);
  let rhsNumber: string;
  let rest: string;
  let rhsInt: bigint | undefined;
  const m = /^[+-]?\d+/.exec(rhs);
  if (m) {
    rhsNumber = m[0];
    rest = rhs.slice(m[0].length);
    rhsInt = int64(rhsNumber);
    if (rhsInt === undefined || (rest !== "" && rest[0] !== ".")) return undefined;
  } else if (ALPHA.test(rhs[0]!) && (rhs.length === 1 || rhs[1] === ".")) {
    rhsNumber = rhs[0]!;
    rest = rhs.slice(1);
  } else return undefined;
  let incr = 1n;
  if (rest !== "") {
    const step = rest.startsWith("..") && rest.length > 2 ? int64(rest.slice(2)) : undefined;
    if (step === undefined) return undefined;
    incr = step;
  }
  let from: bigint;
  let to: bigint;
  let width = 0;
  let chars = false;
  if (lhsInt !== undefined && rhsInt !== undefined) {
    from = lhsInt;
    to = rhsInt;
    const zero = (t: string): boolean => (t.length > 1 && t[0] === "0") || (t.length > 2 && t.startsWith("-0"));
    if (zero(lhs) || zero(rhsNumber)) width = Math.max(lhs.length, rhsNumber.length);
  } else if (lhsChar && rhsInt === undefined) {
    from = BigInt(lhs.charCodeAt(0));
    to = BigInt(rhsNumber.charCodeAt(0));
    chars = true;
  } else return undefined;
  if (incr === 0n) incr = 1n;
  if ((from > to && incr > 0n) || (from < to && incr < 0n)) incr = -incr;
  const span = from > to ? from - to : to - from;
  const count = span / (incr < 0n ? -incr : incr) + 1n;
  if (count > BigInt(MAX_BRACE_WORDS)) throw new BraceCap();
  const out: number[][] = [];
  for (let n = from; ;) {
    let word: string;
    if (chars) {
      // bash makes a bare backslash of 92, which quote removal then eats: not modelled.
      if (n === 92n) throw new Ambiguous();
      word = String.fromCharCode(Number(n));
    } else if (width > 0) {
      // bash prints these through a C int.
      if (n > INT32_MAX || n < -INT32_MAX) throw new Ambiguous();
      const digits = (n < 0n ? -n : n).toString();
      word = n < 0n ? "-" + digits.padStart(width - 1, "0") : digits.padStart(width, "0");
    } else word = n.toString();
    out.push([...word].map((c) => atoms.add(c, U)));
    const next = n + incr;
    if (next > INT64_MAX || next < INT64_MIN) break;
    n = next;
    if ((incr < 0n && n < to) || (incr > 0n && n > to)) break;
  }
  return out;
}

/** Unquoted `*` or `?`, or `[` … `]`: a pattern (braces are expanded by now). */
function isPattern(atoms: Atoms, ids: readonly number[]): boolean {
  let open = false;
  for (const id of ids) {
    if (atoms.kind[id] !== U) continue;
    const c = atoms.ch[id];
    if (c === "*" || c === "?") return true;
    if (c === "[") open = true;
    else if (c === "]" && open) return true;
  }
  return false;
}

function assemble(atoms: Atoms, ids: readonly number[], assignment: "yes" | "no" | "maybe" | "value"): Word {
  let value = "";
  let unknown = false;
  let unquotedExpansion = false;
  const offsets: number[] = [];
  for (const id of ids) {
    offsets.push(value.length);
    value += atoms.ch[id];
    const kind = atoms.kind[id];
    if (kind === X || kind === C) {
      unknown = true;
      if (!atoms.meta[id]?.quoted) unquotedExpansion = true;
    }
  }
  offsets.push(value.length);
  const glob = isPattern(atoms, ids);
  const spots = tildes(atoms, ids, assignment).map((s) => ({ at: offsets[s.at]!, end: offsets[s.end]!, kind: s.kind }));
  const only = ids.length === 1 ? atoms.meta[ids[0]!] : undefined;
  return {
    value,
    literal: !unknown && !glob && spots.length === 0,
    splits: unquotedExpansion || glob,
    glob,
    tilde:
      spots.length === 0
        ? undefined
        : spots.length === 1 && spots[0]!.at === 0 && spots[0]!.kind === "home"
          ? "home"
          : "other",
    pipe: only?.pipe === true,
    ...(only?.variable !== undefined
      ? { variable: only.variable, ...(only.loopValues ? { loopValues: only.loopValues } : {}) }
      : {}),
    ...(spots.length > 0 ? { tildes: spots } : {}),
  };
}
