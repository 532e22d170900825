/**
 * A regular expression that matches at least every path a glob matches (an over-approximation), used only as
 * a pre-filter before the exact minimatch test. Soundness is the one invariant: a path the glob matches must
 * never be filtered out. Anything this translator is unsure of widens to `.*`.
 *
 * Compile it with `GLOB_PREFILTER_FLAGS`: minimatch's `nocase` folds case the Unicode way (`ſ` matches `s`,
 * `K` matches `k`) and its `?` is one code point, which only a `u`-flag expression agrees with.
 * Every source ends in `(?:/.*)?$` or is `.*`, so a path tested with one `/` appended is also tested as is.
 */
export const GLOB_PREFILTER_FLAGS = "iu";
const SPECIAL = /[.+^$()|\\[\]{}]/;

export function globPrefilterSource(glob: string): string {
  const p = glob.replace(/^\.\//, "");
  if (/[{}()!+@\\]/.test(p)) {
    // Braces, extglobs, negation and escapes: keep only a sound anchor on nothing.
    return ".*";
  }
  let out = "";
  let i = 0;
  // A leading `**/` is "at the start or after any slash": left unanchored, the regex engine scans for the
  // literal that follows instead of backtracking a `.*`.
  const floating = p.startsWith("**/");
  if (floating) i = 3;
  for (; i < p.length; i++) {
    const c = p[i]!;
    if (c === "*" && p[i + 1] === "*") {
      // `/**/` may match a single `/`; `/**` at the end may match nothing.
      if (out.endsWith("/")) out = out.slice(0, -1) + "(?:/.*)?";
      else out += ".*";
      i++;
      if (p[i + 1] === "/") {
        out += "/?";
        i++;
      }
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = p.indexOf("]", i + 2);
      if (end < 0) return ".*";
      out += "[^/]";
      i = end;
    } else out += SPECIAL.test(c) ? "\\" + c : c;
  }
  // A directory pattern may be tested with a trailing slash; allow anything below it as well.
  return `${floating ? "(?:^|/)" : "^"}${out}(?:/.*)?$`;
}
