/**
 * OS sandbox start-up overhead per command: `bash --noprofile --norc -c true` spawned directly and inside
 * bubblewrap with the full policy (a git workspace with an ignore file), p50/p99 over 200 runs each, with
 * `toolgate.sandbox.network` "off" and with a host list (the allow-list proxy's socket bound in, and the
 * in-sandbox bridge started before the command). The sandboxed figure includes the runtime's own work per
 * command (policy, protected-path snapshot before and after, argv); it is also shown by phase, and bubblewrap's
 * own floor (the base namespaces alone) is measured for comparison. The workspace: 5,000 files, a git
 * directory, an ignore file hiding a directory, `.env` and five `*.pem` files. Also: the workspace scan
 * (hidden set), computed once per task, and the start-up with 100 hidden files (the mount limit), since
 * bubblewrap's cost grows with the number of mounts. Target on this machine: sandboxed p50 ≤ 20 ms (network off).
 */
import { execSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import { hostSecrets } from "../src/agent/sandbox/hostSecrets";
import { takeSnapshot } from "../src/agent/sandbox/protectedSnapshot";
import { SandboxSession } from "../src/agent/sandbox/sandboxedSpawn";
import { probeSandbox, type SandboxProbe } from "../src/agent/sandbox/sandboxProbe";
import { scanWorkspace } from "../src/agent/sandbox/workspaceScan";
import { baseBwrapArgs } from "../src/core/sandbox/bwrapArgs";
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
  }
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

function measure(probe: SandboxProbe, ws: string, label: string, network: SandboxNetwork, runs: number): number {
  const session = new SandboxSession({ roots: [ws], ignoreFileName: ".toolgateignore", network }, probe);
  const spec = { file: "/bin/bash", args: ["--noprofile", "--norc", "-c", "true"], env: { ...process.env }, cwd: ws };
  const plain: number[] = [];
  const boxed: number[] = [];
  const prep: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < runs + 10; i++) {
    let t0 = process.hrtime.bigint();
    const r = spawnSync(spec.file, spec.args, { cwd: ws, env: spec.env, stdio: "ignore" });
    if (r.status !== 0) throw new Error("bash -c true failed");
    const tPlain = since(t0);
    t0 = process.hrtime.bigint();
    const p = session.prepare(spec);
    const tPrep = since(t0);
    if (p.notice !== undefined) throw new Error(p.notice);
    const b = spawnSync(p.file, p.args, { cwd: p.cwd, env: p.env, stdio: ["ignore", "ignore", "pipe"] });
    const t1 = process.hrtime.bigint();
    const report = p.afterRun({ exitCode: b.status ?? undefined, output: b.stderr.toString() });
    const tAfter = since(t1);
    const tBoxed = since(t0);
    if (b.status !== 0 || report.startFailure || b.stderr.length > 0)
      throw new Error(`sandboxed true failed: ${b.stderr.toString()}`);
    if (i < 10) continue; // warm-up
    plain.push(tPlain);
    boxed.push(tBoxed);
    prep.push(tPrep);
    after.push(tAfter);
  }
  session.dispose();
  const a = line(`[${label}] bash -c true, unsandboxed`, plain);
  const b = line(`[${label}] bash -c true, sandboxed  `, boxed, network.kind === "off" ? " (target p50 ≤ 20 ms)" : "");
  line(`[${label}]   of which prepare (policy, snapshot, argv)`, prep);
  line(`[${label}]   of which after-run (snapshot, compare)`, after);
  console.log(`[${label}] overhead per command: p50 ${ms(b.p50 - a.p50)}, p99 ${ms(b.p99 - a.p99)}`);
  return b.p50;
}

/** The runtime's own per-command steps, one by one. */
function phases(probe: SandboxProbe, ws: string): void {
  const session = new SandboxSession(
    { roots: [ws], ignoreFileName: ".toolgateignore", network: { kind: "off" } },
    probe,
  );
  const pol: number[] = [];
  const sec: number[] = [];
  const snap: number[] = [];
  for (let i = 0; i < 110; i++) {
    let t0 = process.hrtime.bigint();
    session.policy();
    const a = since(t0);
    t0 = process.hrtime.bigint();
    hostSecrets(homedir(), process.env);
    const b = since(t0);
    t0 = process.hrtime.bigint();
    takeSnapshot([ws], ".toolgateignore");
    const c = since(t0);
    if (i < 10) continue;
    pol.push(a);
    sec.push(b);
    snap.push(c);
  }
  line("[phases] policy (cached scan check + credential stores)", pol);
  line("[phases]   of which credential stores in $HOME", sec);
  line("[phases] protected-path snapshot (taken before and after each command)", snap);
}

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
  const off = measure(probe, ws, `${mounts} mounts, network off`, { kind: "off" }, RUNS);
  const hosts = measure(
    probe,
    ws,
    `${mounts} mounts, network hosts`,
    { kind: "hosts", hosts: ["registry.npmjs.org"] },
    RUNS,
  );
  console.log(`host list (proxy socket + bridge) adds: p50 ${ms(hosts - off)} per command`);
  for (let i = 0; i < 100 - mounts; i++) writeFileSync(path.join(ws, `pkg${i % 50}`, `extra${i}.pem`), "k");
  measure(probe, ws, "100 mounts, network off", { kind: "off" }, 50);
  rmSync(ws, { recursive: true, force: true });
}

main();
