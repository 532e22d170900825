import { describe, expect, it } from "vitest";
import {
  canonicalHost,
  compileAllowList,
  matchAllowList,
  proxyEnvironment,
} from "../../../src/core/sandbox/networkAllowList";

const list = compileAllowList(["allowed.test", "*.example.com", "registry.local:8443", "127.0.0.1:9000"]);
const allowed = (host: string, port = 443) => {
  const h = canonicalHost(host);
  return h !== undefined && matchAllowList(list, h, port).allowed;
};

describe("host allow-list matching", () => {
  it("an exact entry matches that host on any port, explicitly", () => {
    expect(matchAllowList(list, "allowed.test", 443)).toEqual({ allowed: true, explicit: true, entry: "allowed.test" });
    expect(allowed("allowed.test", 80)).toBe(true);
    expect(allowed("allowed.test", 22)).toBe(true);
  });

  it("is case-insensitive and ignores one trailing dot", () => {
    expect(allowed("ALLOWED.TEST")).toBe(true);
    expect(allowed("Allowed.Test.")).toBe(true);
    expect(allowed("allowed.test..")).toBe(false);
  });

  it("does not match a longer name that merely starts or ends like an entry", () => {
    expect(allowed("allowed.test.evil.com")).toBe(false);
    expect(allowed("evilallowed.test")).toBe(false);
    expect(allowed("x.allowed.test")).toBe(false);
    expect(allowed("allowed.tes")).toBe(false);
  });

  it("`*.example.com` matches names below it, not example.com itself, and not as an explicit entry", () => {
    expect(matchAllowList(list, "api.example.com", 443)).toEqual({
      allowed: true,
      explicit: false,
      entry: "*.example.com",
    });
    expect(allowed("a.b.example.com")).toBe(true);
    expect(allowed("example.com")).toBe(false);
    expect(allowed("badexample.com")).toBe(false);
    expect(allowed("example.com.evil.net")).toBe(false);
  });

  it("`host:port` allows that port only", () => {
    expect(allowed("registry.local", 8443)).toBe(true);
    expect(allowed("registry.local", 443)).toBe(false);
    expect(allowed("127.0.0.1", 9000)).toBe(true);
    expect(allowed("127.0.0.1", 9001)).toBe(false);
  });

  it("never lets a wildcard match an IP literal; other address spellings match nothing", () => {
    const wild = compileAllowList(["*.0.1", "*.1"]);
    expect(wild).toEqual([]);
    const w = compileAllowList(["*.example.com"]);
    expect(matchAllowList(w, "127.0.0.1", 80).allowed).toBe(false);
    for (const spelling of ["2130706433", "127.1", "0x7f.0.0.1", "0177.0.0.1"])
      expect(canonicalHost(spelling)).toBeUndefined();
    expect(allowed("[::1]", 9000)).toBe(false);
  });

  it("accepts IPv6 literals only in brackets, canonical, without a zone", () => {
    expect(canonicalHost("[::1]")).toBe("::1");
    expect(canonicalHost("[FE80::1]")).toBe("fe80::1");
    expect(canonicalHost("[fe80::1%eth0]")).toBeUndefined();
    expect(canonicalHost("[::1")).toBeUndefined();
    expect(canonicalHost("::1]")).toBeUndefined();
  });

  it("rejects what is not a host name: userinfo, escapes, spaces, empty labels, over-long names", () => {
    for (const bad of [
      "allowed.test@evil.com",
      "evil.com#allowed.test",
      "allowed%2etest",
      "allowed.test evil",
      "a..b",
      ".allowed.test",
      "",
      "-a.test",
      `${"a".repeat(64)}.test`,
      Array(130).fill("a").join("."),
    ])
      expect(canonicalHost(bad), bad).toBeUndefined();
  });
});

describe("proxy environment", () => {
  it("points every proxy variable at the bridge and keeps the sandbox's own loopback direct", () => {
    const env = proxyEnvironment(48131, compileAllowList(["allowed.test"]));
    for (const k of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"])
      expect(env[k]).toBe("http://127.0.0.1:48131");
    expect(env.NO_PROXY).toBe("localhost,127.0.0.1,::1");
    expect(env.no_proxy).toBe(env.NO_PROXY);
  });

  it("a listed loopback host goes through the proxy (it means the host machine's)", () => {
    const env = proxyEnvironment(48131, compileAllowList(["127.0.0.1:9000", "localhost"]));
    expect(env.NO_PROXY).toBe("::1");
  });
});
