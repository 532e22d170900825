import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as nodePath from "node:path";
import { bwrapArgs } from "../../core/sandbox/bwrapArgs";
import { scrubEnvironment } from "../../core/sandbox/credentialEnv";
import { classifySandboxFailure, type RunOutcome, type SandboxFailure } from "../../core/sandbox/sandboxFailure";
import type { SandboxPolicy } from "../../core/sandbox/sandboxPolicy";
import type { SandboxNetwork } from "../../core/sandbox/sandboxSettings";
import { seatbeltProfile } from "../../core/sandbox/seatbeltProfile";
import { hostSecrets } from "./hostSecrets";
import { compareSnapshots, takeSnapshot, type ProtectedChange, type ProtectedSnapshot } from "./protectedSnapshot";
import { probeSandbox, type SandboxProbe } from "./sandboxProbe";
import { ignoreStamp, scanWorkspace, type WorkspaceScan } from "./workspaceScan";

/** What the runner would spawn without a sandbox. */
export interface SpawnSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export interface SandboxPolicyInput {
  /** Workspace roots (absolute; symlinks are resolved here). */
  readonly roots: readonly string[];
  readonly ignoreFileName: string;
  readonly network: SandboxNetwork;
  /** Defaults to the current user's home directory. */
  readonly home?: string;
}

export interface SandboxRunReport {
  /** The sandbox itself did not start: the command did not run; the runner asks before any unsandboxed run. */
  readonly startFailure?: string;
  /** The command ran but the sandbox blocked it: tell the model this message; offer one "unsandboxed" re-run. */
  readonly blocked?: Extract<SandboxFailure, { kind: "blocked" }>;
  /** Protected paths the command created or changed: each becomes an ask (keep / remove) before the agent goes on. */
  readonly protectedChanges: readonly ProtectedChange[];
  /** The state before the run, for `revertChange`. */
  readonly before: ProtectedSnapshot;
}

export interface PreparedSpawn {
  readonly file: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  /** Variable names withheld from the command (never their values). */
  readonly removedEnv: readonly string[];
  /** Something the person should hear once (a setting the sandbox cannot honour yet). */
  readonly notice?: string;
  /** Call once the command ended (also after a failed spawn). */
  afterRun(outcome: RunOutcome): SandboxRunReport;
  /** Releases per-command resources; idempotent. */
  cleanup(): void;
}

/** The sandbox cannot start for this command (no mechanism, a workspace too large to scan): the runner asks. */
export class SandboxUnavailableError extends Error {}

const HOSTS_NOTICE =
  "`toolgate.sandbox.network` lists hosts, but the host allow-list proxy is not available yet: sandboxed commands have no network at all.";

/**
 * One task's sandbox: the workspace scan (hidden set, read-only set) is computed once and kept until the
 * ignore file changes or `invalidate()` is called (the host calls it on file-system change); the protected
 * snapshot is taken before every command, since it is what the after-run compare is against.
 */
export class SandboxSession {
  private scan: { readonly stamp: string; readonly result: WorkspaceScan } | undefined;
  private readonly roots: readonly string[];
  private empties: { readonly dir: string; readonly file: string; readonly emptyDir: string } | undefined;

  constructor(
    readonly input: SandboxPolicyInput,
    private readonly probe: SandboxProbe = probeSandbox(),
  ) {
    this.roots = input.roots.map((r) => {
      try {
        return realpathSync.native(r);
      } catch {
        throw new SandboxUnavailableError(`workspace root ${r} does not exist`);
      }
    });
  }

  invalidate(): void {
    this.scan = undefined;
  }

  /** The scan, recomputed when the ignore file changed, or when a bound path vanished or changed type. */
  private currentScan(): WorkspaceScan {
    const stamp = ignoreStamp(this.roots, this.input.ignoreFileName);
    const cached = this.scan;
    if (cached && cached.stamp === stamp && stillThere(cached.result)) return cached.result;
    const result = scanWorkspace(this.roots, this.input.ignoreFileName);
    this.scan = { stamp, result };
    return result;
  }

  policy(): SandboxPolicy {
    const scan = this.currentScan();
    const secrets = hostSecrets(this.input.home ?? homedir(), process.env);
    return {
      writableRoots: this.roots,
      readOnly: scan.readOnly,
      hiddenFiles: scan.hiddenFiles,
      hiddenDirs: scan.hiddenDirs,
      privateDirs: ["/tmp", "/run"].filter((d) => isDir(d)),
      secretFiles: secrets.files,
      secretDirs: secrets.dirs,
      network: "off",
    };
  }

