/**
 * Where bash expands tildes in a word (a `~` at the start; after the first `=` and each unquoted `:` in words
 * its parser reads as assignments), and their replacement by the analyzer (`resolveTildes`).
 */
import { UNKNOWN, type TildeSpot, type Word } from "./model";
import { C, E, Q, U, X, type Atoms } from "./atoms";

/**
 * Whether bash's parser marks the word as an assignment (`NAME=`, `NAME+=`, `NAME[…]=`): then it expands
 * tildes after the first `=` and each unquoted `:`, even as an argument (`dd of=~/x`). "maybe" when a
 * subscript holds something whose text is not seen here.
 */
export function assignmentLike(atoms: Atoms, ids: readonly number[]): "yes" | "no" | "maybe" {
  const u = (i: number): string | undefined => (atoms.kind[ids[i]!] === U ? atoms.ch[ids[i]!] : undefined);
  if (!/^[A-Za-z_]$/.test(u(0) ?? "")) return "no";
  let i = 1;
  while (i < ids.length && /^[A-Za-z0-9_]$/.test(u(i) ?? "")) i++;
  let maybe = false;
  if (u(i) === "[") {
    let depth = 0;
    for (; i < ids.length; i++) {
      const c = u(i);
      if (c === "[") depth++;
      else if (c === "]" && --depth === 0) break;
      else if (c === undefined && atoms.kind[ids[i]!] !== X) maybe = true;
      else if (c === "=") maybe = true;
    }
    if (i >= ids.length) return "no";
    i++;
  }
  if (u(i) === "+") i++;
  if (u(i) !== "=") return "no";
  return maybe ? "maybe" : "yes";
}

/**
 * The tilde at `ids[at]` (an unquoted `~`): bash reads the prefix up to an unquoted `/` (and `:` where
 * `colon`); any quote or backslash before that end leaves the `~` as it is, and so does a prefix that is no
 * user name (an expansion). Returns the spot, or undefined when the `~` stays literal.
 */
function tildeAt(atoms: Atoms, ids: readonly number[], at: number, colon: boolean): TildeSpot | undefined {
  let user = "";
  let userEnd = -1;
  let unclear = false;
  for (let k = at + 1; k < ids.length; k++) {
    const id = ids[k]!;
    const kind = atoms.kind[id]!;
    const c = atoms.ch[id]!;
    if (kind === U && c === "/") break;
    if (userEnd < 0 && kind === U && c === ":") {
      userEnd = k;
      if (colon) break;
      continue;
    }
    if (kind === Q || kind === E) return undefined;
    if (userEnd < 0) {
      // `~$x`: the user name would be the expansion's text, which names no user: `~` stays.
      if (kind !== U) return undefined;
      user += c;
    } else if (kind === C) unclear = true;
  }
  const kind = unclear ? "other" : user === "" ? "home" : user === "+" ? "pwd" : "other";
  return { at, end: at + 1 + user.length, kind };
}

/** Tilde spots in `ids` (indices into `ids`): leading, and after `=`/`:` in assignments. */
export function tildes(
  atoms: Atoms,
  ids: readonly number[],
  assignment: "yes" | "no" | "maybe" | "value",
): TildeSpot[] {
  const spots: TildeSpot[] = [];
  const isTilde = (k: number): boolean => atoms.is(ids[k], U, "~");
  if (assignment === "value") {
    if (isTilde(0)) push(tildeAt(atoms, ids, 0, true));
  } else if (isTilde(0)) push(tildeAt(atoms, ids, 0, false));
  if (assignment === "no") return spots;
  let seenEquals = assignment === "value";
  for (let k = 0; k + 1 < ids.length; k++) {
    if (atoms.kind[ids[k]!] !== U) continue;
    const c = atoms.ch[ids[k]!];
    const first = c === "=" && !seenEquals && k > 0;
    if (c === "=") seenEquals = true;
    if ((first || c === ":") && isTilde(k + 1)) {
      if (assignment === "maybe") spots.push({ at: k + 1, end: k + 2, kind: "other" });
      else push(tildeAt(atoms, ids, k + 1, true));
    }
  }
  return spots;
  function push(s: TildeSpot | undefined): void {
    if (s) spots.push(s);
  }
}

/**
 * The word with its tildes replaced: `~` by `home`, `~+` by `pwd` (undefined when the working directory is
 * not one known directory). Any other tilde (`~-`, `~user`) is known only at run time: the word stays as it
 * is, not literal. Tilde results are never split or globbed.
 */
export function resolveTildes(w: Word, home: string, pwd: string | undefined): Word {
  const spots = w.tildes;
  if (!spots) return w;
  let value = "";
  let from = 0;
  for (const s of spots) {
    const dir = s.kind === "home" ? home : s.kind === "pwd" ? pwd : undefined;
    if (dir === undefined) return w.tilde === "other" ? w : { ...w, tilde: "other" };
    value += w.value.slice(from, s.at) + dir;
    from = s.end;
  }
  value += w.value.slice(from);
  const { tildes: _resolved, ...rest } = w;
  return { ...rest, value, tilde: undefined, literal: !w.glob && !value.includes(UNKNOWN) };
}
