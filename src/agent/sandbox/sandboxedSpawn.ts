import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as nodePath from "node:path";
import { bwrapArgs, type BwrapOptions } from "../../core/sandbox/bwrapArgs";
import { WORKSPACE_WRITE_GRANT, type SandboxGrant } from "../../core/sandbox/grant";
import { policyForGrant, type TaskSandboxInputs } from "../../core/sandbox/grantPolicy";
import { packageCacheEnv } from "../../core/sandbox/packageCaches";
import { compileAllowList, entryText, proxyEnvironment } from "../../core/sandbox/networkAllowList";
import { bridgeCommand, bridgeSocketTarget, SANDBOX_PROXY_PORT, savedVariable } from "../../core/sandbox/networkBridge";
import { scrubEnvironment } from "../../core/sandbox/credentialEnv";
import { classifySandboxFailure, type RunOutcome, type SandboxFailure } from "../../core/sandbox/sandboxFailure";
import type { SandboxPolicy } from "../../core/sandbox/sandboxPolicy";
import type { SandboxNetwork } from "../../core/sandbox/sandboxSettings";
import { seatbeltProfile } from "../../core/sandbox/seatbeltProfile";
import type { AllowListProxyOptions } from "./allowListProxy";
import { defaultBridgeProgram, type BridgeProgram } from "./bridgeProgram";
import { GrantProxies, proxyDownNotice, type NetworkPlan } from "./grantProxies";
import { ensurePackageCaches, otherHomesDirs, toolchainRoots } from "./homeInputs";
import { currentHostSecrets } from "./hostSecrets";
import { compareSnapshots, takeSnapshot, type ProtectedChange, type ProtectedSnapshot } from "./protectedSnapshot";
import { probeSandbox, type SandboxProbe } from "./sandboxProbe";
import { endAllTaskTmps, taskTmpDir } from "./taskTmp";
import { ignoreStamp, scanWorkspace, type WorkspaceScan } from "./workspaceScan";
import { realpathOr } from "../realpath";

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
  /** `toolgate.sandbox.network`: bounds the hosts a command's grant may reach (a grant never adds to it). */
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
  /** The state before the run, for undoing a protected change (`undoData`). */
  readonly before: ProtectedSnapshot;
  /** The state after the run (what the changes were found in). */
  readonly after: ProtectedSnapshot;
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
  /** The grant it runs with. */
  readonly grant: SandboxGrant;
  /** The task's private `/tmp` on the host, when the command uses one. */
  readonly taskTmp?: string;
  /** Call once the command ended (also after a failed spawn). */
  afterRun(outcome: RunOutcome): SandboxRunReport;
  /** Releases per-command resources; idempotent. */
  cleanup(): void;
}

/** The sandbox cannot start for this command (no mechanism, a workspace too large to scan): the runner asks. */
export class SandboxUnavailableError extends Error {}

export interface SandboxSessionOptions {
  /** For the allow-list proxy (tests inject a resolver). */
  readonly proxy?: Omit<AllowListProxyOptions, "hosts">;
  /** The in-sandbox bridge; defaults to Perl where present, else the runner's own Node. */
  readonly bridge?: BridgeProgram;
}

/** What one command adds to the task's fixed inputs: its grant, and which task's `/tmp` it uses. */
export interface PrepareOptions {
  /** The decision's grant; absent: `workspace-write` with no hosts (the strictest reading of "no grant"). */
  readonly grant?: SandboxGrant;
  /** The root task's key: its private `/tmp` is kept across its commands. Absent: a fresh one per command. */
  readonly taskKey?: string;
  /** Said when the command fails for want of network (which hosts to list in `toolgate.sandbox.network`). */
  readonly networkHint?: string;
}

/**
 * One workspace's sandbox: the workspace scan (hidden set, read-only set) is computed once and kept until the
 * ignore file changes or `invalidate()` is called (the host calls it on file-system change); the protected
 * snapshot is taken before every command, since it is what the after-run compare is against. Every command's
 * sandbox is `policyForGrant(grant, fixed inputs)`: nothing else about the call reaches it.
 */
