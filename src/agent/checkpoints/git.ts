/**
 * Runs git for the shadow stores, insulated from the person's git setup.
 *
 * Invariants:
 * - Every run names its repository (`--git-dir`), so git never discovers the person's `.git` and never
 *   writes to it; no `GIT_*` variable of the parent reaches the child (GIT_DIR, GIT_WORK_TREE,
 *   GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, …), and the only index used is the one passed in.
 * - No configuration file but the shadow's own is read (system and global config off, HOME pointed at an
 *   empty folder for gits too old for GIT_CONFIG_GLOBAL), and the command-scope config below disables hooks,
 *   fsmonitor, signing, line-ending and filter conversion, pagers, automatic gc and the person's global
 *   ignore and attributes files: nothing of the person's runs, and bytes are stored and written back as is.
 * - Pathspecs are literal (GIT_LITERAL_PATHSPECS), so a file named `:(glob)*` is just that file.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import * as nodePath from "node:path";

const NULL_DEVICE = process.platform === "win32" ? "NUL" : "/dev/null";

const COMMAND_CONFIG: readonly (readonly [string, string])[] = [
  ["core.hooksPath", NULL_DEVICE],
  ["core.fsmonitor", "false"],
  ["core.untrackedCache", "false"],
  ["core.splitIndex", "false"],
  ["core.autocrlf", "false"],
  ["core.safecrlf", "false"],
  ["core.quotepath", "off"],
  ["core.excludesFile", NULL_DEVICE],
  ["core.attributesFile", NULL_DEVICE],
  ["core.pager", "cat"],
  ["core.logAllRefUpdates", "false"],
  ["core.sparseCheckout", "false"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["safe.bareRepository", "explicit"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["color.ui", "false"],
  ["submodule.recurse", "false"],
  ["protocol.allow", "never"],
  ["diff.noprefix", "false"],
  ["diff.mnemonicPrefix", "false"],
  ["diff.renames", "false"],
];

export class GitFailure extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.slice(0, 3).join(" ")} failed (${code ?? "killed"}): ${stderr.trim().slice(0, 500)}`);
  }
}

export interface GitRunOptions {
  readonly gitDir: string;
  /** Set for commands that read or write the work tree. */
  readonly workTree?: string;
  readonly indexFile?: string;
  readonly input?: string | Buffer;
  /** Extra command-scope config for this run. */
  readonly config?: readonly (readonly [string, string])[];
  /** Exit codes that are not failures (e.g. 1 for `diff --exit-code`). */
  readonly okCodes?: readonly number[];
}

export interface Git {
  run(args: readonly string[], options: GitRunOptions): Promise<Buffer>;
  version(): Promise<string | undefined>;
}

/** The environment of every git run: the parent's minus git's own variables, plus the isolation above. */
export function gitEnv(emptyHome: string, indexFile: string | undefined, config: GitRunOptions["config"]) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.toUpperCase().startsWith("GIT_")) continue;
    env[k] = v;
  }
  const all = [...COMMAND_CONFIG, ...(config ?? [])];
  Object.assign(env, {
    HOME: emptyHome,
    XDG_CONFIG_HOME: emptyHome,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: NULL_DEVICE,
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_LITERAL_PATHSPECS: "1",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_AUTHOR_NAME: "Toolgate",
    GIT_AUTHOR_EMAIL: "checkpoints@toolgate.invalid",
    GIT_COMMITTER_NAME: "Toolgate",
    GIT_COMMITTER_EMAIL: "checkpoints@toolgate.invalid",
    LC_ALL: "C",
    LANGUAGE: "C",
    GIT_CONFIG_COUNT: String(all.length),
  });
  all.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  if (indexFile !== undefined) env.GIT_INDEX_FILE = indexFile;
  return env;
}

/** A git runner using `gitPath` (default: `git` on PATH); `emptyHome` is created if missing. */
export function createGit(gitPath = "git", emptyHome: string): Git {
  let versionP: Promise<string | undefined> | undefined;
  const run = (args: readonly string[], o: GitRunOptions): Promise<Buffer> => {
    mkdirSync(emptyHome, { recursive: true });
    const full = [`--git-dir=${o.gitDir}`, ...(o.workTree !== undefined ? [`--work-tree=${o.workTree}`] : []), ...args];
    return new Promise((resolve, reject) => {
      const child = spawn(gitPath, full, {
        cwd: o.workTree ?? nodePath.dirname(o.gitDir),
        env: gitEnv(emptyHome, o.indexFile, o.config),
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.stderr.on("data", (b: Buffer) => err.push(b));
      child.on("error", (e) => reject(e));
      child.on("close", (code) => {
        const stderr = Buffer.concat(err).toString("utf8");
        if (code === 0 || (code !== null && o.okCodes?.includes(code))) resolve(Buffer.concat(out));
        else reject(new GitFailure(args, code, stderr));
      });
      // A child that exits before reading all of stdin must not crash the host with EPIPE.
      child.stdin.on("error", () => undefined);
      child.stdin.end(o.input ?? "");
    });
  };
  return {
    run,
    version() {
      versionP ??= new Promise((resolve) => {
        const child = spawn(gitPath, ["--version"], {
          env: gitEnv(emptyHome, undefined, []),
          stdio: ["ignore", "pipe", "ignore"],
          windowsHide: true,
        });
        let text = "";
        child.stdout.on("data", (b: Buffer) => (text += b.toString("utf8")));
        child.on("error", () => resolve(undefined));
        child.on("close", (code) => resolve(code === 0 ? /(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1] : undefined));
      });
      return versionP;
    },
  };
}

/** `a.b.c` compared numerically; true when `version` is at least `min`. */
export function versionAtLeast(version: string, min: string): boolean {
  const a = version.split(".").map(Number);
  const b = min.split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/** NUL-separated git output → its fields (the trailing empty field dropped). */
export function splitNul(buf: Buffer): string[] {
  const s = buf.toString("utf8");
  if (s === "") return [];
  const parts = s.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}
