import * as nodePath from "node:path";
import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { homedir } from "node:os";

/** The file-system questions the gate asks. The CLI and tests use node's fs; a remote host can supply its own. */
export interface FsProbe {
  /** The realpath of a path that exists (one system call for the whole chain), or undefined. */
  realpath(path: string): string | undefined;
  /** What is at `path` itself (not following a final symlink). */
  entry(path: string): "missing" | "link" | "other";
  /** The target of a symlink as stored, or undefined if it cannot be read. */
  readlink(path: string): string | undefined;
  /**
   * A probe that remembers across decisions (`FsFacts` with a watcher) says how long a result derived from its
   * answers holds: while `stamp` stays, if `fresh` did not move while it was derived. See FsFacts.stability.
   */
  stability?(): { readonly stamp: number; readonly fresh: number } | undefined;
}

export const nodeFsProbe: FsProbe = {
  realpath(path) {
    // existsSync first: a failed realpath throws, and an exception costs more than the check.
    if (!existsSync(path)) return undefined;
    try {
      return realpathSync.native(path);
    } catch {
      return undefined;
    }
  },
  entry(path) {
    try {
      const st = lstatSync(path, { throwIfNoEntry: false });
      return st === undefined ? "missing" : st.isSymbolicLink() ? "link" : "other";
    } catch {
      // ENOTDIR and friends: nothing can exist below a file.
      return "missing";
    }
  },
  readlink(path) {
    try {
      return readlinkSync(path);
    } catch {
      return undefined;
    }
  },
};

/** Symlink hops before a path counts as unresolvable (Linux's own limit is 40). */
const MAX_LINK_HOPS = 40;
/** A path no root can contain: where unresolvable links (loops, unreadable) land, so they count as external. */
const UNRESOLVABLE = nodePath.join(nodePath.parse(process.cwd()).root, "\0unresolvable-symlink");

export interface RootMatch {
  readonly index: number;
  readonly root: string;
  /** Workspace-relative, `/`-separated, "" for the root itself. */
  readonly relative: string;
}

export interface ResolvedPath {
  /** As the model wrote it. */
  readonly input: string;
  /** Absolute, normalised, `~/` expanded, symlinks not resolved. */
  readonly lexical: string;
  /** Symlinks resolved; for a path that does not exist, the realpath of its nearest existing ancestor plus the rest. */
  readonly real: string;
  /** The root the real path lies in. Undefined = external. Only the real path decides locality. */
  readonly realRoot?: RootMatch;
  /** The root the lexical path lies in (used by deny/ignore checks, which must hold for either spelling). */
  readonly lexicalRoot?: RootMatch;
}

export type CanonicalResult =
  { readonly ok: true; readonly path: ResolvedPath } | { readonly ok: false; readonly reason: string };

/** Only real URL schemes count: `scheme://…` or `file:`; `ab:c.txt` is a file name. */
const URL_SCHEME = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|file:)/i;
/** A `..` segment anywhere (either separator). */
const DOT_DOT = /(?:^|[\\/])\.\.(?:[\\/]|$)/;
const REALPATH_CACHE_LIMIT = 20_000;

/**
 * Containment by path segments, never by string prefix: `/ws` contains `/ws/a` but not `/ws2/a`. `root` is
 * absolute and normalised and `prefix` is it with one trailing separator; `abs` is absolute and normalised (the
 * output of `path.resolve` / realpath), so a segment-aware prefix test is exact and much cheaper than
 * `path.relative`.
 */
function within(root: string, prefix: string, abs: string): string | undefined {
  if (abs === root) return "";
  if (!abs.startsWith(prefix)) return undefined;
  const rel = abs.slice(prefix.length);
  return nodePath.sep === "/" ? rel : rel.split(nodePath.sep).join("/");
}

const withSep = (root: string) => (root.endsWith(nodePath.sep) ? root : root + nodePath.sep);

/**
 * A POSIX path that `path.resolve` would return unchanged: absolute, no empty, `.` or `..` segment, no trailing
 * slash. Checking costs a fraction of normalising, and most paths a model sends are already in this form.
 */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/;
const isNormalAbsolute = (p: string) => nodePath.sep === "/" && p.startsWith("/") && !NOT_NORMAL.test(p);
/** A relative POSIX path that joins onto a normalised absolute base unchanged (same rules, plus no `./` start). */
const NOT_NORMAL_RELATIVE = /^\.\.?(?:\/|$)|\/\/|\/\.\.?(?:\/|$)|\/$/;

/**
 * Workspace roots and path resolution for one task.
 *
 * Invariants: the roots (and their realpaths) are fetched once when the task starts (a folder added mid-task
 * counts from the next task on). This class's own realpaths are cached for ONE decision only (`beginDecision`
 * clears them); across decisions only the probe below may remember, and the gate's probe is the task's
 * `FsFacts` (fsFacts.ts), which keeps a fact only while a watcher would report its change: a path that becomes a
 * link between two decisions is judged by where it leads now, as soon as the change was reported. `..` after
 * a link is resolved the way the kernel does, from the link's target (`link/..` is the parent of the target).
 */
