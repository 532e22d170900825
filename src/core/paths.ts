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
 * Containment by path segments, never by string prefix: `/ws` contains `/ws/a` but not `/ws2/a`.
 * Both arguments are absolute and normalised (the output of `path.resolve` / realpath), so a segment-aware
 * prefix test is exact and much cheaper than `path.relative`.
 */
function within(root: string, abs: string): string | undefined {
  if (abs === root) return "";
  const prefix = root.endsWith(nodePath.sep) ? root : root + nodePath.sep;
  if (!abs.startsWith(prefix)) return undefined;
  const rel = abs.slice(prefix.length);
  return nodePath.sep === "/" ? rel : rel.split(nodePath.sep).join("/");
}

/**
 * Workspace roots and path resolution for one task.
 *
 * Invariants: the roots (and their realpaths) are fetched once when the task starts (a folder added mid-task
 * counts from the next task on). Realpaths of other paths are cached for ONE decision only (`beginDecision`
 * clears them): a path that becomes a link between two decisions is judged by where it leads now. `..` after
 * a link is resolved the way the kernel does, from the link's target (`link/..` is the target's parent).
 */
export class WorkspacePaths {
  readonly roots: readonly string[];
  private readonly realRoots: readonly string[];
  private readonly cache = new Map<string, string>();
  private readonly resolved = new Map<string, CanonicalResult>();
  private readonly home: string;

  constructor(
    roots: readonly string[],
    private readonly fs: FsProbe = nodeFsProbe,
    home: string = homedir(),
  ) {
    this.home = home;
    this.roots = roots.map((r) => nodePath.resolve(r));
    this.realRoots = this.roots.map((r) => this.realpath(r));
  }

  /** Forgets every realpath but the roots': the next decision sees the file system as it is then. */
  beginDecision(): void {
    this.cache.clear();
    this.resolved.clear();
  }

  /** The directory relative paths resolve against: the first root (or the process cwd with no roots). */
  get base(): string {
    return this.roots[0] ?? process.cwd();
  }

  /** Resolves as the executor will: `~/` is home, relative paths are against `cwd` (default: the first root). */
  resolve(input: string, cwd: string = this.base): CanonicalResult {
    const key = cwd + "\0" + input;
    let r = this.resolved.get(key);
    if (r === undefined) {
      r = this.resolveUncached(input, cwd);
      if (this.resolved.size >= REALPATH_CACHE_LIMIT) this.resolved.clear();
      this.resolved.set(key, r);
    }
    return r;
  }

  private resolveUncached(input: string, cwd: string): CanonicalResult {
    if (typeof input !== "string" || input.trim() === "") return { ok: false, reason: "the path is empty" };
    if (input.includes("\0")) return { ok: false, reason: "the path contains a NUL character" };
    if (URL_SCHEME.test(input)) return { ok: false, reason: `\`${input}\` is a URL, not a file path` };
    let p = input;
    if (p === "~" || p.startsWith("~/")) p = this.home + p.slice(1);
    const lexical = nodePath.resolve(cwd, p);
    const real = DOT_DOT.test(p)
      ? this.kernelRealpath(nodePath.isAbsolute(p) ? p : cwd + nodePath.sep + p)
      : this.realpath(lexical);
    const realRoot = this.match(real, this.realRoots);
    const lexicalRoot = this.match(lexical, this.roots);
    return {
      ok: true,
      path: { input, lexical, real, ...(realRoot ? { realRoot } : {}), ...(lexicalRoot ? { lexicalRoot } : {}) },
    };
  }

  /**
   * Realpath of an absolute, NOT normalised path, one component at a time, so that `..` applies to the real
   * directory reached so far: `link/..` is the parent of the link's target, as the kernel resolves it.
   */
  private kernelRealpath(abs: string): string {
    const parsed = nodePath.parse(abs);
    let cur = this.realpath(parsed.root);
    for (const seg of abs.slice(parsed.root.length).split(/[\\/]+/)) {
      if (seg === "" || seg === ".") continue;
      if (cur === UNRESOLVABLE) return UNRESOLVABLE;
      cur = seg === ".." ? nodePath.dirname(cur) : this.realpath(nodePath.join(cur, seg));
    }
    return cur;
  }

  private match(abs: string, roots: readonly string[]): RootMatch | undefined {
    for (let i = 0; i < roots.length; i++) {
      const relative = within(roots[i]!, abs);
      if (relative !== undefined) return { index: i, root: this.roots[i]!, relative };
    }
    return undefined;
  }

  /**
   * Realpath of `abs`. An existing path resolves in one call. Otherwise it is its parent's realpath plus its
   * name — unless the name is a dangling symlink, which is followed (writing through it creates its target).
   * So a path that does not exist yet resolves through its nearest existing ancestor, and loops or unreadable
   * links land on UNRESOLVABLE, which no root contains.
   */
  realpath(abs: string, hops = 0): string {
    const hit = this.cache.get(abs);
    if (hit !== undefined) return hit;
    const parent = nodePath.dirname(abs);
    let real: string | undefined = parent === abs ? abs : this.fs.realpath(abs);
    if (real === undefined) {
      // Missing, or a dangling link: walk from the parent, following a dangling link to where it points.
      const parentReal = this.realpath(parent, hops);
      const here = parentReal === UNRESOLVABLE ? UNRESOLVABLE : nodePath.join(parentReal, nodePath.basename(abs));
      if (here === UNRESOLVABLE || this.fs.entry(here) !== "link") real = here;
      else {
        const target = this.fs.readlink(here);
        real =
          target === undefined || hops >= MAX_LINK_HOPS
            ? UNRESOLVABLE
            : this.realpath(nodePath.resolve(parentReal, target), hops + 1);
      }
    }
    if (this.cache.size >= REALPATH_CACHE_LIMIT) this.cache.clear();
    this.cache.set(abs, real);
    return real;
  }
}
