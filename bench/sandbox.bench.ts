/**
 * OS sandbox start-up overhead per command: `bash --noprofile --norc -c true` spawned directly and inside
 * bubblewrap with the full policy (a git workspace with an ignore file), p50/p99 over 200 runs each, with
 * `toolgate.sandbox.network` "off" and with a host list (the allow-list proxy's socket bound in, and the
 * in-sandbox bridge started before the command). The sandboxed figure includes the runtime's own work per
 * command (policy, protected-path snapshot before and after, argv); it is also shown by phase, and bubblewrap's
 * own floor (the base namespaces alone) is measured for comparison. The workspace: 5,000 files, a git
 * directory, an ignore file hiding a directory, `.env` and five `*.pem` files. Also: the workspace scan
 * (hidden set), computed once per task, and the start-up with 100 hidden files (the mount limit), since
 * bubblewrap's cost grows with the number of mounts. Each grant is measured (read-only, workspace-write, and
 * workspace-write with a host through the proxy), with the empty home and its binds counted toward the mount
 * cap. Targets: p50 within 20 ms of unsandboxed without hosts, within 30 ms with them.
 */
import { execSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import { BRIDGE_SOURCE, defaultBridgeProgram, PYTHON_BRIDGE } from "../src/agent/sandbox/bridgeProgram";
import { currentHostSecrets, hostSecrets } from "../src/agent/sandbox/hostSecrets";
import { takeSnapshot } from "../src/agent/sandbox/protectedSnapshot";
import { SandboxSession, type SandboxSessionOptions } from "../src/agent/sandbox/sandboxedSpawn";
import { probeSandbox, type SandboxProbe } from "../src/agent/sandbox/sandboxProbe";
import { scanWorkspace } from "../src/agent/sandbox/workspaceScan";
import { baseBwrapArgs } from "../src/core/sandbox/bwrapArgs";
import { grantOf, type SandboxGrant } from "../src/core/sandbox/grant";
import { mountOrder } from "../src/core/sandbox/sandboxPolicy";
import type { SandboxNetwork } from "../src/core/sandbox/sandboxSettings";
import { fmt, percentiles } from "./stats";

const RUNS = 200;
const ms = (us: number) => `${fmt(us / 1000)} ms`;
const since = (t0: bigint) => Number(process.hrtime.bigint() - t0);
const line = (label: string, samples: readonly number[], extra = "") => {
  const p = percentiles(samples);
  console.log(`${label}: p50 ${ms(p.p50)}, p99 ${ms(p.p99)}${extra}`);
  return p;
};

function workspace(): string {
  const ws = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-bench-sandbox-")));
  execSync("git init -q .", { cwd: ws });
  const ignore: string[] = ["*.pem", "secrets/", "build/", ".env"];
  for (let d = 0; d < 50; d++) {
    for (let f = 0; f < 96; f++) {
      const rel = `pkg${d}/src/file${f}.${d % 10 === 0 && f === 0 ? "pem" : "ts"}`;
      mkdirSync(path.join(ws, path.dirname(rel)), { recursive: true });
      writeFileSync(path.join(ws, rel), "x");
    }
    // A monorepo's packages: each package.json is a file that runs code later, fingerprinted by its scripts.
    writeFileSync(
      path.join(ws, `pkg${d}`, "package.json"),
      JSON.stringify({ name: `pkg${d}`, scripts: { test: "x" } }),
    );
  }
  writeFileSync(path.join(ws, "Makefile"), "all:\n\techo\n");
  mkdirSync(path.join(ws, "secrets"));
  writeFileSync(path.join(ws, ".toolgateignore"), ignore.join("\n"));
  writeFileSync(path.join(ws, ".env"), "K=V");
  return ws;
}

/** bubblewrap with the namespaces alone (no workspace, no hidden paths): what no policy work can go below. */
function floor(probe: SandboxProbe, runs: number): void {
  const args = [...baseBwrapArgs(probe.disableUserns), "--tmpfs", "/tmp", "--", "/bin/true"];
  const samples: number[] = [];
  for (let i = 0; i < runs + 10; i++) {
    const t0 = process.hrtime.bigint();
    spawnSync(probe.executable!, args, { stdio: "ignore" });
    if (i >= 10) samples.push(since(t0));
  }
  line("[floor] bubblewrap, base namespaces only, /bin/true", samples);
}

interface Config {
  readonly label: string;
  readonly network: SandboxNetwork;
  readonly options?: SandboxSessionOptions;
  /** The decision's grant (default: workspace-write with every listed host). */
  readonly grant?: SandboxGrant;
}

const grantFor = (c: Config): SandboxGrant =>
  c.grant ?? grantOf("workspace-write", c.network.kind === "hosts" ? c.network.hosts : []);

/**
 * Each iteration runs the command unsandboxed and then once per configuration, interleaved, so a change in
 * the machine's load colours every figure alike (this machine is shared).
 */
function measure(probe: SandboxProbe, ws: string, configs: readonly Config[], runs: number): number[] {
  const sessions = configs.map(
    (c) => new SandboxSession({ roots: [ws], ignoreFileName: ".toolgateignore", network: c.network }, probe, c.options),
  );
  const spec = { file: "/bin/bash", args: ["--noprofile", "--norc", "-c", "true"], env: { ...process.env }, cwd: ws };
  // The same bwrap argv, built once and spawned as is: what bubblewrap costs with this policy, without our work.
  const bareSpawns = sessions.map((session, k) => {
    const p = session.prepare(spec, { grant: grantFor(configs[k]!), taskKey: "bench" });
    // Counted toward the mount cap: every mount the grant's policy makes (binds into the empty home included).
    console.log(`[${configs[k]!.label}] ${mountOrder(session.policy(grantFor(configs[k]!), p.taskTmp)).length} mounts`);
    p.afterRun({ exitCode: 0, output: "" });
    return { file: p.file, args: p.args, env: p.env, cwd: p.cwd };
  });
  const plain: number[] = [];
  const bare = configs.map(() => [] as number[]);
  const boxed = configs.map(() => [] as number[]);
  const prep = configs.map(() => [] as number[]);
  const after = configs.map(() => [] as number[]);
  for (let i = 0; i < runs + 10; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(spec.file, spec.args, { cwd: ws, env: spec.env, stdio: "ignore" });
    if (r.status !== 0) throw new Error("bash -c true failed");
    if (i >= 10) plain.push(since(t0));
    sessions.forEach((session, k) => {
      const b0 = bareSpawns[k]!;
      const t0b = process.hrtime.bigint();
      const rb = spawnSync(b0.file, b0.args, { cwd: b0.cwd, env: b0.env, stdio: ["ignore", "ignore", "pipe"] });
      if (rb.status !== 0) throw new Error(`bare bwrap true failed: ${rb.stderr.toString()}`);
      if (i >= 10) bare[k]!.push(since(t0b));
      const t1 = process.hrtime.bigint();
      const p = session.prepare(spec, { grant: grantFor(configs[k]!), taskKey: "bench" });
      const tPrep = since(t1);
      if (p.notice !== undefined) throw new Error(p.notice);
      const b = spawnSync(p.file, p.args, { cwd: p.cwd, env: p.env, stdio: ["ignore", "ignore", "pipe"] });
      const t2 = process.hrtime.bigint();
      const report = p.afterRun({ exitCode: b.status ?? undefined, output: b.stderr.toString() });
      const tAfter = since(t2);
      if (b.status !== 0 || report.startFailure || b.stderr.length > 0)
        throw new Error(`sandboxed true failed: ${b.stderr.toString()}`);
      if (i < 10) return; // warm-up
      boxed[k]!.push(since(t1));
      prep[k]!.push(tPrep);
      after[k]!.push(tAfter);
    });
  }
  for (const s of sessions) s.dispose();
  const a = line(`bash -c true, unsandboxed`, plain);
  return configs.map((c, k) => {
    const bw = line(`[${c.label}] bare bwrap with the same argv (built once), bash -c true`, bare[k]!);
    const b = line(
      `[${c.label}] bash -c true, sandboxed`,
      boxed[k]!,
      grantFor(c).hosts.length === 0 ? " (target p50 ≤ 20 ms over unsandboxed)" : " (target ≤ 30 ms over unsandboxed)",
    );
    line(`[${c.label}]   of which prepare (policy, snapshot, argv)`, prep[k]!);
    line(`[${c.label}]   of which after-run (snapshot, compare)`, after[k]!);
    console.log(`[${c.label}] overhead per command: p50 ${ms(b.p50 - a.p50)}, p99 ${ms(b.p99 - a.p99)}`);
    line(
      `[${c.label}] ours alone (prepare + after-run, per command)`,
      prep[k]!.map((v, i) => v + after[k]![i]!),
    );
    console.log(`[${c.label}] full path minus bare bwrap: p50 ${ms(b.p50 - bw.p50)}, p99 ${ms(b.p99 - bw.p99)}`);
    return b.p50;
  });
}

/** The runtime's own per-command steps, one by one. */
function phases(probe: SandboxProbe, ws: string): void {
  const session = new SandboxSession(
    { roots: [ws], ignoreFileName: ".toolgateignore", network: { kind: "off" } },
    probe,
  );
  const pol: number[] = [];
  const sec: number[] = [];
  const secCached: number[] = [];
  const snap: number[] = [];
  for (let i = 0; i < 110; i++) {
    let t0 = process.hrtime.bigint();
    session.policy();
    const a = since(t0);
    t0 = process.hrtime.bigint();
    hostSecrets(homedir(), process.env);
    const b = since(t0);
    t0 = process.hrtime.bigint();
    currentHostSecrets(homedir(), process.env);
    const b2 = since(t0);
    t0 = process.hrtime.bigint();
    takeSnapshot([ws], ".toolgateignore");
    const c = since(t0);
    if (i < 10) continue;
    pol.push(a);
    sec.push(b);
    secCached.push(b2);
    snap.push(c);
  }
  line("[phases] policy (cached scan check + credential stores)", pol);
  line("[phases] credential stores in $HOME, looked up", sec);
  line("[phases] credential stores in $HOME, reused while their directories are unchanged", secCached);
  line("[phases] protected-path snapshot, fingerprints reused (taken before and after each command)", snap);
}

const hostList: SandboxNetwork = { kind: "hosts", hosts: ["registry.npmjs.org"] };

function main(): void {
  const probe = probeSandbox();
  if (!probe.available) {
    console.log(`sandbox unavailable (${probe.reason}): nothing to measure`);
    return;
  }
  const ws = workspace();
  const scanSamples: number[] = [];
  let scan = scanWorkspace([ws], ".toolgateignore");
  for (let i = 0; i < 20; i++) {
    const t0 = process.hrtime.bigint();
    scan = scanWorkspace([ws], ".toolgateignore");
    scanSamples.push(since(t0));
  }
  const mounts = scan.hiddenFiles.length + scan.hiddenDirs.length + scan.readOnly.length;
  line(
    `workspace scan, once per task (${scan.entries} entries; ${scan.hiddenFiles.length} hidden files, ${scan.hiddenDirs.length} hidden dirs, ${scan.readOnly.length} read-only)`,
    scanSamples,
  );
  phases(probe, ws);
  floor(probe, RUNS);
  const node = { interpreter: process.execPath, source: BRIDGE_SOURCE, execs: false };
  const [, off = 0, fast = 0, py = 0, slow = 0] = measure(
    probe,
    ws,
    [
      { label: `read-only grant, ${mounts} scan mounts, no hosts`, network: hostList, grant: grantOf("read-only") },
      {
        label: `workspace-write grant, ${mounts} scan mounts, no hosts`,
        network: hostList,
        grant: grantOf("workspace-write"),
      },
      { label: `workspace-write grant with a host, ${defaultBridgeProgram().interpreter} bridge`, network: hostList },
      {
        label: `workspace-write grant with a host, Python bridge`,
        network: hostList,
        options: { bridge: PYTHON_BRIDGE },
      },
      { label: `workspace-write grant with a host, Node bridge`, network: hostList, options: { bridge: node } },
    ],
    RUNS,
  );
  console.log(
    `a grant with hosts (proxy socket + bridge) adds per command: p50 ${ms(fast - off)}; with the Python bridge ${ms(py - off)}; with the Node bridge ${ms(slow - off)}`,
  );
  for (let i = 0; i < 100 - mounts; i++) writeFileSync(path.join(ws, `pkg${i % 50}`, `extra${i}.pem`), "k");
  measure(probe, ws, [{ label: "100 scan mounts, workspace-write, network off", network: { kind: "off" } }], 50);
  rmSync(ws, { recursive: true, force: true });
}

main();
