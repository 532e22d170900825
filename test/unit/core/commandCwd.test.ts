import { afterAll, describe, expect, it } from "vitest";
import { gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

/**
 * A command's own working directory (`CallFacts.cwd`, a hook's agent after the model's `cd`): its relative paths
 * and `cd` resolve from there, while the workspace, its ignore file and its rules stay the roots'.
 */
const t = tempTree({
  "ws/.env": "SECRET=1",
  "ws/.toolgateignore": ".env\n",
  "ws/sub/k": "k",
  "ws/sub/ok.txt": "ok",
  "ws/src/a.ts": "a",
  "elsewhere/x": "x",
});
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const at = (cwd: string, command: string) => ({ tool: "execute_command", params: { command }, facts: { cwd } });

describe("a command judged from the directory it runs in", () => {
  it("after `cd sub`, `cat k` is `sub/k`: a Read(sub/**) deny holds", async () => {
    const g = await gateWith({ "toolgate.permissions.deny": ["Read(sub/**)"] }, roots);
    expect(g.decide(at(t.path("ws/sub"), "cat k"))).toMatchObject({ decision: "deny" });
    expect(g.decide(at(t.path("ws/sub"), "cat k")).rule).toMatch(/Read\(sub\/\*\*\)/);
    // From the root the same words name a file that does not exist and no rule covers.
    expect(g.decide(at(t.path("ws"), "cat k")).decision).toBe("allow");
    expect(g.decide(at(t.path("ws"), "cat src/a.ts")).decision).toBe("allow");
  });

  it("`cat ../.env` from sub is the root's ignored `.env`", async () => {
    const g = await gateWith({}, roots);
    const d = g.decide(at(t.path("ws/sub"), "cat ../.env"));
    expect(d.decision).toBe("deny");
    expect(d.rule).toMatch(/^ignoreFile/);
    expect(g.decide(at(t.path("ws/sub"), "cat ok.txt")).decision).toBe("allow");
  });

  it("a cwd outside the workspace makes `ls` an outside read; the resolved call runs there", async () => {
    const g = await gateWith({}, roots);
    const outside = g.decide(at(t.path("elsewhere"), "ls"));
    expect(outside.decision).toBe("ask");
    expect(outside.reason).toMatch(/outside the workspace/);
    const inside = g.decide(at(t.path("ws/sub"), "ls"));
    expect(inside.decision).toBe("allow");
    expect(inside.resolved?.command?.cwd).toBe(t.path("ws/sub"));
    // Without the fact the command starts in the first root, as before.
    expect(g.decide({ tool: "execute_command", params: { command: "ls" } }).resolved?.command?.cwd).toBe(t.path("ws"));
  });

  it("a relative or malformed cwd is refused, never read as the root", async () => {
    const g = await gateWith({}, roots);
    expect(g.decide(at("sub", "ls"))).toMatchObject({ decision: "deny", rule: "validate:cwd" });
    expect(g.decide(at(`${t.path("ws")}\0x`, "ls"))).toMatchObject({ decision: "deny", rule: "validate:cwd" });
  });
});