  /** The empty file and directory hidden paths are covered with (one pair per session, outside every root). */
  private emptyTargets(): { readonly file: string; readonly emptyDir: string } {
    if (this.empties && existsSync(this.empties.file) && existsSync(this.empties.emptyDir)) return this.empties;
    const dir = mkdtempSync(nodePath.join(tmpdir(), "toolgate-sandbox-"));
    const file = nodePath.join(dir, "empty");
    const emptyDir = nodePath.join(dir, "empty.d");
    writeFileSync(file, "");
    mkdirSync(emptyDir);
    chmodSync(file, 0o444);
    chmodSync(emptyDir, 0o555);
    this.empties = {
      dir: realpathSync.native(dir),
      file: realpathSync.native(file),
      emptyDir: realpathSync.native(emptyDir),
    };
    return this.empties;
  }

  /** Wraps one spawn. Throws SandboxUnavailableError when no sandbox can be started for it. */
  prepare(spec: SpawnSpec): PreparedSpawn {
    if (!this.probe.available || this.probe.executable === undefined)
      throw new SandboxUnavailableError(this.probe.reason);
    let policy: SandboxPolicy;
    try {
      policy = this.policy();
    } catch (e) {
      throw new SandboxUnavailableError((e as Error).message);
    }
    const cwd = realOr(spec.cwd);
    const { env, removed } = scrubEnvironment(spec.env);
    const before = takeSnapshot(this.roots, this.input.ignoreFileName);
    const roots = this.roots;
    const ignoreFileName = this.input.ignoreFileName;
    const hidden = [
      ...policy.hiddenFiles,
      ...policy.hiddenDirs,
      ...(this.scan?.result.hiddenRelative ?? []),
      ...policy.secretFiles,
      ...policy.secretDirs,
    ];
    let scratch: string | undefined;
    let file: string;
    let args: string[];
    if (this.probe.mechanism === "bubblewrap") {
      const empties = this.emptyTargets();
      file = this.probe.executable;
      args = [
        ...bwrapArgs(policy, {
          emptyFile: empties.file,
          emptyDir: empties.emptyDir,
          disableUserns: this.probe.disableUserns,
          cwd,
        }),
        "--",
        spec.file,
        ...spec.args,
      ];
    } else {
      scratch = realpathSync.native(mkdtempSync(nodePath.join(tmpdir(), "toolgate-scratch-")));
      for (const k of ["TMPDIR", "TMP", "TEMP"]) env[k] = scratch;
      file = this.probe.executable;
      args = ["-p", seatbeltProfile(policy, { scratchDir: scratch, ignoreFileName }), spec.file, ...spec.args];
    }
    let cleaned = false;
    const cleanup = (): void => {
      if (cleaned) return;
      cleaned = true;
      if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
    };
    return {
      file,
      args,
      env,
      cwd,
      removedEnv: removed,
      ...(this.input.network.kind === "hosts" ? { notice: HOSTS_NOTICE } : {}),
      cleanup,
      afterRun(outcome: RunOutcome): SandboxRunReport {
        const failure = classifySandboxFailure(outcome, { hidden, networkOff: true });
        const after = takeSnapshot(roots, ignoreFileName);
        const protectedChanges = compareSnapshots(before, after);
        cleanup();
        if (failure?.kind === "start") return { startFailure: failure.reason, protectedChanges, before };
        return { ...(failure ? { blocked: failure } : {}), protectedChanges, before };
      },
    };
  }
}

function isDir(p: string): boolean {
  const st = lstatSync(p, { throwIfNoEntry: false });
  return st?.isDirectory() ?? false;
}

function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** A cached scan is stale when something it binds vanished or changed type (bubblewrap would fail or create it). */
function stillThere(scan: WorkspaceScan): boolean {
  for (const p of scan.hiddenDirs) if (!isDir(p)) return false;
  for (const p of scan.hiddenFiles) {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st || st.isDirectory()) return false;
  }
  return true;
}

const sessions = new Map<string, SandboxSession>();

/**
 * The one-call form the runner uses: a session per distinct policy input (cached for the process), then
 * `prepare`. Throws SandboxUnavailableError when the command must ask instead.
 */
export function prepareSandboxedSpawn(input: SandboxPolicyInput, spec: SpawnSpec): PreparedSpawn {
  const key = JSON.stringify([input.roots, input.ignoreFileName, input.network, input.home ?? null]);
  let session = sessions.get(key);
  if (!session) {
    session = new SandboxSession(input);
    if (sessions.size > 16) sessions.clear();
    sessions.set(key, session);
  }
  return session.prepare(spec);
}

/** Drops every cached scan (the host's file watcher saw a change). */
export function invalidateSandboxScans(): void {
  for (const s of sessions.values()) s.invalidate();
}
