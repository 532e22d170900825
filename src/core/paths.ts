import * as nodePath from "node:path";
import { realpathSync } from "node:fs";
import { homedir } from "node:os";

/** The file-system questions the gate asks. The CLI and tests use node's fs; a remote host can supply its own. */
export interface FsProbe {
  /** The realpath of an existing path, or undefined when it does not exist (or cannot be resolved). */
  realpath(path: string): string | undefined;
}

export const nodeFsProbe: FsProbe = {
  realpath(path) {
    try {
      return realpathSync.native(path);
    } catch {
      return undefined;
    }
  },
};

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

export type CanonicalResult = { readonly ok: true; readonly path: ResolvedPath } | { readonly ok: false; readonly reason: string };

const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
const REALPATH_CACHE_LIMIT = 20_000;

function within(root: string, abs: string): string | undefined {
  const rel = nodePath.relative(root, abs);
  if (rel === "") return "";
  // Containment by path segments: `..` alone or as a first segment leaves the root; `..foo` does not.
  if (rel === ".." || rel.startsWith(".." + nodePath.sep) || nodePath.isAbsolute(rel)) return undefined;
  return nodePath.sep === "/" ? rel : rel.split(nodePath.sep).join("/");
}

/**
 * Workspace roots and path resolution for one task.
 *
 * Invariant: the roots are fetched once when the task starts and cached here for its whole life (a folder
 * added mid-task counts from the next task on), and so are realpaths — the gate does no file-system I/O for
 * a path it has already resolved in this task. Create a new instance per task.
 */
export class WorkspacePaths {
  readonly roots: readonly string[];
  private readonly realRoots: readonly string[];
  private readonly cache = new Map<string, string>();
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

  /** The directory relative paths resolve against: the first root (or the process cwd with no roots). */
  get base(): string {
    return this.roots[0] ?? process.cwd();
  }

  /** Resolves as the executor will: `~/` is home, relative paths are against `cwd` (default: the first root). */
  resolve(input: string, cwd: string = this.base): CanonicalResult {
    if (typeof input !== "string" || input.trim() === "") return { ok: false, reason: "the path is empty" };
    if (input.includes("\0")) return { ok: false, reason: "the path contains a NUL character" };
    if (URL_SCHEME.test(input)) return { ok: false, reason: `\`${input}\` is a URL, not a file path` };
    let p = input;
    if (p === "~" || p.startsWith("~/")) p = this.home + p.slice(1);
    const lexical = nodePath.resolve(cwd, p);
    const real = this.realpath(lexical);
    const realRoot = this.match(real, this.realRoots);
    const lexicalRoot = this.match(lexical, this.roots);
    return { ok: true, path: { input, lexical, real, ...(realRoot ? { realRoot } : {}), ...(lexicalRoot ? { lexicalRoot } : {}) } };
  }

  private match(abs: string, roots: readonly string[]): RootMatch | undefined {
    for (let i = 0; i < roots.length; i++) {
      const relative = within(roots[i]!, abs);
      if (relative !== undefined) return { index: i, root: this.roots[i]!, relative };
    }
    return undefined;
  }

  /** Realpath of `abs`; a missing tail is appended to the realpath of its nearest existing ancestor. */
  realpath(abs: string): string {
    const hit = this.cache.get(abs);
    if (hit !== undefined) return hit;
    let real = this.fs.realpath(abs);
    if (real === undefined) {
      const parent = nodePath.dirname(abs);
      real = parent === abs ? abs : nodePath.join(this.realpath(parent), nodePath.basename(abs));
    }
    if (this.cache.size >= REALPATH_CACHE_LIMIT) this.cache.clear();
    this.cache.set(abs, real);
    return real;
  }
}
