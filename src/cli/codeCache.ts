/**
 * V8's code cache for the CLI's own command bundles (`dist/cli-<command>.js`): a hook process starts once per
 * tool call and would otherwise parse and compile about a megabyte of JavaScript each time. The bytecode V8
 * compiled in one run is kept in the per-user cache folder and handed to V8 in the next; it is the bytecode of
 * the same source with the same engine, so only when the code is compiled changes, never what it does.
 *
 * One file per bundle and build, `<cache>/toolgate/code-cache/<bundle>-<sha256(source), 16 hex>.v8`: a JSON
 * header line (format, Node version, architecture, the full sha256 of the source, the sha256 and length of the
 * data), then V8's data. Invariants, each a fresh compile when it fails:
 * - the entry is used only if the source's hash, the data's hash and length, the Node version and the
 *   architecture all match, and V8 itself accepts it (its own version and flag checks); a corrupt, truncated,
 *   stale or foreign entry is never given to V8 (V8 does not checksum code caches in release builds);
 * - the folder and the file are this user's and writable by nobody else, and neither is a link;
 * - entries are written whole (a temporary file renamed over), after the command ran, so they hold the
 *   functions it compiled; a write that fails is dropped. The cache never changes an exit code or an output.
 * `TOOLGATE_CODE_CACHE=off` turns it off; `TOOLGATE_CODE_CACHE=report` also says on stderr what it did.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { createRequire, Module } from "node:module";
import { homedir } from "node:os";
import * as nodePath from "node:path";
import { Script } from "node:vm";

const FORMAT = 1;
const SUFFIX = ".v8";
/** The bundles the cache covers: the command bundles beside the entry (not the entry: it is small). */
const BUNDLE = /^cli-[a-z]+\.js$/;

interface Header {
  readonly format: number;
  readonly node: string;
  readonly arch: string;
  readonly source: string;
  readonly data: string;
  readonly length: number;
}

const sha256 = (b: string | Buffer): string => createHash("sha256").update(b).digest("hex");

/** `$XDG_CACHE_HOME/toolgate/code-cache`, else `~/.cache/toolgate/code-cache`. */
export function codeCacheDir(env: NodeJS.ProcessEnv, home: string = homedir()): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && nodePath.isAbsolute(xdg) ? xdg : nodePath.join(home, ".cache");
  return nodePath.join(base, "toolgate", "code-cache");
}

/** An entry: the header line, then V8's data. */
export function encodeEntry(sourceHash: string, data: Buffer): Buffer {
  const header: Header = {
    format: FORMAT,
    node: process.version,
    arch: process.arch,
    source: sourceHash,
    data: sha256(data),
    length: data.length,
  };
  return Buffer.concat([Buffer.from(JSON.stringify(header) + "\n"), data]);
}

/** V8's data from an entry for the source with hash `sourceHash`, or why the entry cannot be used. */
export function decodeEntry(entry: Buffer, sourceHash: string): { data: Buffer } | { reason: string } {
  const nl = entry.indexOf(0x0a);
  if (nl < 0 || nl > 4096) return { reason: "no header" };
  let h: Partial<Header>;
  try {
    h = JSON.parse(entry.subarray(0, nl).toString("utf8")) as Partial<Header>;
  } catch {
    return { reason: "unreadable header" };
  }
  if (h.format !== FORMAT) return { reason: "another format" };
  if (h.node !== process.version || h.arch !== process.arch) return { reason: "another Node" };
  if (h.source !== sourceHash) return { reason: "another source" };
  const data = entry.subarray(nl + 1);
  if (h.length !== data.length || h.data !== sha256(data)) return { reason: "corrupt" };
  return { data };
}

/** Ours and nobody else's to write: owned by this user (where there are users), no write bit for others. */
function ownedPrivately(st: fs.Stats): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

export interface CodeCacheReport {
  (bundle: string, what: string): void;
}

export class CodeCache {
  private ready: boolean | undefined;

  constructor(
    private readonly dir: string,
    private readonly report?: CodeCacheReport,
  ) {}

