import { afterAll, describe, expect, it } from "vitest";
import type { Judged } from "../../../src/core/resolvedCall";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

/** The gate's decision carries the sandbox grant the runner builds the sandbox from (core/sandbox/commandGrant.ts). */
const t = tempTree({ "ws/src/a.ts": "a", "ws/package.json": "{}" });
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const grantOf = (d: Judged) => d.resolved?.command?.grant;
const cmd = (command: string) => call("execute_command", { command });

describe("the grant on a command decision", () => {
  it("a safe read is read-only; an allow-listed project command may write; no hosts without a list", async () => {
    const g = await gateWith({ "toolgate.commands.allow": ["npm test"] }, roots);
    const ls = g.decide(cmd("ls -la src"));
    expect(ls.decision).toBe("allow");
    expect(grantOf(ls)).toEqual({ kind: "read-only", hosts: [] });
    const test = g.decide(cmd("npm test"));
    expect(test.decision).toBe("allow");
    expect(grantOf(test)).toEqual({ kind: "workspace-write", hosts: [] });
  });

  it("a clicked (asked) command carries its grant too: what the card shows is what runs", async () => {
    const g = await gateWith({}, roots);
    const d = g.decide(cmd("touch made.txt"));
    expect(d.decision).toBe("ask");
    expect(grantOf(d)?.kind).toBe("workspace-write");
  });

  it("plan mode: read-only, whatever the line", async () => {
    const g = await gateWith({ "toolgate.mode": "plan" }, roots);
    expect(grantOf(g.decide(cmd("ls")))?.kind).toBe("read-only");
    expect(grantOf(g.decide(cmd("cat src/a.ts | wc -l")))?.kind).toBe("read-only");
  });

  it("hosts: only those the line names and the list holds; `ls` gets none however long the list", async () => {
    const g = await gateWith({ "toolgate.mode": "auto" }, roots, {
      sandboxNetwork: ["registry.npmjs.org", "*.github.com"],
    });
    expect(grantOf(g.decide(cmd("ls")))?.hosts).toEqual([]);
    expect(grantOf(g.decide(cmd("npm install")))).toEqual({ kind: "workspace-write", hosts: ["registry.npmjs.org"] });
    expect(grantOf(g.decide(cmd("curl -fsS https://api.github.com/zen")))?.hosts).toEqual(["*.github.com"]);
  });
});
