/**
 * Whether a shell glob in one directory could match a path the ignore file excludes, decided from the two
 * patterns (never by expanding the glob, whose matches can change before bash runs it).
 *
 * The glob is bash's, in its last path segment only (`src/*.ts`, `*.md`): `*`, `?` and `[...]` match no `/`
 * and, at the start of a name, no `.` (dotglob is off in the shell the executor starts; `shopt` is not
 * safe). The ignore rules are gitignore's, matched case-insensitively as the `ignore` package does; a `!`
 * rule is left out and a directory-only rule (`secrets/`) counts for files too, both of which only make the
 * answer "may match" more often. The answer is sound: false means no name the glob can produce is excluded.
 */
import type { FsFacts } from "./fsFacts";
import type { PathVerdict } from "./commands/types";
import type { IgnoreRules } from "./ignoreFile";
import type { ResolvedPath } from "./paths";

type Token =
  | { readonly k: "star" }
  | { readonly k: "any" }
  | { readonly k: "lit"; readonly c: string }
  | { readonly k: "set"; readonly neg: boolean; readonly ranges: readonly [number, number][] };

/** Tokens of one glob segment; `[` without a closing `]` is a literal. */
export function globTokens(seg: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === "*") {
      if (out[out.length - 1]?.k !== "star") out.push({ k: "star" });
    } else if (c === "?") out.push({ k: "any" });
    else if (c === "\\" && i + 1 < seg.length) out.push({ k: "lit", c: seg[++i]! });
    else if (c === "[") {
      let j = i + 1;
      const neg = seg[j] === "!" || seg[j] === "^";
      if (neg) j++;
      const ranges: [number, number][] = [];
      let first = true;
      for (; j < seg.length && (first || seg[j] !== "]"); j++) {
        first = false;
        let lo = seg[j]!;
        if (lo === "\\" && j + 1 < seg.length) lo = seg[++j]!;
        let hi = lo;
        if (seg[j + 1] === "-" && j + 2 < seg.length && seg[j + 2] !== "]") {
          hi = seg[j + 2]!;
          j += 2;
        }
        ranges.push([lo.codePointAt(0)!, hi.codePointAt(0)!]);
      }
      if (j >= seg.length) out.push({ k: "lit", c: "[" });
      else {
        out.push({ k: "set", neg, ranges });
        i = j;
      }
    } else out.push({ k: "lit", c });
  }
  return out;
}

/**
 * `atStart`: `c` would be the name's first character. With `dotRule` (bash), a leading `.` is matched only by
 * a literal `.` that is the glob's first token (`first`), never by a wildcard or after a `*` matched nothing.
 */
function accepts(t: Token, c: string, atStart: boolean, dotRule: boolean, first = true): boolean {
  if (c === "/") return false;
  if (dotRule && atStart && c === "." && !first) return false;
  if (t.k === "star" || t.k === "any") return !(dotRule && atStart && c === ".");
  if (t.k === "lit") return t.c === c;
  if (dotRule && atStart && c === ".") return false;
  const code = c.codePointAt(0)!;
  const inside = t.ranges.some(([lo, hi]) => code >= lo && code <= hi);
  return inside !== t.neg;
}

/** Case-insensitive acceptance (the ignore rules' side). */
function acceptsFolded(t: Token, c: string): boolean {
  return (
    accepts(t, c, false, false) ||
    accepts(t, c.toLowerCase(), false, false) ||
    accepts(t, c.toUpperCase(), false, false)
  );
}

const PROBES = ["a", "z", "A", "0", "_", "-", "~", "\u00e9", "\u4e00"];

/** Is there a character the glob's token `a` and the rule's token `b` both accept? */
function compatible(a: Token, b: Token, atStart: boolean, first: boolean): boolean {
  const candidates = new Set<string>(PROBES);
  for (const t of [a, b]) {
    if (t.k === "lit") {
      candidates.add(t.c);
      candidates.add(t.c.toLowerCase());
      candidates.add(t.c.toUpperCase());
    } else if (t.k === "set")
      for (const [lo, hi] of t.ranges)
        for (const code of [lo, lo + 1, lo + 2, hi + 1, hi + 2, hi + 3]) candidates.add(String.fromCodePoint(code));
  }
  for (const c of candidates) if (accepts(a, c, atStart, true, first) && acceptsFolded(b, c)) return true;
  // Two negated sets (or wildcards) exclude finitely many characters: some character fits both.
  const open = (t: Token) => t.k === "star" || t.k === "any" || (t.k === "set" && t.neg);
  return open(a) && open(b);
}

