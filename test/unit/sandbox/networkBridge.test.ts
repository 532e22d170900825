import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { bwrapArgs } from "../../../src/core/sandbox/bwrapArgs";
import {
  BRIDGE_FAILED_MESSAGE,
  bridgeCommand,
  bridgeSocketTarget,
  SANDBOX_PROXY_PORT,
  savedVariable,
  type NetworkBridge,
} from "../../../src/core/sandbox/networkBridge";
import { PYTHON_BRIDGE } from "../../../src/agent/sandbox/bridgeProgram";
import { classifySandboxFailure } from "../../../src/core/sandbox/sandboxFailure";
import type { SandboxPolicy } from "../../../src/core/sandbox/sandboxPolicy";
import { seatbeltProfile } from "../../../src/core/sandbox/seatbeltProfile";

const policy: SandboxPolicy = {
  writableRoots: ["/tmp/ws"],
  readOnly: ["/tmp/ws/.git/config"],
  hiddenFiles: ["/tmp/ws/.env"],
  hiddenDirs: [],
  privateDirs: ["/tmp", "/run"],
  secretFiles: [],
  secretDirs: ["/home/u/.ssh"],
  network: "off",
};
const bridge: NetworkBridge = {
  hostSocket: "/tmp/toolgate-proxy-x/proxy.sock",
  interpreter: "/usr/bin/node",
  source: "1",
  execs: false,
};
const opts = { emptyFile: "/tmp/e/empty", emptyDir: "/tmp/e/empty.d", disableUserns: true, cwd: "/tmp/ws" };

describe("bubblewrap arguments with a host allow-list", () => {
  it("keeps --unshare-net and binds the proxy's socket after every other mount, into the private /run", () => {
    const target = bridgeSocketTarget(policy.privateDirs)!;
    expect(target).toBe("/run/toolgate-proxy.sock");
    const args = bwrapArgs(policy, { ...opts, bridge: { bridge, target } });
    expect(args).toContain("--unshare-net");
    const bind = args.lastIndexOf("--ro-bind");
    expect(args.slice(bind, bind + 3)).toEqual(["--ro-bind", bridge.hostSocket, target]);
    expect(args.slice(bind + 3)).toEqual(["--chdir", "/tmp/ws"]);
    expect(args.indexOf("/run")).toBeLessThan(bind);
    expect(bwrapArgs(policy, opts)).not.toContain(bridge.hostSocket);
  });

  it("puts the socket in /tmp when /run is not private, and nowhere when neither is", () => {
    expect(bridgeSocketTarget(["/tmp"])).toBe("/tmp/toolgate-proxy.sock");
    expect(bridgeSocketTarget([])).toBeUndefined();
  });

  it("runs the command after the launcher, with its arguments untouched", () => {
    const argv = bridgeCommand(bridge, "/run/toolgate-proxy.sock", "/bin/bash", ["-c", "echo 'a b' \"$x\""]);
    expect(argv.slice(0, 4)).toEqual(["/bin/bash", "--noprofile", "--norc", "-c"]);
    expect(argv.slice(5)).toEqual([
      "toolgate-net",
      "/usr/bin/node",
      "1",
      "/run/toolgate-proxy.sock",
      String(SANDBOX_PROXY_PORT),
      "/bin/bash",
      "-c",
      "echo 'a b' \"$x\"",
    ]);
  });

  it("Python's bridge gets its switches, -c, and the saved LC_CTYPE", () => {
    const py: NetworkBridge = { ...bridge, ...PYTHON_BRIDGE, source: "S" };
    expect(savedVariable(py)).toBe("LC_CTYPE");
    expect(bridgeCommand(py, "/run/s.sock", "/bin/bash", ["-c", "x"], "C")).toEqual([
      "/usr/bin/python3",
      "-I",
      "-S",
      "-B",
      "-c",
      "S",
      "/run/s.sock",
      String(SANDBOX_PROXY_PORT),
      "=C",
      "/bin/bash",
      "-c",
      "x",
    ]);
  });

  it("a bridge that execs gets the command directly, with the saved PERL5OPT", () => {
    const perl: NetworkBridge = { ...bridge, interpreter: "/usr/bin/perl", source: "P", execs: true };
    expect(bridgeCommand(perl, "/run/s.sock", "/bin/bash", ["-c", "x"], "-Mstrict")).toEqual([
      "/usr/bin/perl",
      "-e",
      "P",
      "/run/s.sock",
      String(SANDBOX_PROXY_PORT),
      "=-Mstrict",
      "/bin/bash",
      "-c",
      "x",
    ]);
    expect(bridgeCommand(perl, "/run/s.sock", "/bin/true", [])[5]).toBe("");
    expect(bridgeCommand(perl, "/run/s.sock", "/bin/true", [], "")[5]).toBe("=");
  });

  it("the launcher waits for the bridge's ready line, runs the command either way, and leaks no variables", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolgate-launcher-"));
    const fakeNode = path.join(dir, "node");
    writeFileSync(fakeNode, '#!/bin/sh\n[ "$1" = -e ] && [ "$2" = SRC ] && [ "$4" = 48131 ] && echo ready\n', {
      mode: 0o755,
    });
    const fakeReady: NetworkBridge = { ...bridge, interpreter: fakeNode, source: "SRC" };
    const line = 'echo "args:$1|$2 vars:${n-}${s-}${k-}${p-}${r-}"; exit 7';
    const ready = bridgeCommand(fakeReady, "/x", "/bin/bash", ["-c", line, "-", "one", "two words"]);
    const ok = spawnSync(ready[0]!, ready.slice(1), { encoding: "utf8" });
    rmSync(dir, { recursive: true, force: true });
    expect(ok.stdout).toBe("args:one|two words vars:\n");
    expect(ok.stderr).toBe("");
    expect(ok.status).toBe(7);
    const broken: NetworkBridge = { ...bridge, interpreter: "/nonexistent/node" };
    const argv = bridgeCommand(broken, "/x", "/bin/echo", ["ran"]);
    const failed = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8" });
    expect(failed.stdout).toBe("ran\n");
    expect(failed.stderr).toBe(`${BRIDGE_FAILED_MESSAGE}\n`);
  });
});

