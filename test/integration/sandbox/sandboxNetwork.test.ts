import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { BRIDGE_SOURCE, PERL_BRIDGE_SOURCE, PYTHON_BRIDGE } from "../../../src/agent/sandbox/bridgeProgram";
import { SandboxSession, type SandboxSessionOptions } from "../../../src/agent/sandbox/sandboxedSpawn";
import { grantOf } from "../../../src/core/sandbox/grant";
import type { SandboxNetwork } from "../../../src/core/sandbox/sandboxSettings";
import { tempTree } from "../../support/workspace";
import { listedGrant, probe, run } from "./sandboxHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";

/**
 * `toolgate.sandbox.network` as a host list, with real bubblewrap, the real proxy and the real in-sandbox
 * bridge. Test names (`allowed.test`, ...) reach a listener on the host's 127.0.0.1 through an injected
 * resolver; outside the sandbox, the same command lines reach it through curl's `--resolve`.
 */

const HAS_CURL = spawnSync("curl", ["--version"]).status === 0;
const BODY = "HELLO-FROM-THE-HOST";
const BIG = 3 * 1024 * 1024;

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader("content-type", "text/plain");
    if (req.method === "POST") {
      let n = 0;
      req.on("data", (b: Buffer) => (n += b.length));
      req.on("end", () => res.end(`RECEIVED ${n}\n`));
      return;
    }
    if (req.url === "/big") return void res.end("z".repeat(BIG));
    res.end(`${BODY} ${req.headers.host ?? "-"} ${req.url ?? ""}\n`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

const sessions: SandboxSession[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.dispose();
  for (const c of cleanups.splice(0)) c();
});

const TEST_NAMES = new Set(["allowed.test", "other.test", "a.wild.test", "public.wild.test"]);
const options: SandboxSessionOptions = {
  proxy: {
    lookup: (host) => {
      if (host === "public.wild.test") return Promise.resolve([{ address: "192.0.2.1", family: 4 }]);
      if (TEST_NAMES.has(host)) return Promise.resolve([{ address: "127.0.0.1", family: 4 }]);
      return Promise.reject(Object.assign(new Error("not found"), { code: "ENOTFOUND" }));
    },
    setupTimeoutMs: 3000,
  },
};

function session(network: SandboxNetwork, o: SandboxSessionOptions = options): SandboxSession {
  const ws = tempTree({ "a.txt": "x\n" });
  cleanups.push(ws.cleanup);
  const s = new SandboxSession({ roots: [ws.dir], ignoreFileName: ".toolgateignore", network }, probe, o);
  sessions.push(s);
  return s;
}

const hosts = (...h: string[]): SandboxNetwork => ({ kind: "hosts", hosts: h });
/** curl that reaches `name` on the test listener outside the sandbox (where the test names do not resolve). */
const curl = (name: string, extra = "") =>
  `curl -sS --max-time 10 ${extra} --resolve ${name}:${port}:127.0.0.1 http://${name}:${port}/path`;