/** Could some name match both the glob tokens `a` (bash, leading-dot rule) and the rule tokens `b`? */
export function intersects(a: readonly Token[], b: readonly Token[]): boolean {
  const seen = new Set<string>();
  const stack: [number, number, boolean][] = [[0, 0, true]];
  while (stack.length > 0) {
    const [i, j, atStart] = stack.pop()!;
    const key = `${i},${j},${atStart}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    const ta = a[i];
    const tb = b[j];
    if (ta?.k === "star") stack.push([i + 1, j, atStart]);
    if (tb?.k === "star") stack.push([i, j + 1, atStart]);
    if (ta && tb && compatible(ta, tb, atStart, i === 0))
      stack.push([ta.k === "star" ? i : i + 1, tb.k === "star" ? j : j + 1, false]);
  }
  return false;
}

/**
 * Whether the tokens of one glob segment match `chars` in full. `accept(t, c, i, j)` says whether token `i`
 * takes character `j` (for a star: whether the star may swallow it). Memoised, so linear in tokens × chars.
 */
function matchSegment(
  tokens: readonly Token[],
  chars: readonly string[],
  accept: (t: Token, c: string, i: number, j: number) => boolean,
): boolean {
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let r: boolean;
    const t = tokens[i];
    if (!t) r = j === chars.length;
    else if (t.k === "star") r = go(i + 1, j) || (j < chars.length && accept(t, chars[j]!, i, j) && go(i, j + 1));
    else r = j < chars.length && accept(t, chars[j]!, i, j) && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

/** Does the gitignore glob segment match the literal name (case-insensitively)? */
function matchesLiteral(rule: readonly Token[], name: string): boolean {
  return matchSegment(rule, [...name], (t, c) => t.k === "star" || acceptsFolded(t, c));
}

/** The positive rules of an ignore file, as path segments (`**` kept); unanchored rules get a leading `**`. */
function ruleSegments(text: string): string[][] {
  const out: string[][] = [];
  for (const raw of text.split("\n")) {
    let line = raw.replace(/\r$/, "").replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#") || line.startsWith("!")) continue;
    if (line.startsWith("\\#") || line.startsWith("\\!")) line = line.slice(1);
    line = line.replace(/\/+$/, "");
    if (line === "") continue;
    const anchored = line.includes("/");
    const body = line.replace(/^\/+/, "");
    const segs = body.split("/").filter((s) => s !== "");
    out.push(anchored ? segs : ["**", ...segs]);
  }
  return out;
}

/**
 * Could `glob` (one segment, bash) in the root-relative directory `dir` ("" for the root) match a path that
 * `ignoreText` excludes, or a path inside an excluded directory?
 */
export function globMayMatchIgnored(dir: string, glob: string, ignoreText: string): boolean {
  const target = [...(dir === "" ? [] : dir.split("/")), glob];
  const last = target.length - 1;
  const globTokensLast = globTokens(glob);
  for (const rule of ruleSegments(ignoreText)) {
    const toks = rule.map((s) => (s === "**" ? undefined : globTokens(s)));
    const memo = new Map<string, boolean>();
    // Does rule[i..] match target[j..k] for some k ≥ j (the path itself, or an ancestor: everything below an
    // excluded directory is excluded)?
    const go = (i: number, j: number): boolean => {
      const key = `${i},${j}`;
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      let r: boolean;
      if (i === rule.length) r = j > 0;
      else if (toks[i] === undefined) r = go(i + 1, j) || (j <= last && go(i, j + 1));
      else if (j > last) r = false;
      else {
        const seg = toks[i]!;
        const ok = j === last ? intersects(globTokensLast, seg) : matchesLiteral(seg, target[j]!);
        r = ok && go(i + 1, j + 1);
      }
      memo.set(key, r);
      return r;
    };
    if (go(0, 0)) return true;
  }
  return false;
}

/** A matcher for the bash glob segment against one name (the leading-dot rule included). */
export function globMatches(glob: string, name: string): boolean {
  return matchSegment(globTokens(glob), [...name], (t, c, i, j) => accepts(t, c, j === 0, true, i === 0));
}

/** Entries looked at in the glob's directory for links before giving up (and asking). */
const LINK_SCAN_LIMIT = 5_000;

/**
 * A symlink in `dir` (absolute) whose name the glob matches: a content reader follows it wherever it leads,
 * so such a read is not decided from names. Undefined when there is none; "too-many" past the scan limit.
 */
export function linkMatching(dir: string, glob: string, facts: FsFacts): string | "too-many" | undefined {
  const entries = facts.list(dir);
  if (entries === undefined) return undefined; // unreadable or missing: bash expands nothing there
  if (entries.length > LINK_SCAN_LIMIT) return "too-many";
  for (const e of entries) if (e.kind === "link" && globMatches(glob, e.name)) return e.name;
  return undefined;
}

export interface GlobReadContext {
  /** The path gate's check of a directory listed for names. */
  check(path: string, cwd: string): PathVerdict;
  resolve(path: string, cwd: string): ResolvedPath | undefined;
  readonly ignore: IgnoreRules;
  /** Some deny or ask rule names files for reading: a pattern cannot be checked against it. */
  readonly readRules: boolean;
  /** Where the glob's directory is listed. */
  readonly facts: FsFacts;
}

/** The path gate's answer for a glob read for content (see PathGate.checkPattern). */
export function checkGlobRead(pattern: string, cwd: string, ctx: GlobReadContext): PathVerdict {
  const refuse = (why: string): PathVerdict => ({
    ok: false,
    reason: `\`${pattern}\` is a pattern: ${why}`,
    rule: "path:pattern",
  });
  const slash = pattern.lastIndexOf("/");
  const dirPart = slash < 0 ? "." : slash === 0 ? "/" : pattern.slice(0, slash);
  const glob = pattern.slice(slash + 1);
  if (/[*?[]/.test(dirPart) || /[{}()\\|@!+]/.test(glob) || glob === "")
    return refuse("it could read files the ignore file or the workspace boundary protects");
  if (ctx.readRules) return refuse("a rule names files to read, and a pattern is not checked against it");
  const dir = ctx.check(dirPart, cwd);
  if (!dir.ok) return dir;
  const resolved = ctx.resolve(dirPart, cwd);
  const root = resolved?.realRoot;
  if (!resolved || !root) return refuse("its directory lies outside the workspace");
  const text = ctx.ignore.text(root.index);
  const spellings = [root.relative, ...(resolved.lexicalRoot ? [resolved.lexicalRoot.relative] : [])];
  if (text !== undefined && spellings.some((rel) => globMayMatchIgnored(rel, glob, text)))
    return refuse(`it could match files ${ctx.ignore.fileName} excludes`);
  const link = linkMatching(resolved.real, glob, ctx.facts);
  if (link === "too-many") return refuse("its directory has too many entries to check for links");
  if (link !== undefined) return refuse(`it matches \`${link}\`, a link that could lead anywhere`);
  return { ok: true };
}