  /** The folder, created private when missing; false when it is not ours alone (then nothing is used or kept). */
  private folder(): boolean {
    if (this.ready !== undefined) return this.ready;
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const st = fs.lstatSync(this.dir);
      this.ready = st.isDirectory() && ownedPrivately(st);
    } catch {
      this.ready = false;
    }
    if (!this.ready) this.report?.("*", `folder ${this.dir} not used (not private to this user)`);
    return this.ready;
  }

  private file(bundle: string, sourceHash: string): string {
    return nodePath.join(this.dir, `${bundle}-${sourceHash.slice(0, 16)}${SUFFIX}`);
  }

  /** V8's data for `bundle` with this source, if a usable entry is kept. */
  read(bundle: string, sourceHash: string): Buffer | undefined {
    if (!this.folder()) return undefined;
    let fd: number | undefined;
    try {
      fd = fs.openSync(this.file(bundle, sourceHash), fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
      const st = fs.fstatSync(fd);
      if (!st.isFile() || !ownedPrivately(st)) {
        this.report?.(bundle, "entry not used (not private to this user)");
        return undefined;
      }
      const entry = Buffer.allocUnsafe(st.size);
      let got = 0;
      while (got < st.size) {
        const n = fs.readSync(fd, entry, got, st.size - got, got);
        if (n === 0) break;
        got += n;
      }
      const decoded = decodeEntry(entry.subarray(0, got), sourceHash);
      if ("reason" in decoded) {
        this.report?.(bundle, `entry not used (${decoded.reason})`);
        return undefined;
      }
      return decoded.data;
    } catch (e) {
      this.report?.(bundle, `no entry (${(e as NodeJS.ErrnoException).code ?? "error"})`);
      return undefined;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /** Keeps V8's data for `bundle`, replacing the entries of its other builds. Never throws. */
  write(bundle: string, sourceHash: string, data: Buffer): void {
    if (!this.folder()) return;
    const file = this.file(bundle, sourceHash);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, encodeEntry(sourceHash, data), { mode: 0o600, flag: "wx" });
      fs.renameSync(tmp, file);
      this.report?.(bundle, "entry written");
      for (const name of fs.readdirSync(this.dir))
        if (name.startsWith(`${bundle}-`) && name.endsWith(SUFFIX) && nodePath.join(this.dir, name) !== file)
          fs.rmSync(nodePath.join(this.dir, name), { force: true });
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      this.report?.(bundle, `entry not written (${(e as Error).message})`);
    }
  }
}

/** The parts of Node's CommonJS loader the cache takes over for its bundles. */
interface LoaderModule {
  exports: unknown;
  _compile(content: string, filename: string, ...rest: unknown[]): unknown;
}

/**
 * From now on, the bundles in `distDir` are compiled with the cache in `cacheDir` (every other file as Node
 * compiles it). A bundle whose source or entry cannot be read for the cache is compiled as Node would.
 */
export function installCodeCache(distDir: string, cacheDir: string, report?: CodeCacheReport): void {
  const cache = new CodeCache(cacheDir, report);
  const proto = Module.prototype as unknown as LoaderModule;
  const original = proto._compile;
  const toWrite: { bundle: string; hash: string; script: Script }[] = [];
  proto._compile = function (this: LoaderModule, content: string, filename: string, ...rest: unknown[]): unknown {
    const bundle = nodePath.basename(filename);
    if (nodePath.dirname(filename) !== distDir || !BUNDLE.test(bundle))
      return original.call(this, content, filename, ...rest);
    let script: Script;
    try {
      const hash = sha256(content);
      const cachedData = cache.read(bundle, hash);
      // Node's own wrapper, so the code sees what Node gives a module. The bundles hold no import() (esbuild.mjs
      // turns dynamic imports into require), so the script needs no dynamic-import callback.
      script = new Script(Module.wrap(content), { filename, ...(cachedData ? { cachedData } : {}) });
      if (cachedData === undefined || script.cachedDataRejected === true) {
        if (cachedData !== undefined) report?.(bundle, "entry rejected by V8");
        if (toWrite.length === 0) process.once("exit", () => toWrite.forEach(writeEntry));
        toWrite.push({ bundle, hash, script });
      } else report?.(bundle, "entry used");
    } catch {
      // A bundle that does not compile here fails as Node's own compile reports it.
      return original.call(this, content, filename, ...rest);
    }
    const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
    return wrapper.call(
      this.exports,
      this.exports,
      createRequire(filename),
      this,
      filename,
      nodePath.dirname(filename),
    );
  };
  function writeEntry(e: { bundle: string; hash: string; script: Script }): void {
    try {
      cache.write(e.bundle, e.hash, e.script.createCachedData());
    } catch (err) {
      report?.(e.bundle, `entry not written (${(err as Error).message})`);
    }
  }
}

/** The cache for the CLI in `distDir`, as the environment says (on unless `TOOLGATE_CODE_CACHE=off`). */
export function cliCodeCache(distDir: string, env: NodeJS.ProcessEnv): void {
  const mode = env.TOOLGATE_CODE_CACHE;
  if (mode === "off" || mode === "0") return;
  const report: CodeCacheReport | undefined =
    mode === "report" ? (bundle, what) => process.stderr.write(`toolgate code cache: ${bundle}: ${what}\n`) : undefined;
  try {
    installCodeCache(distDir, codeCacheDir(env), report);
  } catch {
    // No cache: every bundle compiles as Node compiles it.
  }
}
