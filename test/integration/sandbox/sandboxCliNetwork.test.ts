import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildCli } from "../../support/cli";
import { tempTree } from "../../support/workspace";
import { probe } from "./sandboxHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";

/**
 * `toolgate sandbox` with `toolgate.sandbox.network` listing hosts: the CLI runs the same allow-list proxy
 * and bridge as the runtime. The listener lives in this test process, so the CLI is spawned asynchronously.
 */

const HAS_CURL = spawnSync("curl", ["--version"]).status === 0;
const BODY = "CLI-LISTENER";
const t = tempTree({ "ws/a.txt": "x\n" });
let cli = "";
let server: Server;
let port = 0;
beforeAll(async () => {
  cli = await buildCli();
  server = createServer((_req, res) => res.end(`${BODY}\n`));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
  t.cleanup();
});

function sandbox(
  network: unknown,
  line: string,
  grantHosts: readonly string[] | undefined = Array.isArray(network) ? network.map(String) : undefined,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const settings = path.join(t.dir, `settings-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(settings, JSON.stringify({ "toolgate.sandbox.network": network }));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [
      cli,
      "sandbox",
      "--settings",
      settings,
      "--workspace",
      t.path("ws"),
      // The grant names every listed host (as a line that names them would get); the list still bounds it.
      ...(grantHosts ?? []).flatMap((h) => ["--network", h]),
      "--",
      line,
    ]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

sandboxDescribe(probe, !HAS_CURL)("toolgate sandbox with a host list (real bubblewrap)", () => {
  it("reaches a listed host:port through the proxy, and exits with the command's status", async () => {
    const r = await sandbox([`127.0.0.1:${port}`], `curl -sS --max-time 10 http://127.0.0.1:${port}/ && exit 3`);
    expect(r.stdout).toBe(`${BODY}\n`);
    expect(r.status).toBe(3);
  });

  it("a listed host is not reachable by a grant that does not name it (--network missing, or not in the list)", async () => {
    const line = `curl -sS --max-time 5 http://127.0.0.1:${port}/`;
    const none = await sandbox([`127.0.0.1:${port}`], line, []);
    expect(none.stdout).not.toContain(BODY);
    expect(none.status).not.toBe(0);
    const unlisted = await sandbox(["example.com"], line, [`127.0.0.1:${port}`]);
    expect(unlisted.stdout).not.toContain(BODY);
  });

  it("refuses a port that is not listed; with network off nothing is reached; unsandboxed the line works", async () => {
    const line = `curl -sS --max-time 10 http://127.0.0.1:${port}/`;
    const other = await sandbox([`127.0.0.1:${port === 65535 ? 1 : port + 1}`], `${line} -i`);
    expect(other.stdout).toMatch(/403 Forbidden[\s\S]*toolgate\.sandbox\.network/);
    expect(other.stdout).not.toContain(BODY);
    const off = await sandbox("off", line);
    expect(off.status).not.toBe(0);
    expect(off.stdout).not.toContain(BODY);
    const plain = await new Promise<string>((resolve) => {
      const c = spawn("/bin/bash", ["-c", line]);
      let out = "";
      c.stdout.on("data", (b: Buffer) => (out += b.toString()));
      c.on("close", () => resolve(out));
    });
    expect(plain).toBe(`${BODY}\n`);
  });
});
