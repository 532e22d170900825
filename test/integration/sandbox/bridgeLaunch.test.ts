import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import { PERL_BRIDGE_SOURCE, PYTHON_BRIDGE } from "../../../src/agent/sandbox/bridgeProgram";
import { baseBwrapArgs } from "../../../src/core/sandbox/bwrapArgs";
import { BRIDGE_FAILED_MESSAGE, bridgeCommand, type NetworkBridge } from "../../../src/core/sandbox/networkBridge";
import { probe } from "./sandboxHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";

/**
 * The start of each bridge that replaces itself with the command (Perl, Python), inside a bare bubblewrap
 * sandbox (own network and PID namespaces, so the relay it leaves behind dies with the sandbox): it runs the
 * command as itself, whatever happens to the listener, and leaves nothing of its own start-up behind.
 */

const BRIDGES: readonly { readonly name: string; readonly bridge: NetworkBridge }[] = [
  {
    name: "Perl",
    bridge: { hostSocket: "/nonexistent.sock", interpreter: "/usr/bin/perl", source: PERL_BRIDGE_SOURCE, execs: true },
  },
  { name: "Python", bridge: { hostSocket: "/nonexistent.sock", ...PYTHON_BRIDGE } },
];

function inSandbox(argv: readonly string[], env: Record<string, string> = {}) {
  return spawnSync(probe.executable!, [...baseBwrapArgs(probe.disableUserns), "--tmpfs", "/tmp", "--", ...argv], {
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", ...env },
    timeout: 20_000,
  });
}

for (const { name, bridge } of BRIDGES)
  sandboxDescribe(probe, !existsSync(bridge.interpreter))(`the ${name} bridge's start (real bubblewrap)`, () => {
    const saved = bridge.saves ?? "PERL5OPT";
    it("listens before the command starts, then runs it as itself: arguments, status and its saved variable intact", () => {
      const line = `exec 3<>/dev/tcp/127.0.0.1/48131 && echo "listening|$1|$2|\${${saved}-unset}|$$"; exit 9`;
      const r = inSandbox(
        bridgeCommand(bridge, "/x.sock", "/bin/bash", ["--norc", "-c", line, "-", "a b", "'c'"], "-Mno_such"),
      );
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(/^listening\|a b\|'c'\|-Mno_such\|\d+\n$/);
      expect(r.status).toBe(9);
      const unset = inSandbox(
        bridgeCommand(bridge, "/x.sock", "/bin/bash", ["--norc", "-c", `echo "\${${saved}-unset}"`], undefined),
      );
      expect(unset.stdout).toBe("unset\n");
    });

    it("leaves no ignored signal behind in the command", () => {
      const r = inSandbox(
        bridgeCommand(bridge, "/x.sock", "/bin/bash", [
          "--norc",
          "-c",
          "trap -p; grep -E '^Sig(Ign|Blk)' /proc/$$/status",
        ]),
      );
      expect(r.stdout).toMatch(/SigIgn:\s+0+\n/);
      expect(r.status).toBe(0);
    });

    it("when the port cannot be bound it says so and still runs the command, with no network", () => {
      const inner = bridgeCommand(bridge, "/x.sock", "/bin/echo", ["ran"]);
      const r = inSandbox(bridgeCommand(bridge, "/x.sock", inner[0]!, inner.slice(1)));
      expect(r.stdout).toBe("ran\n");
      expect(r.stderr).toBe(`${BRIDGE_FAILED_MESSAGE}\n`);
      expect(r.status).toBe(0);
    });

    it("a command that cannot be run fails like a shell's (127), with the reason", () => {
      const r = inSandbox(bridgeCommand(bridge, "/x.sock", "/nonexistent/cmd", []));
      expect(r.status).toBe(127);
      expect(r.stderr).toMatch(/cannot run \/nonexistent\/cmd/);
    });
  });