export class WorkspacePaths {
  readonly roots: readonly string[];
  private readonly realRoots: readonly string[];
  private readonly rootPrefixes: readonly string[];
  private readonly realRootPrefixes: readonly string[];
  /** Every root is its own realpath: a path that is its own realpath lies in the same root both ways. */
  private readonly rootsAreReal: boolean;
  /**
   * This decision's realpaths. A key mapped to itself is a path with no link in it (or a missing one whose
   * parent has none): a name directly below it needs one `lstat` instead of a whole realpath walk.
   */
  private readonly cache = new Map<string, string>();
  /** This decision's resolutions: against the base directory by input, against any other cwd by cwd NUL input. */
  private readonly resolvedAtBase = new Map<string, CanonicalResult>();
  private readonly resolvedElsewhere = new Map<string, CanonicalResult>();
  /**
   * Resolutions derived only from facts the probe keeps (see FsProbe.stability), by cwd NUL input: they hold
   * across decisions until the probe forgets anything. Empty without such a probe.
   */
  private readonly stable = new Map<string, CanonicalResult>();
  private stableStamp: number | undefined;
  /** This decision's realpaths that came from a fact the probe did not keep, and whether a resolution used one. */
  private readonly unstable = new Set<string>();
  private usedUnstable = false;
  private readonly home: string;

  constructor(
    roots: readonly string[],
    private readonly fs: FsProbe = nodeFsProbe,
    home: string = homedir(),
  ) {
    this.home = home;
    this.roots = roots.map((r) => nodePath.resolve(r));
    this.realRoots = this.roots.map((r) => this.realpath(r));
    this.cache.clear();
    this.rootPrefixes = this.roots.map(withSep);
    this.realRootPrefixes = this.realRoots.map(withSep);
    this.rootsAreReal = this.roots.every((r, i) => r === this.realRoots[i]);
  }

  /** Forgets every realpath but the roots': the next decision sees the file system as it is then. */
  beginDecision(): void {
    if (this.cache.size > 0) this.cache.clear();
    if (this.unstable.size > 0) this.unstable.clear();
    if (this.resolvedAtBase.size > 0) this.resolvedAtBase.clear();
    if (this.resolvedElsewhere.size > 0) this.resolvedElsewhere.clear();
    const stamp = this.fs.stability?.()?.stamp;
    if (stamp === undefined || stamp !== this.stableStamp) {
      if (this.stable.size > 0) this.stable.clear();
      this.stableStamp = stamp;
    }
  }

  /** The home `~/` expands to. */
  get homeDir(): string {
    return this.home;
  }

  /** The directory relative paths resolve against: the first root (or the process cwd with no roots). */
  get base(): string {
    return this.roots[0] ?? process.cwd();
  }

  /** Resolves as the executor will: `~/` is home, relative paths are against `cwd` (default: the first root). */
  resolve(input: string, cwd: string = this.base): CanonicalResult {
    const atBase = cwd === this.base;
    const memo = atBase ? this.resolvedAtBase : this.resolvedElsewhere;
    const key = atBase ? input : cwd + "\0" + input;
    let r = memo.get(key);
    if (r !== undefined) return r;
    const stableKey = cwd + "\0" + input;
    r = this.stable.get(stableKey);
    if (r !== undefined) return r;
    const before = this.fs.stability?.();
    this.usedUnstable = false;
    r = this.resolveUncached(input, cwd);
    const after = this.fs.stability?.();
    if (
      before !== undefined &&
      after !== undefined &&
      !this.usedUnstable &&
      before.fresh === after.fresh &&
      before.stamp === after.stamp &&
      after.stamp === this.stableStamp
    ) {
      if (this.stable.size >= REALPATH_CACHE_LIMIT) this.stable.clear();
      this.stable.set(stableKey, r);
    } else {
      if (memo.size >= REALPATH_CACHE_LIMIT) memo.clear();
      memo.set(key, r);
    }
    return r;
  }

  private resolveUncached(input: string, cwd: string): CanonicalResult {
    if (typeof input !== "string" || input.trim() === "") return { ok: false, reason: "the path is empty" };
    if (input.includes("\0")) return { ok: false, reason: "the path contains a NUL character" };
    if (URL_SCHEME.test(input)) return { ok: false, reason: `\`${input}\` is a URL, not a file path` };
    let p = input;
    if (p === "~" || p.startsWith("~/")) p = this.home + p.slice(1);
    const lexical = this.lexical(cwd, p);
    const real = DOT_DOT.test(p)
      ? this.kernelRealpath(nodePath.isAbsolute(p) ? p : cwd + nodePath.sep + p)
      : this.realpath(lexical);
    const lexicalRoot = this.match(lexical, this.roots, this.rootPrefixes);
    const realRoot =
      real === lexical && this.rootsAreReal ? lexicalRoot : this.match(real, this.realRoots, this.realRootPrefixes);
    const path: { -readonly [K in keyof ResolvedPath]: ResolvedPath[K] } = { input, lexical, real };
    if (realRoot) path.realRoot = realRoot;
    if (lexicalRoot) path.lexicalRoot = lexicalRoot;
    return { ok: true, path };
  }

