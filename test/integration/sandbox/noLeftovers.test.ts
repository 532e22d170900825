import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { disposeSandboxSessions, SandboxSession } from "../../../src/agent/sandbox/sandboxedSpawn";
import { endTaskTmp } from "../../../src/agent/sandbox/taskTmp";
import { buildCli } from "../../support/cli";
import { sandboxDescribe } from "../../support/sandboxRequired";
import { probe, varTmpDir } from "./sandboxHarness";

/**
 * Every `toolgate sandbox` call and every in-process session removes the folders it made in the temp directory
 * (`toolgate-sandbox-*` mount targets, `toolgate-proxy-*` sockets, the task's `/tmp` under `toolgate-tasks-UID`)
 * when it ends: normally, on a failing command, and when the CLI is killed with SIGTERM or SIGINT mid-run.
 * Each test points TMPDIR at a folder of its own, so other processes on the machine cannot colour the count.
 */

const ws = varTmpDir("toolgate-leftovers-ws-");
const tmp = varTmpDir("toolgate-leftovers-tmp-");
const savedTmp = process.env.TMPDIR;
let cli = "";
beforeAll(async () => {
  cli = await buildCli();
  process.env.TMPDIR = tmp.dir;
});
afterAll(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  ws.cleanup();
  tmp.cleanup();
});

const uid = process.getuid?.() ?? 0;

/** What is left in the private temp folder: any entry, or anything inside the per-user task folder. */
function leftovers(): string[] {
  const out: string[] = [];
  for (const name of readdirSync(tmp.dir)) {
    if (name === `toolgate-tasks-${uid}`)
      for (const inner of readdirSync(path.join(tmp.dir, name))) out.push(`${name}/${inner}`);
    else out.push(name);
  }
  return out;
}

const env = (): NodeJS.ProcessEnv => ({ ...process.env, TMPDIR: tmp.dir });

const describeSandbox = sandboxDescribe(probe);

describeSandbox("no temp folders are left behind", () => {
  it("five `toolgate sandbox` runs (one failing) leave nothing in the temp folder", () => {
    for (let i = 0; i < 5; i++) {
      const line = i === 3 ? "exit 7" : `echo run${i} > /tmp/x && cat /tmp/x > out${i}.txt`;
      const r = spawnSync(process.execPath, [cli, "sandbox", "--workspace", ws.dir, "--", line], {
        encoding: "utf8",
        env: env(),
      });
      expect(r.status, r.stderr).toBe(i === 3 ? 7 : 0);
      if (i !== 3) expect(readFileSync(path.join(ws.dir, `out${i}.txt`), "utf8")).toBe(`run${i}\n`);
      expect(leftovers()).toEqual([]);
    }
  });

  it("five in-process sessions (direct and through the runner) leave nothing once they end", async () => {
    for (let i = 0; i < 5; i++) {
      const session = new SandboxSession({
        roots: [ws.dir],
        ignoreFileName: ".toolgateignore",
        network: { kind: "off" },
      });
      const prepared = session.prepare(
        { file: "/bin/bash", args: ["--noprofile", "--norc", "-c", "echo in > /tmp/y"], env: {}, cwd: ws.dir },
        { taskKey: `direct-${i}` },
      );
      expect(spawnSync(prepared.file, prepared.args, { env: prepared.env, cwd: prepared.cwd }).status).toBe(0);
      prepared.afterRun({ exitCode: 0, output: "" });
      expect(leftovers().length).toBeGreaterThan(0);
      endTaskTmp(`direct-${i}`);
      session.dispose();
      expect(leftovers()).toEqual([]);
    }
    const runner = new NodeCommandRunner(process.env, { values: () => ({}), ignoreFileName: () => ".toolgateignore" });
    for (let i = 0; i < 5; i++) {
      const r = await runner.run({
        command: `echo r${i} > r${i}.txt`,
        cwd: ws.dir,
        roots: [ws.dir],
        timeoutMs: 30_000,
        maxOutputBytes: 1 << 20,
        signal: new AbortController().signal,
        autoApproved: true,
        taskKey: "task",
      });
      expect(r.exitCode).toBe(0);
      expect(r.sandbox?.sandboxed).toBe(true);
    }
    runner.endTask("task");
    disposeSandboxSessions();
    expect(leftovers()).toEqual([]);
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const)
    it(`a \`toolgate sandbox\` killed mid-run with ${signal} stops the command and leaves nothing`, async () => {
      const marker = path.join(ws.dir, `started-${signal}`);
      const child = spawn(
        process.execPath,
        [cli, "sandbox", "--workspace", ws.dir, "--", `touch started-${signal}; sleep 30; touch finished-${signal}`],
        { env: env(), stdio: ["ignore", "ignore", "pipe"] },
      );
      const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
      const t0 = Date.now();
      while (!existsSync(marker) && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 25));
      expect(existsSync(marker)).toBe(true);
      expect(leftovers().length).toBeGreaterThan(0);
      child.kill(signal);
      const code = await exited;
      expect(code).toBe(signal === "SIGTERM" ? 143 : 130);
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(existsSync(path.join(ws.dir, `finished-${signal}`))).toBe(false);
      expect(leftovers()).toEqual([]);
    });
});
