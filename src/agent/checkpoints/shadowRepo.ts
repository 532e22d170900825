/**
 * The shadow store of one workspace root: a bare repository outside the root, used with `--work-tree=ROOT`
 * and a private index. A checkpoint is a tree object (no commits, no branches); trees are kept alive for
 * `git gc` by refs under `refs/tg/live/`, which `keepOnly` rewrites before it compacts.
 *
 * Invariants:
 * - git reads exactly the paths it is given (the walk's list): it never scans the work tree itself, so
 *   ignored files are never hashed.
 * - `info/attributes` (which outranks any `.gitattributes` in the root) turns off every conversion, so
 *   stored bytes and restored bytes are the file's bytes: no line-ending changes, filters or re-encoding.
 * - The private index is the only index touched; it lets `update-index` skip files whose stat data did not
 *   change, which keeps checkpoints incremental.
 */
import { existsSync, statSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import * as nodePath from "node:path";
import { splitNul, type Git } from "./git";

const ATTRIBUTES = "* -text -eol -crlf -ident -filter -working-tree-encoding\n";
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const ZERO = "0".repeat(40);
export const MAX_PATCH_BYTES = 2 * 1024 * 1024;

export interface TreeEntry {
  readonly mode: string;
  readonly sha: string;
}

export interface NameStatus {
  /** Relative to the old tree: A = only in the new one, D = only in the old one, M/T = both. */
  readonly status: "A" | "D" | "M";
  readonly path: string;
}

let tmpSeq = 0;

/** Changes whenever any process rewrites the index (git replaces it by rename: new inode, new mtime). */
function indexSignature(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false, bigint: true });
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}` : "";
}

export class ShadowRepo {
  readonly gitDir: string;
  private readonly indexFile: string;
  private initialized = false;
  private indexed: { readonly files: readonly string[]; readonly signature: string } | undefined;

  constructor(
    private readonly git: Git,
    readonly root: string,
    readonly dir: string,
  ) {
    this.gitDir = nodePath.join(dir, "shadow.git");
    this.indexFile = nodePath.join(dir, "index");
  }

  async init(): Promise<void> {
    if (this.initialized) return;
    await mkdir(this.dir, { recursive: true });
    if (!existsSync(nodePath.join(this.gitDir, "HEAD")))
      await this.git.run(["init", "--bare", "--quiet"], { gitDir: this.gitDir });
    await mkdir(nodePath.join(this.gitDir, "info"), { recursive: true });
    await writeFile(nodePath.join(this.gitDir, "info", "attributes"), ATTRIBUTES);
    await writeFile(nodePath.join(this.gitDir, "info", "exclude"), "");
    this.initialized = true;
  }

  private run(args: readonly string[], extra: Partial<Parameters<Git["run"]>[1]> = {}): Promise<Buffer> {
    return this.git.run(args, { gitDir: this.gitDir, ...extra });
  }

  /**
   * Records exactly `files` (root-relative) as the private index's content; returns the tree. `touched`: the
   * only paths that may differ from the last snapshot (the walk's change signal). git is then handed only
   * those, and keeps every other entry as it is, unread — but only while the index is the one this object
   * wrote last; otherwise every file is looked at.
   */
  async snapshot(files: readonly string[], touched?: readonly string[]): Promise<string> {
    await this.init();
    const known = this.indexed !== undefined && this.indexed.signature === indexSignature(this.indexFile);
    const inIndex = await this.indexedFiles();
    const wanted = new Set(files);
    const stale = inIndex.filter((p) => !wanted.has(p));
    const common = { workTree: this.root, indexFile: this.indexFile };
    if (stale.length > 0)
      await this.run(["update-index", "--force-remove", "-z", "--stdin"], {
        ...common,
        input: stale.join("\0") + "\0",
      });
    const look = known && touched !== undefined ? touched.filter((p) => wanted.has(p)) : files;
    if (look.length > 0)
      // bigFileThreshold=1 streams new blobs into one pack per run instead of one loose file per blob;
      // `gc` later deltifies them with the default threshold.
      await this.run(["update-index", "--add", "--remove", "--replace", "-z", "--stdin"], {
        ...common,
        input: look.join("\0") + "\0",
        config: [["core.bigFileThreshold", "1"]],
      });
    if (files.length === 0 && inIndex.length === 0) return EMPTY_TREE;
    const tree = (await this.run(["write-tree"], common)).toString("utf8").trim();
    this.indexed = { files: [...files], signature: indexSignature(this.indexFile) };
    return tree;
  }

  /** The paths in the private index: remembered from the last snapshot while the index file is unchanged. */
  private async indexedFiles(): Promise<readonly string[]> {
    if (!existsSync(this.indexFile)) return [];
    const known = this.indexed;
    if (known && known.signature === indexSignature(this.indexFile)) return known.files;
    return splitNul(await this.run(["ls-files", "-z", "--cached"], { workTree: this.root, indexFile: this.indexFile }));
  }

  /** Every file of a tree. */
  async lsTree(tree: string): Promise<Map<string, TreeEntry>> {
    const out = new Map<string, TreeEntry>();
    if (tree === EMPTY_TREE) return out;
    for (const rec of splitNul(await this.run(["ls-tree", "-r", "-z", "--full-tree", tree]))) {
      const tab = rec.indexOf("\t");
      const [mode, , sha] = rec.slice(0, tab).split(" ");
      out.set(rec.slice(tab + 1), { mode: mode!, sha: sha! });
    }
    return out;
  }

  /** A file's bytes in a tree (a link's target for links); undefined when the tree has no such file. */
  async blob(tree: string, path: string): Promise<Buffer | undefined> {
    if (tree === EMPTY_TREE) return undefined;
    const rec = splitNul(await this.run(["ls-tree", "-z", "--full-tree", tree, "--", path]))[0];
    if (!rec) return undefined;
    const [, type, sha] = rec.slice(0, rec.indexOf("\t")).split(" ");
    if (type !== "blob" || !sha) return undefined;
    return this.run(["cat-file", "blob", sha]);
  }

  /** Files that differ between two trees. */
  async changes(from: string, to: string): Promise<NameStatus[]> {
    if (from === to) return [];
    const f = splitNul(
      await this.run(["diff-tree", "-r", "-z", "--no-renames", "--name-status", "--no-ext-diff", from, to]),
    );
    const out: NameStatus[] = [];
    for (let i = 0; i + 1 < f.length; i += 2) {
      const s = f[i]!.charAt(0);
      out.push({ status: s === "A" ? "A" : s === "D" ? "D" : "M", path: f[i + 1]! });
    }
    return out;
  }

  /**
   * The changes of many tree pairs in one git run (`diff-tree --stdin`), keyed by `"from to"`. Its output is
   * a `from to` header line per pair that differs, then `STATUS NUL PATH NUL` records; a status is an upper
   * case letter and a header starts with a lower case hex digit, which tells them apart.
   */
  async changesMany(pairs: readonly (readonly [string, string])[]): Promise<Map<string, NameStatus[]>> {
    const out = new Map<string, NameStatus[]>();
    const todo = [...new Set(pairs.filter(([a, b]) => a !== b).map(([a, b]) => `${a} ${b}`))];
    for (const [a, b] of pairs) out.set(`${a} ${b}`, []);
    if (todo.length === 0) return out;
    const buf = await this.run(["diff-tree", "--stdin", "-r", "-z", "--no-renames", "--name-status", "--no-ext-diff"], {
      input: todo.join("\n") + "\n",
    });
    const s = buf.toString("utf8");
    let i = 0;
    let current: NameStatus[] | undefined;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c >= 0x41 && c <= 0x5a) {
        const z1 = s.indexOf("\0", i);
        const z2 = s.indexOf("\0", z1 + 1);
        if (z1 < 0 || z2 < 0) break;
        const st = s.charAt(i);
        current?.push({ status: st === "A" ? "A" : st === "D" ? "D" : "M", path: s.slice(z1 + 1, z2) });
        i = z2 + 1;
      } else {
        const nl = s.indexOf("\n", i);
        if (nl < 0) break;
        current = out.get(s.slice(i, nl).trim());
        i = nl + 1;
      }
    }
    return out;
  }

  /** Unified diff between two trees; `prefix` is prepended to paths (multi-root). */
  async patch(from: string, to: string, prefix: string): Promise<string> {
    if (from === to) return "";
    const out = await this.run([
      "diff-tree",
      "-r",
      "-p",
      "--no-renames",
      "--no-ext-diff",
      "--no-textconv",
      "--no-color",
      `--src-prefix=a/${prefix}`,
      `--dst-prefix=b/${prefix}`,
      from,
      to,
    ]);
    return out.toString("utf8");
  }

  /** A tree equal to `base` with `set` entries written over it and `remove` paths removed. */
  async edit(base: string, set: ReadonlyMap<string, TreeEntry>, remove: readonly string[]): Promise<string> {
    if (set.size === 0 && remove.length === 0) return base;
    return this.withTempIndex(base, async (indexFile) => {
      const lines = [...remove.map((p) => `0 ${ZERO}\t${p}`), ...[...set].map(([p, e]) => `${e.mode} ${e.sha}\t${p}`)];
      await this.run(["update-index", "--replace", "-z", "--index-info"], {
        indexFile,
        input: lines.join("\0") + "\0",
      });
      return (await this.run(["write-tree"], { indexFile })).toString("utf8").trim();
    });
  }

  /** Writes `paths` of `tree` into the root (replacing files and links there; never a directory). */
  async checkout(tree: string, paths: readonly string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.withTempIndex(tree, (indexFile) =>
      this.run(["checkout-index", "-f", "-z", "--stdin"], {
        workTree: this.root,
        indexFile,
        input: paths.join("\0") + "\0",
      }),
    );
  }

  private async withTempIndex<T>(tree: string, f: (indexFile: string) => Promise<T>): Promise<T> {
    const indexFile = nodePath.join(this.dir, `index.tmp-${process.pid}-${++tmpSeq}`);
    try {
      await this.run(["read-tree", tree], { indexFile });
      return await f(indexFile);
    } finally {
      await rm(indexFile, { force: true });
      await rm(indexFile + ".lock", { force: true });
    }
  }

  /** Bytes the object store takes on disk. */
  async sizeBytes(): Promise<number> {
    if (!existsSync(this.gitDir)) return 0;
    const text = (await this.run(["count-objects", "-v"])).toString("utf8");
    let kib = 0;
    for (const line of text.split("\n")) {
      const m = /^(size|size-pack|size-garbage): (\d+)/.exec(line);
      if (m) kib += Number(m[2]);
    }
    return kib * 1024;
  }

  /** Loose objects and packs, to decide when compacting is worth it. */
  async objectCounts(): Promise<{ loose: number; packs: number }> {
    if (!existsSync(this.gitDir)) return { loose: 0, packs: 0 };
    const text = (await this.run(["count-objects", "-v"])).toString("utf8");
    const num = (k: string) => Number(new RegExp(`^${k}: (\\d+)`, "m").exec(text)?.[1] ?? 0);
    return { loose: num("count"), packs: num("packs") };
  }

  /**
   * Merges the small packs each checkpoint writes (and packs loose trees) without dropping anything: cheap
   * enough to run between tool calls. `--geometric` (git 2.33+) rewrites only the smallest packs.
   */
  async tidy(geometric: boolean): Promise<void> {
    if (!existsSync(this.gitDir)) return;
    await this.run(["repack", "-d", "-q", ...(geometric ? ["--geometric=2"] : [])]);
  }

  /**
   * Keeps only the trees in `live` (and what they reference): rewrites the refs, then compacts. The tree the
   * private index describes is kept too: gc does not see that index, and the next checkpoint reuses its
   * entries for unchanged files without hashing them again, so their blobs must survive.
   */
  async keepOnly(liveTrees: ReadonlySet<string>): Promise<void> {
    if (!existsSync(this.gitDir)) return;
    const live = new Set(liveTrees);
    if (existsSync(this.indexFile))
      live.add(
        (await this.run(["write-tree"], { workTree: this.root, indexFile: this.indexFile })).toString("utf8").trim(),
      );
    const existing = (await this.run(["for-each-ref", "--format=%(refname)", "refs/tg/live/"]))
      .toString("utf8")
      .split("\n")
      .filter((l) => l !== "");
    const want = new Set([...live].filter((t) => t !== EMPTY_TREE).map((t) => `refs/tg/live/${t}`));
    const have = new Set(existing);
    const cmds: string[] = [];
    for (const ref of existing) if (!want.has(ref)) cmds.push(`delete ${ref}\n`);
    for (const ref of want) if (!have.has(ref)) cmds.push(`create ${ref} ${ref.slice("refs/tg/live/".length)}\n`);
    if (cmds.length > 0) await this.run(["update-ref", "--stdin"], { input: cmds.join("") });
    await this.run(["gc", "--prune=now", "--quiet"]);
  }
}

export { EMPTY_TREE };