export class SandboxSession {
  private scan: { readonly stamp: string; readonly result: WorkspaceScan } | undefined;
  private readonly roots: readonly string[];
  private empties: { readonly dir: string; readonly file: string; readonly emptyDir: string } | undefined;
  private cacheRoot: string | undefined;

  private policyCache: { readonly key: readonly unknown[]; readonly policy: SandboxPolicy } | undefined;
  private argvCache: { readonly key: readonly unknown[]; readonly args: readonly string[] } | undefined;
  private readonly proxies: GrantProxies;

  constructor(
    readonly input: SandboxPolicyInput,
    private readonly probe: SandboxProbe = probeSandbox(),
    private readonly options: SandboxSessionOptions = {},
  ) {
    this.roots = input.roots.map((r) => {
      try {
        return realpathSync.native(r);
      } catch {
        throw new SandboxUnavailableError(`workspace root ${r} does not exist`);
      }
    });
    this.proxies = new GrantProxies(probe.mechanism === "seatbelt", options.proxy);
  }

  invalidate(): void {
    this.scan = undefined;
  }

  /**
   * Closes the allow-list proxies (open tunnels too) and removes their sockets and the session's folder of
   * empty mount targets. Idempotent; a later command recreates what it needs.
   */
  dispose(): void {
    this.proxies.dispose();
    const empties = this.empties;
    this.empties = undefined;
    if (empties) removeSessionDir(empties.dir);
  }

  /** The hosts a grant may reach now: its own, still in the current `toolgate.sandbox.network` list. */
  private hostsFor(grant: SandboxGrant): readonly string[] {
    const listed = this.input.network.kind === "hosts" ? this.input.network.hosts : [];
    return grant.hosts.filter((h) => listed.includes(h));
  }

