import { statSync } from "node:fs";
import { homedir } from "node:os";
import * as nodePath from "node:path";
import { insideRepository, type GitConfigSource, type RepoConfigTargets } from "../../core/gitConfigTargets";
import { realpathOr, realpathOrUndefined } from "../realpath";

/**
 * What a root's repository configuration makes protected, read by git itself rather than by a parser of our own
 * (which a `core.hooksPath` continued with a backslash-newline, a setting in an included file, or a linked
 * worktree's common directory all got wrong): `git rev-parse` says where the git directory, the common
 * directory and the hooks really are, and `git config --includes --show-origin --list` names every file git
 * read and every value. The result is cached per root and checked at each use by the stat of every file it
 * came from (plus those that would change it by appearing: the home's config files, included files that do
 * not exist yet), so git runs only when one of them changed.
 *
 * git runs with a clean environment: no system configuration (`GIT_CONFIG_NOSYSTEM`), none of the host's `GIT_*`
 * variables, no pager, `core.fsmonitor` off; `rev-parse` and `config` run nothing a repository configures. When
 * git cannot answer (not installed with a `.git` present, dubious ownership, a timeout, output it cannot be
 * trusted on) the root is `unknown`: every write in it asks.
 */

export interface GitRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The process could not be started (`ENOENT`: no git) or was killed (timeout). */
  readonly error?: string;
}

export interface GitConfigReaderOptions {
  /** The home whose `.gitconfig` git reads (the person's). */
  readonly home?: string;
  readonly git?: string;
  /** Replaces the process (tests). */
  readonly run?: (args: readonly string[], cwd: string) => GitRun;
  readonly timeoutMs?: number;
}

interface Cached {
  /** Path and stamp of every file the answer depends on. */
  readonly stamps: readonly (readonly [string, string])[];
  readonly result: RepoConfigTargets;
}

const SAFE_ARGS = ["--no-pager", "-c", "core.fsmonitor=false"];
const MAX_OUTPUT = 4 * 1024 * 1024;

export class GitConfigReader implements GitConfigSource {
  private readonly cache = new Map<string, Cached>();
  private readonly home: string;
  private readonly run: (args: readonly string[], cwd: string) => GitRun;
  /** Times git ran (tests check that an unchanged configuration is not read again). */
  reads = 0;

  constructor(private readonly opts: GitConfigReaderOptions = {}) {
    this.home = opts.home ?? homedir();
    this.run = opts.run ?? ((args, cwd) => this.spawnGit(args, cwd));
  }

  targets(roots: readonly string[]): readonly RepoConfigTargets[] {
    // Roots share ancestors and home files: one stat per path per call.
    const seen = new Map<string, string>();
    const stampOf = (p: string) => {
      let s = seen.get(p);
      if (s === undefined) {
        s = stamp(p);
        seen.set(p, s);
      }
      return s;
    };
    return roots.map((root) => {
      const hit = this.cache.get(root);
      if (hit && hit.stamps.every(([p, s]) => stampOf(p) === s)) return hit.result;
      const read = this.read(root);
      // Stamps are taken after git ran: a change during the run is seen at the next use.
      const stamps = read.depends.map((p) => [p, stamp(p)] as const);
      if (this.cache.size > 64) this.cache.clear();
      this.cache.set(root, { stamps, result: read.result });
      return read.result;
    });
  }