  /** `path.resolve(cwd, p)`, without its normalising pass when `p` is already normal. */
  private lexical(cwd: string, p: string): string {
    if (isNormalAbsolute(p)) return p;
    if (nodePath.sep === "/" && !p.startsWith("/") && isNormalAbsolute(cwd) && !NOT_NORMAL_RELATIVE.test(p))
      return withSep(cwd) + p;
    return nodePath.resolve(cwd, p);
  }

  /**
   * Realpath of an absolute, NOT normalised path, so that `..` applies to the real directory reached so far:
   * `link/..` is the parent of the link's target, as the kernel resolves it. Each run of names between two
   * `..` resolves in one realpath call: resolving `dir` and then `name` in it is resolving `dir/name`.
   */
  private kernelRealpath(abs: string): string {
    const parsed = nodePath.parse(abs);
    let cur = parsed.root;
    let run = "";
    for (const seg of abs.slice(parsed.root.length).split(/[\\/]+/)) {
      if (seg === "" || seg === ".") continue;
      if (seg !== "..") {
        run = run === "" ? seg : run + nodePath.sep + seg;
        continue;
      }
      if (run !== "") cur = this.realpath(nodePath.join(cur, run));
      run = "";
      if (cur === UNRESOLVABLE) return UNRESOLVABLE;
      cur = nodePath.dirname(cur);
    }
    return run === "" ? cur : this.realpath(nodePath.join(cur, run));
  }

  private match(abs: string, roots: readonly string[], prefixes: readonly string[]): RootMatch | undefined {
    for (let i = 0; i < roots.length; i++) {
      const relative = within(roots[i]!, prefixes[i]!, abs);
      if (relative !== undefined) return { index: i, root: this.roots[i]!, relative };
    }
    return undefined;
  }

  /**
   * Realpath of `abs` (absolute, normalised). An existing path resolves in one call. Otherwise it is its
   * parent's realpath plus its name — unless the name is a dangling symlink, which is followed (writing through
   * it creates its target). So a path that does not exist yet resolves through its nearest existing ancestor,
   * and loops or unreadable links land on UNRESOLVABLE, which no root contains.
   */
  realpath(abs: string, hops = 0): string {
    const hit = this.cache.get(abs);
    if (hit !== undefined) {
      if (this.unstable.size > 0 && this.unstable.has(abs)) this.usedUnstable = true;
      return hit;
    }
    const fresh0 = this.fs.stability?.()?.fresh;
    let seeded: string | undefined;
    const parent = nodePath.dirname(abs);
    let real: string | undefined;
    if (parent === abs) real = abs;
    else if (this.cache.get(parent) === parent) {
      // The parent has no link in it (this decision saw so): only the last name can be one.
      real = this.fs.entry(abs) === "link" ? this.followLink(parent, abs, hops) : abs;
    } else {
      real = this.fs.realpath(abs);
      if (real !== undefined) {
        // A realpath's parent is a real directory: its other entries need only the `lstat` above.
        const realParent = nodePath.dirname(real);
        if (realParent !== real && !this.cache.has(realParent)) {
          this.cache.set(realParent, realParent);
          seeded = realParent;
        }
      } else {
        // Missing, or a dangling link: walk from the parent, following a dangling link to where it points.
        const parentReal = this.realpath(parent, hops);
        if (parentReal === UNRESOLVABLE) real = UNRESOLVABLE;
        else {
          const here = parentReal === parent ? abs : nodePath.join(parentReal, nodePath.basename(abs));
          real = this.fs.entry(here) === "link" ? this.followLink(parentReal, here, hops) : here;
        }
      }
    }
    if (this.cache.size >= REALPATH_CACHE_LIMIT) {
      this.cache.clear();
      this.unstable.clear();
    }
    this.cache.set(abs, real);
    // Derived from a fact the probe did not keep: whatever uses it this decision must not outlive it.
    if (fresh0 !== undefined && this.fs.stability?.()?.fresh !== fresh0) {
      this.unstable.add(abs);
      if (seeded !== undefined) this.unstable.add(seeded);
      this.usedUnstable = true;
    }
    return real;
  }

  /** Where the link `link` (in the real directory `dir`) leads, resolved in turn; UNRESOLVABLE past the hop limit. */
  private followLink(dir: string, link: string, hops: number): string {
    const target = this.fs.readlink(link);
    return target === undefined || hops >= MAX_LINK_HOPS
      ? UNRESOLVABLE
      : this.realpath(nodePath.resolve(dir, target), hops + 1);
  }
}