sandboxDescribe(probe, !HAS_CURL)("sandbox network: a host list through the proxy (real bubblewrap)", () => {
  const bridges = [
    { name: "Perl", bridge: { interpreter: "/usr/bin/perl", source: PERL_BRIDGE_SOURCE, execs: true } },
    { name: "Python", bridge: PYTHON_BRIDGE },
    { name: "Node", bridge: { interpreter: process.execPath, source: BRIDGE_SOURCE, execs: false } },
  ].filter((b) => existsSync(b.bridge.interpreter));
  it.each(bridges)(
    "reaches a listed host through the proxy ($name bridge): plain HTTP, a CONNECT tunnel, large bodies both ways",
    async ({ bridge }) => {
      const s = session(hosts("allowed.test"), { ...options, bridge });
      const plain = await run(s, curl("allowed.test"), true);
      expect(plain.out).toContain(`${BODY} allowed.test:${port} /path`);
      expect(plain.status).toBe(0);
      expect(plain.report?.blocked).toBeUndefined();
      const tunnel = await run(s, curl("allowed.test", "--proxytunnel"), true);
      expect(tunnel.out).toContain(`${BODY} allowed.test:${port} /path`);
      expect(tunnel.status).toBe(0);
      const down = `curl -sS --max-time 20 --proxytunnel http://allowed.test:${port}/big | wc -c`;
      expect((await run(s, down, true)).out.trim()).toBe(String(BIG));
      const up = `head -c ${BIG} /dev/zero | curl -sS --max-time 20 --data-binary @- http://allowed.test:${port}/up`;
      expect((await run(s, up, true)).out.trim()).toBe(`RECEIVED ${BIG}`);
      const parallel = `for i in 1 2 3 4 5 6; do ${curl("allowed.test", "--proxytunnel")} & done; wait`;
      expect((await run(s, parallel, true)).out.split(BODY)).toHaveLength(7);
    },
  );

  it("proxy settings inside point at the bridge; the sandbox's own loopback stays direct", async () => {
    const s = session(hosts("allowed.test"));
    const r = await run(s, 'echo "$HTTPS_PROXY|$http_proxy|$NO_PROXY"', true);
    expect(r.out.trim()).toBe("http://127.0.0.1:48131|http://127.0.0.1:48131|localhost,127.0.0.1,::1");
  });

  it("a grant without hosts has no network even while the list names hosts (so `ls` never gets it)", async () => {
    const s = session(hosts("allowed.test"));
    const r = await run(
      s,
      `${curl("allowed.test")}; echo "proxy=[$HTTPS_PROXY]"`,
      true,
      {},
      { grant: grantOf("read-only") },
    );
    expect(r.out).not.toContain(BODY);
    expect(r.out).toContain("proxy=[]");
    // The grant's hosts are bounded by the list too: a host the list lacks is not served.
    const other = await run(s, curl("other.test"), true, {}, { grant: grantOf("workspace-write", ["other.test"]) });
    expect(other.out).not.toContain(BODY);
  });

  it("a host not in the list is refused with a 403 naming the setting (the same command works unsandboxed)", async () => {
    const s = session(hosts("allowed.test"));
    const inside = await run(s, curl("other.test", "-i"), true);
    expect(inside.out).toMatch(/HTTP\/1\.1 403 Forbidden/);
    expect(inside.out).toContain("other.test:");
    expect(inside.out).toContain("toolgate.sandbox.network");
    expect(inside.out).not.toContain(BODY);
    const tunnel = await run(s, curl("other.test", "--proxytunnel"), true);
    expect(tunnel.status).not.toBe(0);
    expect(tunnel.out).not.toContain(BODY);
    expect(tunnel.report?.blocked?.cause).toBe("network");
    expect(tunnel.report?.blocked?.message).toContain("allowed.test");
    const outside = await run(s, curl("other.test"), false);
    expect(outside.status).toBe(0);
    expect(outside.out).toContain(BODY);
  });

  it("a listed host with another port is refused; `host:port` allows that port only", async () => {
    const wrongPort = session(hosts(`allowed.test:${port === 65535 ? 1 : port + 1}`));
    const refused = await run(wrongPort, curl("allowed.test", "--proxytunnel"), true);
    expect(refused.out).not.toContain(BODY);
    const rightPort = session(hosts(`allowed.test:${port}`));
    const ok = await run(rightPort, curl("allowed.test"), true);
    expect(ok.out).toContain(BODY);
  });

  it("a wildcard entry never reaches a private address; an exact entry may", async () => {
    const s = session(hosts("*.wild.test"));
    const inside = await run(s, curl("a.wild.test", "-i"), true);
    expect(inside.out).toMatch(/403 Forbidden/);
    expect(inside.out).toMatch(/private address/);
    expect(inside.out).not.toContain(BODY);
    const outside = await run(s, curl("a.wild.test"), false);
    expect(outside.out).toContain(BODY);
    const exact = session(hosts("a.wild.test"));
    expect((await run(exact, curl("a.wild.test"), true)).out).toContain(BODY);
  });

  it("cannot connect to the host's 127.0.0.1 listener directly, bypassing the proxy", async () => {
    const s = session(hosts("allowed.test", `127.0.0.1:${port}`));
    const attempts = [
      `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${port}/`,
      `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`,
    ];
    for (const line of attempts) {
      const inside = await run(s, line, true);
      expect(inside.status, line).not.toBe(0);
      expect(inside.out, line).not.toContain(BODY);
      const outside = await run(s, line, false);
      expect(outside.status, line).toBe(0);
      expect(outside.out, line).toContain(BODY);
    }
  });

  it('with network "off" nothing reaches the listener, not even through proxy variables', async () => {
    const s = session({ kind: "off" });
    const env = { HTTP_PROXY: `http://127.0.0.1:48131`, http_proxy: `http://127.0.0.1:48131` };
    const lines = [curl("allowed.test"), `curl -sS --max-time 5 http://127.0.0.1:${port}/`];
    for (const line of lines) {
      const inside = await run(s, line, true, env);
      expect(inside.status, line).not.toBe(0);
      expect(inside.out, line).not.toContain(BODY);
      expect(inside.report?.blocked?.cause, line).toBe("network");
      const outside = await run(s, line, false);
      expect(outside.out, line).toContain(BODY);
    }
    const vars = await run(s, 'echo "[${HTTPS_PROXY-unset}]"', true);
    expect(vars.out.trim()).toBe("[unset]");
  });

  it("fails closed: a bridge that cannot start leaves the command with no network, and says so", async () => {
    const s = session(hosts("allowed.test"), {
      ...options,
      bridge: { interpreter: "/nonexistent/node", source: "", execs: false },
    });
    const inside = await run(s, curl("allowed.test"), true);
    expect(inside.out).toMatch(/sandbox network bridge did not start: this command has no network/);
    expect(inside.out).not.toContain(BODY);
    expect(inside.status).not.toBe(0);
    expect((await run(s, curl("allowed.test"), false)).out).toContain(BODY);
  });

  it("fails closed: a proxy that cannot start leaves the command with no network, with a notice", async () => {
    const s = session(hosts("allowed.test"));
    expect((await run(s, curl("allowed.test"), true)).out).toContain(BODY);
    s.dispose();
    // dispose also removed the session's mount targets; a command without hosts makes them again (no proxy).
    s.prepare({ file: "/bin/true", args: [], env: { PATH: "/usr/bin:/bin" }, cwd: s.input.roots[0]! }).cleanup();
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = "/nonexistent-toolgate-tmp";
    let prepared;
    try {
      prepared = s.prepare(
        { file: "/bin/true", args: [], env: { PATH: "/usr/bin:/bin" }, cwd: s.input.roots[0]! },
        { grant: listedGrant(s) },
      );
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(prepared.notice).toMatch(/allow-list proxy could not start .*no network at all/);
    expect(prepared.env.HTTPS_PROXY).toBeUndefined();
    expect(prepared.args).not.toContain("toolgate-net");
    prepared.cleanup();
    const inside = await run(s, curl("allowed.test"), true);
    expect(inside.out).toContain(BODY);
  });
});