  private read(root: string): { result: RepoConfigTargets; depends: string[] } {
    this.reads++;
    const dotGit = nodePath.join(root, ".git");
    // Outside a repository only `.git` appearing changes the answer; inside one, the home's files too.
    const depends = [dotGit];
    const home = [nodePath.join(this.home, ".gitconfig"), xdgGitConfig(this.home)];
    const unknown = (reason: string) => ({
      result: { kind: "unknown", reason } as const,
      depends: [...depends, ...home],
    });
    const where = this.run(
      [
        ...SAFE_ARGS,
        "rev-parse",
        "--path-format=absolute",
        "--git-dir",
        "--git-common-dir",
        "--git-path",
        "hooks",
        "--is-bare-repository",
        "--show-prefix",
      ],
      root,
    );
    if (where.error !== undefined) {
      // No git here: no hooks run either, unless there is a repository another git could use.
      if (/ENOENT/.test(where.error) && !insideRepository(root)) return { result: { kind: "none" }, depends };
      return unknown(`git could not be run: ${where.error}`);
    }
    if (where.status !== 0) {
      // git finds no repository (a `.git` it cannot use included): the person's git runs no hook here either.
      // The stamp of `.git` (a directory's mtime moves when its entries change) brings git back when that changes.
      if (/not a git repository/i.test(where.stderr)) return { result: { kind: "none" }, depends };
      return unknown(firstLine(where.stderr) || `git rev-parse exited with ${String(where.status)}`);
    }
    const lines = where.stdout.split("\n");
    if (lines.length !== 6 || lines[5] !== "") return unknown("git rev-parse gave output Toolgate cannot read");
    const [gitDir, commonDir, hooks, bare, prefix] = lines as [string, string, string, string, string];
    if (![gitDir, commonDir, hooks].every((p) => nodePath.isAbsolute(p)))
      return unknown("git rev-parse gave a relative path");
    const realRoot = realpathOr(root);
    const top =
      bare === "true"
        ? gitDir
        : nodePath.resolve(
            realRoot,
            ...prefix
              .split("/")
              .filter((s) => s !== "")
              .map(() => ".."),
          );
    const listed = this.run(
      [...SAFE_ARGS, "config", "--includes", "--show-origin", "--show-scope", "-z", "--list"],
      root,
    );
    if (listed.error !== undefined || listed.status !== 0)
      return unknown(firstLine(listed.stderr) || listed.error || "git config failed");
    const targets = new Set<string>([
      hooks,
      nodePath.join(commonDir, "hooks"),
      nodePath.join(commonDir, "config"),
      nodePath.join(commonDir, "config.worktree"),
      nodePath.join(gitDir, "config"),
      nodePath.join(gitDir, "config.worktree"),
      nodePath.join(gitDir, "commondir"),
    ]);
    // The files whose change (or appearance) changes the answer; git names the rest as origins.
    const files = new Set<string>([...home, nodePath.join(commonDir, "config")]);
    if (gitDir !== commonDir) files.add(nodePath.join(gitDir, "commondir"));
    if (bare !== "true" && top !== realRoot) files.add(nodePath.join(top, ".git"));
    const entries = parseList(listed.stdout);
    if (entries === undefined) return unknown("git config gave output Toolgate cannot read");
    let onBranch = false;
    // `config.worktree` is read only with this extension on (set in `config`, whose stamp is kept).
    if (entries.some((e) => e.key === "extensions.worktreeconfig" && /^(true|yes|on|1)$/i.test(e.value)))
      for (const d of [gitDir, commonDir]) files.add(nodePath.join(d, "config.worktree"));
    for (const e of entries) {
      if (e.scope === "command" || !e.origin.startsWith("file:")) continue;
      const file = nodePath.resolve(top, e.origin.slice("file:".length));
      files.add(file);
      if (e.scope !== "local" && e.scope !== "worktree") {
        // The person's own files are protected by name already; what they configure for hooks still counts.
        if (e.key !== "core.hookspath") continue;
      } else targets.add(file);
      if (e.key === "core.hookspath") targets.add(expand(e.value, top, this.home));
      else if (e.key === "include.path" || (e.key.startsWith("includeif.") && e.key.endsWith(".path"))) {
        const inc = expand(e.value, nodePath.dirname(file), this.home);
        targets.add(inc);
        files.add(inc);
        if (e.key.startsWith("includeif.onbranch:")) onBranch = true;
      }
    }
    if (onBranch) files.add(nodePath.join(gitDir, "HEAD"));
    // Both spellings of each target: git names real paths, a value may go through a link.
    for (const t of [...targets]) {
      const real = realpathOrUndefined(t);
      if (real !== undefined) targets.add(real);
    }
    return { result: { kind: "known", targets: [...targets].sort() }, depends: [...depends, ...files] };
  }

  private spawnGit(args: readonly string[], cwd: string): GitRun {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: this.home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_PAGER: "cat",
      PAGER: "cat",
      GIT_TERMINAL_PROMPT: "0",
      GIT_OPTIONAL_LOCKS: "0",
      LC_ALL: "C",
    };
    if (process.env.XDG_CONFIG_HOME) env.XDG_CONFIG_HOME = process.env.XDG_CONFIG_HOME;
    // child_process is loaded when first needed: a hook process that spawns nothing never loads it.
    const r = process.getBuiltinModule("node:child_process").spawnSync(this.opts.git ?? "git", args, {
      cwd,
      env,
      encoding: "utf8",
      timeout: this.opts.timeoutMs ?? 5000,
      maxBuffer: MAX_OUTPUT,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
    const error = r.error ? `${(r.error as NodeJS.ErrnoException).code ?? ""} ${r.error.message}`.trim() : undefined;
    return {
      status: r.status,
      stdout: r.stdout ?? "",
      stderr: r.stderr ?? "",
      ...(error !== undefined ? { error } : r.signal ? { error: `killed by ${r.signal}` } : {}),
    };
  }
}

/** The reader the product uses: one per process, so its cache serves every gate and the sandbox. */
export const nodeGitConfig = new GitConfigReader();

interface ListEntry {
  readonly scope: string;
  readonly origin: string;
  readonly key: string;
  readonly value: string;
}

/** `git config --show-scope --show-origin -z --list`: `scope NUL origin NUL key LF value NUL` per entry. */
function parseList(out: string): ListEntry[] | undefined {
  if (out === "") return [];
  const parts = out.split("\0");
  if (parts.at(-1) !== "") return undefined;
  parts.pop();
  if (parts.length % 3 !== 0) return undefined;
  const entries: ListEntry[] = [];
  for (let i = 0; i < parts.length; i += 3) {
    const kv = parts[i + 2]!;
    const nl = kv.indexOf("\n");
    // A key without a value (`[core] hooksPath`) is boolean true: nothing that names a path.
    entries.push({
      scope: parts[i]!,
      origin: parts[i + 1]!,
      key: (nl < 0 ? kv : kv.slice(0, nl)).toLowerCase(),
      value: nl < 0 ? "" : kv.slice(nl + 1),
    });
  }
  return entries;
}

/** A path value as git reads it: `~/` is the home, a relative one is relative to `base`. */
function expand(value: string, base: string, home: string): string {
  if (value === "~" || value.startsWith("~/")) return nodePath.join(home, value.slice(1));
  return nodePath.resolve(base, value);
}

function xdgGitConfig(home: string): string {
  const xdg = process.env.XDG_CONFIG_HOME;
  return nodePath.join(xdg && nodePath.isAbsolute(xdg) ? xdg : nodePath.join(home, ".config"), "git", "config");
}

/** Size, times and inode: any write, rename onto or replacement changes it (ctime cannot be set back). */
function stamp(p: string): string {
  try {
    const s = statSync(p, { throwIfNoEntry: false });
    return s ? `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}` : "-";
  } catch {
    return "?";
  }
}

function firstLine(s: string): string {
  return (
    s
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? ""
  );
}
