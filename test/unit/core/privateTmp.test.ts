import { afterAll, describe, expect, it } from "vitest";
import { symlinkSync, unlinkSync } from "node:fs";
import { homedir } from "node:os";
import type { GateOptions } from "../../../src/core/gate";
import type { Judged } from "../../../src/core/resolvedCall";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

/**
 * A sandboxed line's `/tmp` is the task's private one (bubblewrap binds it at `/tmp`): its writes and reads there
 * are inside its grant. The same line where it would run outside the sandbox (no sandbox, the model's request
 * to leave it) and the file tools see the host's `/tmp`, so they still ask as outside the workspace.
 */
const t = tempTree({ "ws/a.txt": "a", "ws/.env": "S=1", "ws/.toolgateignore": ".env\n" });
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const cmd = (command: string, extra: Record<string, unknown> = {}) => call("execute_command", { command, ...extra });

const SANDBOXED = {
  "toolgate.autoApprove.actions": {
    readFiles: true,
    editFiles: true,
    executeSafeCommands: true,
    executeInSandbox: true,
  },
};
const PRIVATE: Partial<GateOptions> = {
  sandbox: { available: true, privateTmp: true },
  checkpoints: { available: true },
};
const summary = (d: Judged) => ({ decision: d.decision, rule: d.rule });

const WRITES = [
  "echo hi > /tmp/x && cat /tmp/x",
  "cp a.txt /tmp/",
  "cp a.txt /tmp/copy.txt && wc -l /tmp/copy.txt",
  "mktemp",
  "tar -C /tmp -cf /tmp/a.tar a.txt",
  "cd /tmp && echo hi > x",
  "ls /tmp",
];

describe("a sandboxed line's /tmp is the task's private one", () => {
  it("writes and reads under /tmp run without a card in the sandboxed tier, and are noted on the call", async () => {
    const g = await gateWith(SANDBOXED, roots, PRIVATE);
    for (const line of WRITES) {
      const d = g.decide(cmd(line));
      expect(d.decision, `${line}: ${d.reason}`).toBe("allow");
      expect(d.danger, line).toBeUndefined();
    }
    const d = g.decide(cmd("echo hi > /tmp/x")).resolved?.command;
    expect(d?.privateTmp).toEqual(["/tmp/x"]);
    // Outside the sandbox it would write the host's /tmp: no "Run outside the sandbox" for it.
    expect(d?.mayRunOutside).toBe(false);
    expect(g.decide(cmd("cat a.txt")).resolved?.command?.mayRunOutside).toBe(true);
  });

  it("the same lines ask where the sandbox has no private /tmp, is unavailable, or the model asks to leave it", async () => {
    const variants: Partial<GateOptions>[] = [
      { sandbox: { available: true }, checkpoints: { available: true } },
      { sandbox: { available: false, reason: "no bwrap", privateTmp: true }, checkpoints: { available: true } },
      {},
    ];
    for (const v of variants) {
      const g = await gateWith(SANDBOXED, roots, v);
      for (const line of ["echo hi > /tmp/x", "cp a.txt /tmp/", "cat /tmp/x"]) {
        const d = g.decide(cmd(line));
        expect(d.decision, `${JSON.stringify(v)} ${line}`).toBe("ask");
        expect(d.resolved?.command?.privateTmp).toBeUndefined();
      }
    }
    const g = await gateWith(SANDBOXED, roots, PRIVATE);
    const leave = g.decide(cmd("echo hi > /tmp/x", { sandbox: false, reason: "needs the host /tmp" }));
    expect(summary(leave)).toEqual({ decision: "ask", rule: "sandbox:leave" });
    expect(leave.danger).toContain("outside");
  });

  it("file tools see the host's /tmp: they still ask as outside the workspace", async () => {
    const g = await gateWith(SANDBOXED, roots, PRIVATE);
    expect(g.decide(call("write_to_file", { path: "/tmp/x", content: "hi" })).decision).toBe("ask");
    expect(g.decide(call("read_file", { path: "/tmp/x" })).decision).toBe("ask");
  });

  it("a write there is still a write: with editing not auto-approved it asks", async () => {
    const g = await gateWith(
      { "toolgate.autoApprove.actions": { readFiles: true, executeSafeCommands: true } },
      roots,
      PRIVATE,
    );
    const d = g.decide(cmd("echo hi > /tmp/x"));
    expect(summary(d)).toEqual({ decision: "ask", rule: "autoApprove.editFiles" });
    expect(d.reason).toMatch(/private \/tmp/);
    // A read is a read: allowed as reading inside the grant.
    expect(g.decide(cmd("cat /tmp/x")).decision).toBe("allow");
  });

  it("only a plain spelling under /tmp counts: `..`, the home, and the rest of the file system are outside", async () => {
    const g = await gateWith(SANDBOXED, roots, PRIVATE);
    for (const line of [
      "echo hi > /tmp/../var/tmp/x",
      "echo hi > /tmp/a/../../var/tmp/x",
      "echo hi > /tmp/a/../x",
      "echo hi > /var/tmp/x",
      "echo hi > /tmpx",
      `echo hi > ${homedir()}/x`,
    ]) {
      const d = g.decide(cmd(line));
      expect(d.decision, `${line}: ${d.reason}`).toBe("ask");
    }
  });

  it("a deny rule on /tmp still binds, and a host /tmp link to an ignored file is still refused (stricter, never looser)", async () => {
    const denied = await gateWith({ ...SANDBOXED, "toolgate.permissions.deny": ["Edit(/tmp/**)"] }, roots, PRIVATE);
    expect(denied.decide(cmd("echo hi > /tmp/x")).decision).toBe("deny");
    // A host link at the path is not what the sandbox shows, but judging it stricter is never looser.
    const hostLink = `/tmp/toolgate-privtmp-${process.pid}`;
    symlinkSync(t.path("ws/.env"), hostLink);
    try {
      const g = await gateWith(SANDBOXED, roots, PRIVATE);
      expect(g.decide(cmd(`cat ${hostLink}`)).decision).toBe("deny");
    } finally {
      unlinkSync(hostLink);
    }
  });
});