  /**
   * Resolves once the allow-list proxy for this grant listens (or failed to), so the command finds it. Needed
   * for Seatbelt only, whose proxy listens on TCP (asynchronous); bubblewrap's Unix socket binds at once.
   */
  async ready(grant: SandboxGrant = WORKSPACE_WRITE_GRANT): Promise<void> {
    if (this.probe.mechanism !== "seatbelt") return;
    await this.proxies.ready(this.hostsFor(grant));
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

  private home(): string {
    return this.input.home ?? homedir();
  }

  /** Toolgate's package caches (created once per session). */
  private caches(): string {
    this.cacheRoot ??= ensurePackageCaches(this.home(), process.env.XDG_CACHE_HOME);
    return this.cacheRoot;
  }

  /**
   * The task's fixed inputs and this command's grant, turned into the policy by `policyForGrant` — the same
   * object while its inputs are the same values, so the argv built from it can be reused.
   */
  policy(grant: SandboxGrant = WORKSPACE_WRITE_GRANT, taskTmp?: string): SandboxPolicy {
    const scan = this.currentScan();
    const home = this.home();
    const secrets = currentHostSecrets(home, process.env);
    const privateDirs = ["/tmp", "/run"].filter((d) => isDir(d));
    const toolchains = toolchainRoots(home, process.env.PATH, process.execPath);
    const realHome = realpathOr(home);
    const otherHomes = otherHomesDirs();
    const caches = [this.caches()];
    const reads = grant.readPaths ?? [];
    const key = [scan, secrets, grant.kind, taskTmp, realHome, ...privateDirs, "|", ...toolchains, "|", ...otherHomes];
    // An approved read is this call's alone: the next call's key (without it) builds a policy without it.
    key.push("|", ...reads);
    const c = this.policyCache;
    if (c && c.key.length === key.length && c.key.every((v, i) => v === key[i])) return c.policy;
    const fixed: TaskSandboxInputs = {
      roots: this.roots,
      scan,
      secrets,
      privateDirs,
      ...(taskTmp !== undefined ? { taskTmp } : {}),
      home: realHome,
      otherHomes,
      toolchains,
      caches,
    };
    const policy = policyForGrant(grant, fixed);
    this.policyCache = { key, policy };
    return policy;
  }

  /** bubblewrap's arguments (before `--`), rebuilt only when one of their inputs is a different value. */
  private bwrapArgv(policy: SandboxPolicy, o: BwrapOptions): readonly string[] {
    const key = [
      policy,
      o.emptyFile,
      o.emptyDir,
      o.disableUserns,
      o.cwd,
      o.bridge?.target,
      o.bridge?.bridge.hostSocket,
      o.bridge?.bridge.interpreter,
      o.bridge?.bridge.execs,
      o.bridge?.bridge.source,
      o.bridge?.bridge.codeFlag,
      o.bridge?.bridge.saves,
      ...(o.bridge?.bridge.flags ?? []),
    ];
    const c = this.argvCache;
    if (c && c.key.length === key.length && c.key.every((v, i) => v === key[i])) return c.args;
    const args = bwrapArgs(policy, o);
    this.argvCache = { key, args };
    return args;
  }

  /** The empty file and directory hidden paths are covered with (one pair per session, outside every root). */
  private emptyTargets(): { readonly file: string; readonly emptyDir: string } {
    if (this.empties && existsSync(this.empties.file) && existsSync(this.empties.emptyDir)) return this.empties;
    if (this.empties) removeSessionDir(this.empties.dir);
    const dir = mkdtempSync(nodePath.join(tmpdir(), "toolgate-sandbox-"));
    sessionDirs.add(dir);
    const file = nodePath.join(dir, "empty");
    const emptyDir = nodePath.join(dir, "empty.d");
    writeFileSync(file, "");
    mkdirSync(emptyDir);
    chmodSync(file, 0o444);
    chmodSync(emptyDir, 0o555);
    this.empties = {
      dir,
      file: realpathSync.native(file),
      emptyDir: realpathSync.native(emptyDir),
    };
    return this.empties;
  }

  /** Wraps one spawn with its grant. Throws SandboxUnavailableError when no sandbox can be started for it. */
  prepare(spec: SpawnSpec, o: PrepareOptions = {}): PreparedSpawn {
    if (!this.probe.available || this.probe.executable === undefined)
      throw new SandboxUnavailableError(this.probe.reason);
    const grant = o.grant ?? WORKSPACE_WRITE_GRANT;
    let policy: SandboxPolicy;
    let taskTmp: string | undefined;
    // Anything that stops the inputs from being built stops the command (the runner asks; never a looser run).
    try {
      taskTmp = o.taskKey !== undefined ? taskTmpDir(o.taskKey) : undefined;
      policy = this.policy(grant, this.probe.mechanism === "bubblewrap" ? taskTmp : undefined);
    } catch (e) {
      throw new SandboxUnavailableError((e as Error).message);
    }
    const cwd = realpathOr(spec.cwd);
    const { env, removed } = scrubEnvironment(spec.env);
    Object.assign(env, packageCacheEnv(this.caches(), env));
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
    let ownScratch = false;
    let file: string;
    let args: string[];
    const hosts = this.hostsFor(grant);
    let net: NetworkPlan = this.proxies.plan(hosts);
    const allowList = compileAllowList(hosts);
    if (this.probe.mechanism === "bubblewrap") {
      const empties = this.emptyTargets();
      const target = net.kind === "unix" ? bridgeSocketTarget(policy.privateDirs) : undefined;
      if (net.kind === "unix" && target === undefined)
        net = { kind: "none", notice: proxyDownNotice("the sandbox has no private /run for its socket") };
      const bridge =
        net.kind === "unix" && target !== undefined
          ? {
              bridge: { hostSocket: net.socket, ...(this.options.bridge ?? defaultBridgeProgram()) },
              target,
            }
          : undefined;
      for (const k of ["TMPDIR", "TMP", "TEMP"]) env[k] = "/tmp";
      file = this.probe.executable;
      args = [
        ...this.bwrapArgv(policy, {
          emptyFile: empties.file,
          emptyDir: empties.emptyDir,
          disableUserns: this.probe.disableUserns,
          cwd,
          ...(bridge ? { bridge } : {}),
        }),
        "--",
        ...(bridge
          ? bridgeCommand(bridge.bridge, bridge.target, spec.file, spec.args, env[savedVariable(bridge.bridge)])
          : [spec.file, ...spec.args]),
      ];
      if (bridge) {
        // The bridge restores it for the command (see bridgeCommand).
        if (bridge.bridge.execs) delete env[savedVariable(bridge.bridge)];
        Object.assign(env, proxyEnvironment(SANDBOX_PROXY_PORT, allowList));
      }
    } else {
      // Seatbelt matches paths: the task's folder is its TMPDIR, and the literal /tmp is not writable.
      scratch = taskTmp;
      if (scratch === undefined) {
        scratch = realpathSync.native(mkdtempSync(nodePath.join(tmpdir(), "toolgate-scratch-")));
        ownScratch = true;
      }
      for (const k of ["TMPDIR", "TMP", "TEMP"]) env[k] = scratch;
      file = this.probe.executable;
      const proxyPort = net.kind === "tcp" ? net.port : undefined;
      args = [
        "-p",
        seatbeltProfile(policy, { scratchDir: scratch, ignoreFileName, ...(proxyPort ? { proxyPort } : {}) }),
        spec.file,
        ...spec.args,
      ];
      if (proxyPort !== undefined) Object.assign(env, proxyEnvironment(proxyPort, allowList));
    }
    const proxied = net.kind !== "none";
    const notice = net.kind === "none" ? net.notice : undefined;
    let cleaned = false;
    const cleanup = (): void => {
      if (cleaned) return;
      cleaned = true;
      if (ownScratch && scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
    };
    const listConfigured = this.input.network.kind === "hosts";
    return {
      file,
      args,
      env,
      cwd,
      removedEnv: removed,
      grant,
      ...(taskTmp !== undefined ? { taskTmp } : {}),
      ...(notice !== undefined ? { notice } : {}),
      cleanup,
      afterRun(outcome: RunOutcome): SandboxRunReport {
        const failure = classifySandboxFailure(outcome, {
          hidden,
          networkOff: !proxied,
          ...(proxied ? { allowedHosts: allowList.map(entryText) } : {}),
          ...(listConfigured ? { listConfigured } : {}),
          ...(o.networkHint !== undefined ? { networkHint: o.networkHint } : {}),
          ...(grant.kind === "read-only" ? { readOnlyGrant: true } : {}),
        });
        const after = takeSnapshot(roots, ignoreFileName);
        const protectedChanges = compareSnapshots(before, after);
        cleanup();
        if (failure?.kind === "start") return { startFailure: failure.reason, protectedChanges, before, after };
        return { ...(failure ? { blocked: failure } : {}), protectedChanges, before, after };
      },
    };
  }
}

/**
 * Every session folder this process made and has not removed yet. A session's `dispose` removes its own; the
 * process's end removes the rest (`exit` runs on a normal end, on `process.exit`, and after a signal handler
 * that lets the process end — the CLI installs those), so no `toolgate-sandbox-*` folder outlives its process.
 */
const sessionDirs = new Set<string>();

function removeSessionDir(dir: string): void {
  sessionDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

process.once("exit", () => {
  for (const dir of [...sessionDirs]) removeSessionDir(dir);
});

function isDir(p: string): boolean {
  const st = lstatSync(p, { throwIfNoEntry: false });
  return st?.isDirectory() ?? false;
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
export function prepareSandboxedSpawn(
  input: SandboxPolicyInput,
  spec: SpawnSpec,
  o: PrepareOptions = {},
): PreparedSpawn {
  const key = JSON.stringify([input.roots, input.ignoreFileName, input.network, input.home ?? null]);
  let session = sessions.get(key);
  if (!session) {
    // A changed setting replaces the session it changes: its proxy (an old allow-list) closes.
    const sameWorkspace = JSON.stringify([input.roots, input.ignoreFileName, input.home ?? null]);
    for (const [k, s] of sessions)
      if (
        sessions.size > 16 ||
        JSON.stringify([s.input.roots, s.input.ignoreFileName, s.input.home ?? null]) === sameWorkspace
      ) {
        s.dispose();
        sessions.delete(k);
      }
    session = new SandboxSession(input);
    sessions.set(key, session);
  }
  return session.prepare(spec, o);
}

/** Closes every session's proxies and removes every task's `/tmp` (the host session ends). */
export function disposeSandboxSessions(): void {
  for (const s of sessions.values()) s.dispose();
  sessions.clear();
  endAllTaskTmps();
}

/** Drops every cached scan (the host's file watcher saw a change). */
export function invalidateSandboxScans(): void {
  for (const s of sessions.values()) s.invalidate();
}
