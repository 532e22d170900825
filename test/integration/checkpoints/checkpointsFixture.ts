import { spawnSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { DEFAULT_CHECKPOINT_SETTINGS, type CheckpointSettings } from "../../../src/core/checkpointSettings";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import { GitCheckpointService } from "../../../src/agent/checkpoints/checkpointService";
import type { CheckpointService } from "../../../src/agent/checkpoints/types";

export function tempDir(prefix = "toolgate-ckpt-"): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

export function write(root: string, rel: string, data: string | Buffer): void {
  const p = path.join(root, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, data);
}

/** Runs a command line in real bash, as the agent's commands run. */
export function bash(cwd: string, line: string): void {
  const r = spawnSync("bash", ["--noprofile", "--norc", "-c", line], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`bash failed: ${line}\n${r.stderr}`);
}

export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "p",
      GIT_AUTHOR_EMAIL: "p@x",
      GIT_COMMITTER_NAME: "p",
      GIT_COMMITTER_EMAIL: "p@x",
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

/** Every entry under `root` except inside `.git` folders: files as bytes and exec bit, links as targets. */
export function fileState(root: string, opts: { includeGit?: boolean } = {}): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (rel: string) => {
    for (const name of readdirSync(path.join(root, rel)).sort()) {
      if (name === ".git" && !opts.includeGit) continue;
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(root, r);
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out.set(r, `link:${readlinkSync(abs)}`);
      else if (st.isDirectory()) visit(r);
      else out.set(r, `${st.mode & 0o111 ? "x" : "-"}:${readFileSync(abs).toString("base64")}`);
    }
  };
  visit("");
  return out;
}

export function chmodX(root: string, rel: string): void {
  chmodSync(path.join(root, rel), 0o755);
}

export interface Fixture {
  readonly service: GitCheckpointService;
  readonly store: string;
  trusted: boolean;
  settings: CheckpointSettings;
  cleanup(): void;
}

export function makeService(
  roots: readonly string[],
  opts: {
    store?: string;
    settings?: Partial<CheckpointSettings>;
    gitPath?: string;
    trusted?: boolean;
    watchChanges?: boolean;
  } = {},
): Fixture {
  const store = opts.store ?? tempDir("toolgate-ckpt-store-");
  const fx: Fixture = {
    store,
    trusted: opts.trusted ?? true,
    settings: { ...DEFAULT_CHECKPOINT_SETTINGS, ...opts.settings },
    service: undefined as unknown as GitCheckpointService,
    cleanup: () => {
      fx.service.dispose();
      rmSync(store, { recursive: true, force: true });
    },
  };
  (fx as { service: GitCheckpointService }).service = new GitCheckpointService({
    storageDir: store,
    roots,
    trusted: () => fx.trusted,
    settings: () => fx.settings,
    ignore: () => IgnoreRules.load(roots, ".toolgateignore"),
    ...(opts.gitPath ? { gitPath: opts.gitPath } : {}),
    ...(opts.watchChanges !== undefined ? { watchChanges: opts.watchChanges } : {}),
  });
  return fx;
}

/** Every object's content in a shadow store (what git ever read). */
export function shadowObjects(gitDir: string): Buffer {
  const env = { ...process.env, GIT_DIR: gitDir };
  const list = spawnSync("git", ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"], { env });
  const all = spawnSync("git", ["cat-file", "--batch"], { env, input: list.stdout });
  return all.stdout;
}

export function shadowDirs(store: string): string[] {
  const out: string[] = [];
  for (const ws of readdirSync(store).filter((n) => n.startsWith("ws-")))
    for (const r of readdirSync(path.join(store, ws, "roots")))
      out.push(path.join(store, ws, "roots", r, "shadow.git"));
  return out;
}

/** A service made later (once a harness's workspace exists), handed to a task that needs one now. */
export function late(get: () => CheckpointService): CheckpointService {
  return new Proxy({} as CheckpointService, {
    get:
      (_t, key) =>
      (...args: unknown[]) =>
        (get()[key as keyof CheckpointService] as (...a: unknown[]) => unknown)(...args),
  });
}
