import { describe, expect, it } from "vitest";
import {
  MAX_REQUEST_HEAD,
  MAX_REQUEST_LINE,
  notListedMessage,
  parseProxyRequest,
  proxyRefusal,
} from "../../../src/core/sandbox/proxyRequest";

const parse = (s: string) => parseProxyRequest(Buffer.from(s, "latin1"));

describe("proxy request parsing", () => {
  it("reads a CONNECT target, and keeps bytes sent after the head", () => {
    const r = parse("CONNECT allowed.test:443 HTTP/1.1\r\nHost: allowed.test:443\r\n\r\n\x16\x03\x01");
    expect(r.kind).toBe("connect");
    if (r.kind !== "connect") return;
    expect([r.host, r.port]).toEqual(["allowed.test", 443]);
    expect(r.rest.toString("latin1")).toBe("\x16\x03\x01");
  });

  it("CONNECT to a longer name is that longer name (the allow-list then refuses it)", () => {
    const r = parse("CONNECT allowed.test.evil.com:443 HTTP/1.1\r\n\r\n");
    expect(r).toMatchObject({ kind: "connect", host: "allowed.test.evil.com", port: 443 });
  });

  it("canonicalises case and a trailing dot; reads IPv6 literals", () => {
    expect(parse("CONNECT ALLOWED.Test.:443 HTTP/1.1\r\n\r\n")).toMatchObject({ host: "allowed.test" });
    expect(parse("CONNECT [::1]:8443 HTTP/1.1\r\n\r\n")).toMatchObject({ kind: "connect", host: "::1", port: 8443 });
    expect(parse("GET http://[2001:db8::1]/x HTTP/1.1\r\n\r\n")).toMatchObject({ host: "2001:db8::1", port: 80 });
  });

  it("refuses userinfo, in CONNECT and in absolute URIs", () => {
    for (const line of [
      "CONNECT allowed.test@evil.com:443 HTTP/1.1",
      "GET http://allowed.test@evil.com/ HTTP/1.1",
      "GET http://user:pw@allowed.test/ HTTP/1.1",
    ])
      expect(parse(`${line}\r\n\r\n`), line).toMatchObject({ kind: "bad", status: 400 });
  });

  it("refuses CONNECT without a port, with a bad port, or to a malformed host", () => {
    for (const target of [
      "allowed.test",
      "allowed.test:",
      "allowed.test:0",
      "allowed.test:65536",
      "allowed.test:+443",
      "allowed.test:443:443",
      "allowed%2etest:443",
      "[::1:443",
      "[fe80::1%25eth0]:443",
      "allowed.test:443/x",
    ])
      expect(parse(`CONNECT ${target} HTTP/1.1\r\n\r\n`), target).toMatchObject({ kind: "bad" });
  });

  it("rewrites a plain-HTTP absolute URI to origin form and drops proxy and hop-by-hop headers", () => {
    const r = parse(
      "GET http://Allowed.Test:8080/a/b?q=1 HTTP/1.1\r\nHost: allowed.test:8080\r\nProxy-Authorization: Basic eA==\r\n" +
        "Proxy-Connection: keep-alive\r\nConnection: keep-alive\r\nAccept: */*\r\n\r\nBODY",
    );
    expect(r.kind).toBe("http");
    if (r.kind !== "http") return;
    expect([r.host, r.port]).toEqual(["allowed.test", 8080]);
    expect(r.head).toBe("GET /a/b?q=1 HTTP/1.1\r\nHost: allowed.test:8080\r\nAccept: */*\r\nConnection: close\r\n\r\n");
    expect(r.rest.toString()).toBe("BODY");
    expect(parse("GET http://allowed.test HTTP/1.1\r\n\r\n")).toMatchObject({ kind: "http", port: 80 });
    const q = parse("GET http://allowed.test?x HTTP/1.0\r\n\r\n");
    expect(q.kind === "http" && q.head.startsWith("GET /?x HTTP/1.0\r\n")).toBe(true);
  });

  it("refuses origin-form requests, other schemes and malformed request lines", () => {
    for (const line of [
      "GET / HTTP/1.1",
      "GET https://allowed.test/ HTTP/1.1",
      "GET ftp://allowed.test/ HTTP/1.1",
      "GET  http://allowed.test/ HTTP/1.1",
      "GET http://allowed.test/ HTTP/2.0",
      "get http://allowed.test/ HTTP/1.1",
      "GET http://allowed.test/a b HTTP/1.1",
      "GET http://allowed.test/#frag HTTP/1.1",
      "GET http://allowed.test/\x7f HTTP/1.1",
    ])
      expect(parse(`${line}\r\n\r\n`), JSON.stringify(line)).toMatchObject({ kind: "bad", status: 400 });
  });

  it("refuses bare line feeds, bare carriage returns and NUL bytes (no smuggled second request line)", () => {
    expect(parse("CONNECT allowed.test:443 HTTP/1.1\nHost: x\r\n\r\n")).toMatchObject({ kind: "bad" });
    expect(parse("CONNECT allowed.test:443 HTTP/1.1\r\nX: a\rb\r\n\r\n")).toMatchObject({ kind: "bad" });
    expect(parse("CONNECT allowed.test:443 HTTP/1.1\r\nX: a\0\r\n\r\n")).toMatchObject({ kind: "bad" });
    expect(parse("CONNECT allowed.test:443 HTTP/1.1\r\nBad Header: x\r\n\r\n")).toMatchObject({ kind: "bad" });
  });

  it("waits for the whole head, and refuses absurdly long lines and heads instead of buffering them", () => {
    expect(parse("CONNECT allowed.test:443 HTTP/1.1\r\nHost: a")).toEqual({ kind: "incomplete" });
    expect(parse(`GET http://allowed.test/${"a".repeat(MAX_REQUEST_LINE)}`)).toMatchObject({
      kind: "bad",
      status: 431,
    });
    expect(parse(`CONNECT ${"a".repeat(MAX_REQUEST_LINE + 10)}:443 HTTP/1.1\r\n\r\n`)).toMatchObject({ status: 431 });
    expect(parse(`CONNECT allowed.test:443 HTTP/1.1\r\nX: ${"a".repeat(MAX_REQUEST_HEAD)}`)).toMatchObject({
      status: 431,
    });
    expect(parse(`CONNECT ${"a.".repeat(200)}test:443 HTTP/1.1\r\n\r\n`)).toMatchObject({ kind: "bad" });
  });
});

describe("proxy refusals", () => {
  it("is a complete HTTP response whose body names the setting and the allowed entries", () => {
    const text = proxyRefusal(403, notListedMessage("evil.com", 443, ["allowed.test", "*.example.com"]));
    const [head, body] = text.split("\r\n\r\n") as [string, string];
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(body).toContain("evil.com:443 is not in `toolgate.sandbox.network` (allowed: allowed.test, *.example.com)");
    expect(notListedMessage("::1", 443, [])).toContain("[::1]:443");
  });
});
