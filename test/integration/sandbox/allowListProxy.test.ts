import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AllowListProxy } from "../../../src/agent/sandbox/allowListProxy";

/** The allow-list proxy alone, over TCP (as Seatbelt uses it) with raw requests, against a local listener. */

let upstream: Server;
let port = 0;
beforeAll(async () => {
  upstream = createServer((req, res) =>
    res.end(`UPSTREAM ${req.method ?? ""} ${req.url ?? ""} auth=${req.headers["proxy-authorization"] ?? "-"}\n`),
  );
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  port = (upstream.address() as AddressInfo).port;
});
afterAll(() => upstream.close());

const proxies: AllowListProxy[] = [];
afterEach(() => {
  for (const p of proxies.splice(0)) p.close();
});

async function proxy(hosts: string[], maxConnections?: number): Promise<AllowListProxy> {
  const p = new AllowListProxy({
    hosts,
    lookup: (h) => Promise.resolve(h.endsWith(".test") ? [{ address: "127.0.0.1", family: 4 }] : []),
    setupTimeoutMs: 2000,
    ...(maxConnections !== undefined ? { maxConnections } : {}),
  });
  proxies.push(p);
  await p.listenTcp();
  return p;
}

/** Sends `data`, collects everything until the proxy closes (or `until` appears). */
function exchange(p: AllowListProxy, data: string | Buffer, until?: string): Promise<{ text: string; sock: Socket }> {
  return new Promise((resolve) => {
    const sock = connect(p.port!, "127.0.0.1");
    let text = "";
    const done = () => resolve({ text, sock });
    sock.on("data", (b: Buffer) => {
      text += b.toString("latin1");
      if (until !== undefined && text.includes(until)) done();
    });
    sock.on("close", done);
    sock.on("error", done);
    sock.write(data);
  });
}

describe("allow-list proxy over the wire", () => {
  it("tunnels CONNECT to a listed host, and forwards plain HTTP in origin form without proxy credentials", async () => {
    const p = await proxy(["allowed.test"]);
    const tunnel = await exchange(
      p,
      `CONNECT allowed.test:${port} HTTP/1.1\r\n\r\nGET /t HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      "UPSTREAM",
    );
    expect(tunnel.text).toMatch(/^HTTP\/1\.1 200 Connection established\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(tunnel.text).toContain("UPSTREAM GET /t");
    tunnel.sock.destroy();
    const plain = await exchange(
      p,
      `GET http://ALLOWED.test.:${port}/p?q HTTP/1.1\r\nHost: allowed.test\r\nProxy-Authorization: Basic eA==\r\n\r\n`,
    );
    expect(plain.text).toContain("UPSTREAM GET /p?q auth=-");
  });

  it("refuses unlisted hosts, lookalikes and userinfo with an error naming the setting, without connecting", async () => {
    const p = await proxy(["allowed.test"]);
    for (const line of [
      `CONNECT allowed.test.evil.test:${port} HTTP/1.1`,
      `CONNECT other.test:${port} HTTP/1.1`,
      `GET http://127.0.0.1:${port}/ HTTP/1.1`,
    ]) {
      const r = await exchange(p, `${line}\r\n\r\n`);
      expect(r.text, line).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(r.text, line).toContain("is not in `toolgate.sandbox.network` (allowed: allowed.test)");
      expect(r.text, line).not.toContain("UPSTREAM");
    }
    const userinfo = await exchange(p, `CONNECT allowed.test@evil.test:${port} HTTP/1.1\r\n\r\n`);
    expect(userinfo.text).toMatch(/^HTTP\/1\.1 400 Bad Request[\s\S]*user name/);
  });

  it("refuses an absurdly long request line as soon as it is too long, without waiting for its end", async () => {
    const p = await proxy(["allowed.test"]);
    const r = await exchange(p, `GET http://allowed.test/${"a".repeat(20000)}`);
    expect(r.text).toMatch(/^HTTP\/1\.1 431 /);
  });

  it("says so when a listed host cannot be reached", async () => {
    const p = await proxy(["allowed.test", "nowhere.example"]);
    const closed = await exchange(p, `CONNECT allowed.test:1 HTTP/1.1\r\n\r\n`);
    expect(closed.text).toMatch(/^HTTP\/1\.1 502 Bad Gateway[\s\S]*cannot connect to allowed\.test:1 \(ECONNREFUSED\)/);
    const unresolved = await exchange(p, `CONNECT nowhere.example:443 HTTP/1.1\r\n\r\n`);
    expect(unresolved.text).toMatch(/^HTTP\/1\.1 502 [\s\S]*cannot resolve nowhere\.example/);
  });

  it("bounds its connections, and closing it ends open tunnels", async () => {
    const p = await proxy(["allowed.test"], 1);
    const first = await exchange(p, `CONNECT allowed.test:${port} HTTP/1.1\r\n\r\n`, "established");
    const second = await exchange(p, `CONNECT allowed.test:${port} HTTP/1.1\r\n\r\n`);
    expect(second.text).toBe("");
    const ended = new Promise<void>((r) => first.sock.once("close", () => r()));
    p.close();
    await ended;
    expect(p.alive).toBe(false);
  });
});