describe("Seatbelt profile with a host allow-list", () => {
  const base = { scratchDir: "/private/var/folders/x/scratch", ignoreFileName: ".toolgateignore" };

  it("allows outbound connections to the proxy's localhost port only, after the network deny", () => {
    const text = seatbeltProfile(policy, { ...base, proxyPort: 50123 });
    const lines = text.trimEnd().split("\n");
    const deny = lines.indexOf("(deny network*)");
    expect(deny).toBeGreaterThan(0);
    expect(lines.slice(deny + 1)).toEqual(['(allow network-outbound (remote ip "localhost:50123"))']);
    expect(text.match(/\(allow network/g)).toHaveLength(1);
    expect(text).not.toMatch(/network-bind|network-inbound|remote ip "\*/);
  });

  it("without hosts there is no network allow at all; a bad port is refused", () => {
    expect(seatbeltProfile(policy, base)).not.toMatch(/\(allow network/);
    for (const proxyPort of [0, 70000, 1.5, Number.NaN])
      expect(() => seatbeltProfile(policy, { ...base, proxyPort })).toThrow(/not a port/);
  });
});

describe("failures behind the allow-list proxy", () => {
  const ctx = { hidden: [], networkOff: false, allowedHosts: ["allowed.test", "*.example.com"] };

  it("a refused host is reported as the sandbox's network, naming the list", () => {
    for (const output of [
      "curl: (56) CONNECT tunnel failed, response 403",
      "toolgate sandbox proxy: evil.com:443 is not in `toolgate.sandbox.network`",
      "curl: (7) Failed to connect to 127.0.0.1 port 48131",
    ]) {
      const f = classifySandboxFailure({ exitCode: 1, output }, ctx);
      expect(f, output).toMatchObject({ kind: "blocked", cause: "network" });
      expect(f?.kind === "blocked" && f.message).toContain("allowed.test, *.example.com");
    }
  });

  it("a success, or an unrelated failure, is not", () => {
    expect(classifySandboxFailure({ exitCode: 0, output: "403 Forbidden" }, ctx)).toBeUndefined();
    expect(classifySandboxFailure({ exitCode: 2, output: "syntax error" }, ctx)).toBeUndefined();
  });
});
