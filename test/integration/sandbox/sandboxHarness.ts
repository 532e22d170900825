import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import * as path from "node:path";
import type { SandboxSession } from "../../../src/agent/sandbox/sandboxedSpawn";
import { type PrepareOptions, type SandboxRunReport } from "../../../src/agent/sandbox/sandboxedSpawn";
import { grantOf, type SandboxGrant } from "../../../src/core/sandbox/grant";
import { probeSandbox } from "../../../src/agent/sandbox/sandboxProbe";

export const probe = probeSandbox();
if (!probe.available)
  console.warn(
    `\n!!!!!!!! SANDBOX TESTS SKIPPED: ${probe.reason} !!!!!!!!\n` +
      "!!!!!!!! install bubblewrap (apt-get install -y bubblewrap) to run the escape tests !!!!!!!!\n",
  );

/** The real interpreter, not a version-manager shim that reads $HOME. */
export const PYTHON = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], {
  encoding: "utf8",
}).stdout.trim();

/**
 * The grant tests use by default: workspace-write, with every host of the session's list (as if the line
 * named them all). Tests of the grant itself pass their own.
 */
export function listedGrant(session: SandboxSession, kind: SandboxGrant["kind"] = "workspace-write"): SandboxGrant {
  const n = session.input.network;
  return grantOf(kind, n.kind === "hosts" ? n.hosts : []);
}

export interface Ran {
  readonly status: number | null;
  readonly out: string;
  readonly report?: SandboxRunReport;
}

/** A directory outside /tmp (which is private inside the sandbox): writes there meet the read-only root. */
export function varTmpDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = realpathSync(mkdtempSync(path.join("/var/tmp", prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function spawnCollect(file: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.on("close", (status) => resolve({ status, out }));
  });
}

/** Runs `bash --noprofile --norc -c line` in the first root, inside the sandbox or (to prove the attempt works) without. */
export async function run(
  session: SandboxSession,
  line: string,
  sandboxed: boolean,
  env: Record<string, string> = {},
  o: PrepareOptions = { grant: listedGrant(session) },
): Promise<Ran> {
  const spec = {
    file: "/bin/bash",
    args: ["--noprofile", "--norc", "-c", line],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: session.input.home ?? "/root", LANG: "C.UTF-8", ...env },
    cwd: session.input.roots[0]!,
  };
  if (!sandboxed) return spawnCollect(spec.file, spec.args, spec.cwd, spec.env as Record<string, string>);
  const p = session.prepare(spec, o);
  const r = await spawnCollect(p.file, p.args, p.cwd, p.env);
  return { ...r, report: p.afterRun({ exitCode: r.status ?? undefined, output: r.out }) };
}
