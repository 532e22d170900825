/**
 * Which files below a directory a recursive reader reads when its options select them by name (`rg -g '*.ts'`,
 * `grep -r --include='*.ts'`), so that an ignored file the selection provably leaves out does not make the read
 * ask. Sound, never complete: `mayRead` is false only when no glob matches any spelling of the file's path
 * that either program could match it against.
 *
 * Only plain globs take part: ASCII letters, digits, `.`, `_`, `-`, `*` and `?` (no `/`, `[`, `{`, `\`, `!`).
 * A selecting glob with any other character gives no filter, and the read is judged whole: ripgrep's `{a,b}`
 * or a `[...]` set would need the program's own dialect. ripgrep (`-g`, gitignore-style) matches a glob without
 * `/` against a name at any depth; GNU grep (`--include`, fnmatch without FNM_PATHNAME) against each name
 * suffix, where `*` and `?` also match `/`. A file may be read when a glob matches, with `*` and `?` matching
 * any character, any component of a spelling or any part of it that starts after a `/` (the whole included):
 * a superset of both. Letter case is ignored (a superset again), and a path with a character outside printable
 * ASCII may always be read (in the C locale `?` matches one byte of it, elsewhere one character).
 *
 * The selection is read from the command line only. Options the program takes from the environment (a ripgrep
 * config file named by `RIPGREP_CONFIG_PATH`, `GREP_OPTIONS` in grep before 3.6) could widen it: the line cannot
 * set them (envVars.ts) and Toolgate's own runs remove them (agent/node/commandEnv.ts); only a hook's command
 * that the agent runs itself keeps the agent's environment.
 */
export interface ReadFilter {
  /** Only a file some glob matches is read (every other file is left out). */
  readonly globs: readonly string[];
}

const PLAIN = /^[A-Za-z0-9._*?-]+$/;

/** The filter the globs make, or undefined when there is none or one of them is not plain. */
export function readFilter(globs: readonly string[]): ReadFilter | undefined {
  if (globs.length === 0 || !globs.every((g) => PLAIN.test(g))) return undefined;
  return { globs: [...globs] };
}

/** A text naming the filter, for cache keys. */
export function filterKey(filter: ReadFilter): string {
  return filter.globs.join("\0");
}

/** Whether a reader with `filter` may read the file with these spellings of its path (`/`-separated). */
export function mayRead(filter: ReadFilter, spellings: readonly string[]): boolean {
  if (spellings.some((s) => /[^ -~]/.test(s))) return true;
  const globs = filter.globs.map((g) => g.toLowerCase());
  for (const spelling of spellings) {
    const s = spelling.toLowerCase();
    const names = [...s.split("/"), ...suffixes(s)];
    if (names.some((name) => globs.some((g) => wildcardMatch(g, name)))) return true;
  }
  return false;
}

/** The whole path and each part of it that starts after a `/`. */
function suffixes(path: string): string[] {
  const out = [path];
  for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) out.push(path.slice(i + 1));
  return out;
}

/** `*` (any run of characters, `/` included) and `?` (any one character) against all of `text`. */
function wildcardMatch(glob: string, text: string): boolean {
  // reach[j]: the part of the glob read so far can match text[0..j).
  let reach = new Array<boolean>(text.length + 1).fill(false);
  reach[0] = true;
  for (const g of glob) {
    const next = new Array<boolean>(text.length + 1).fill(false);
    for (let j = 0; j <= text.length; j++) {
      if (g === "*") next[j] = reach[j]! || (j > 0 && next[j - 1]!);
      else if (j > 0 && reach[j - 1]) next[j] = g === "?" || text[j - 1] === g;
    }
    reach = next;
  }
  return reach[text.length]!;
}
