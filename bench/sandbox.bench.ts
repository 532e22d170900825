/**
 * OS sandbox start-up overhead per command: `bash --noprofile --norc -c true` spawned directly and inside
 * bubblewrap with the full policy (a git workspace with an ignore file), p50/p99 over 200 runs each. The
 * sandboxed figure includes the runtime's own work per command (protected-path snapshot before and after,
 * argv). The workspace: 5,000 files, a git directory, an ignore file hiding a directory, `.env` and five
 * `*.pem` files. Also: the workspace scan (hidden set), computed once per task, and the start-up with 100
 * hidden files (the mount limit), since bubblewrap's cost grows with the number of mounts.
 * Target on this machine: sandboxed p50 ≤ 20 ms.
 */
import { execSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { SandboxSession } from "../src/agent/sandbox/sandboxedSpawn";
import { probeSandbox } from "../src/agent/sandbox/sandboxProbe";
import { scanWorkspace } from "../src/agent/sandbox/workspaceScan";
import { fmt, percentiles } from "./stats";

const RUNS = 200;
const ms = (us: number) => `${fmt(us / 1000)} ms`;

function main(): void {
  const probe = probeSandbox();
  if (!probe.available) {
    console.log(`sandbox unavailable (${probe.reason}): nothing to measure`);
    return;
  }
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

  const scanSamples: number[] = [];
  let scan = scanWorkspace([ws], ".toolgateignore");
  for (let i = 0; i < 20; i++) {
    const t0 = process.hrtime.bigint();
    scan = scanWorkspace([ws], ".toolgateignore");
    scanSamples.push(Number(process.hrtime.bigint() - t0));
  }
  const s = percentiles(scanSamples);
  console.log(
    `workspace scan (${scan.entries} entries; ${scan.hiddenFiles.length} hidden files, ${scan.hiddenDirs.length} hidden dirs, ${scan.readOnly.length} read-only): p50 ${ms(s.p50)}, p99 ${ms(s.p99)}`,
  );

  const measure = (label: string, runs: number): void => {
    const session = new SandboxSession(
      { roots: [ws], ignoreFileName: ".toolgateignore", network: { kind: "off" } },
      probe,
    );
    const spec = { file: "/bin/bash", args: ["--noprofile", "--norc", "-c", "true"], env: { ...process.env }, cwd: ws };
    const plain: number[] = [];
    const boxed: number[] = [];
    const prep: number[] = [];
    for (let i = 0; i < runs + 10; i++) {
      let t0 = process.hrtime.bigint();
      const r = spawnSync(spec.file, spec.args, { cwd: ws, env: spec.env, stdio: "ignore" });
      if (r.status !== 0) throw new Error("bash -c true failed");
      const tPlain = Number(process.hrtime.bigint() - t0);
      t0 = process.hrtime.bigint();
      const p = session.prepare(spec);
      const tPrep = Number(process.hrtime.bigint() - t0);
      const b = spawnSync(p.file, p.args, { cwd: p.cwd, env: p.env, stdio: ["ignore", "ignore", "pipe"] });
      const t1 = process.hrtime.bigint();
      const report = p.afterRun({ exitCode: b.status ?? undefined, output: b.stderr.toString() });
      const tAfter = Number(process.hrtime.bigint() - t1);
      const tBoxed = Number(process.hrtime.bigint() - t0);
      if (b.status !== 0 || report.startFailure) throw new Error(`sandboxed true failed: ${b.stderr.toString()}`);
      if (i < 10) continue; // warm-up
      plain.push(tPlain);
      boxed.push(tBoxed);
      prep.push(tPrep + tAfter);
    }
    const a = percentiles(plain);
    const b = percentiles(boxed);
    const c = percentiles(prep);
    console.log(`[${label}] bash -c true, unsandboxed: p50 ${ms(a.p50)}, p99 ${ms(a.p99)}`);
    console.log(`[${label}] bash -c true, sandboxed:   p50 ${ms(b.p50)}, p99 ${ms(b.p99)} (target p50 ≤ 20 ms)`);
    console.log(`[${label}]   of which prepare + after-run compare: p50 ${ms(c.p50)}, p99 ${ms(c.p99)}`);
    console.log(`[${label}] overhead per command: p50 ${ms(b.p50 - a.p50)}, p99 ${ms(b.p99 - a.p99)}`);
  };
  measure(`${scan.hiddenFiles.length + scan.hiddenDirs.length + scan.readOnly.length} mounts`, RUNS);
  for (let i = 0; i < 100 - scan.hiddenFiles.length - scan.hiddenDirs.length - scan.readOnly.length; i++)
    writeFileSync(path.join(ws, `pkg${i % 50}`, `extra${i}.pem`), "k");
  measure("100 mounts", 50);
  rmSync(ws, { recursive: true, force: true });
}

main();
