import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

/** File rules bind the paths a command reads or writes, found through the same rule index as file tools. */
const t = tempTree({ "ws/src/a.ts": "a", "ws/src/b.ts": "b", "ws/pkg7/deep/secret42.ts": "s" });
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const cmd = (command: string) => call("execute_command", { command });
/** Many rules, as a person collects them; the ones that matter sit in the middle of the lists. */
const filler = (tool: string) => Array.from({ length: 60 }, (_, i) => `${tool}(pkg${i % 10}/**/other${i}*.ts)`);

describe("file rules and command paths", () => {
  it("a deny rule beats an ask rule for the same path, whatever their order in the lists", async () => {
    const g = await gateWith(
      {
        "toolgate.permissions.ask": [...filler("Read"), "Read(src/**)"],
        "toolgate.permissions.deny": [...filler("Read"), "Read(src/b.ts)", ...filler("Edit")],
      },
      roots,
    );
    expect(g.decide(cmd("cat src/b.ts"))).toMatchObject({ decision: "deny", rule: "permissions.deny: Read(src/b.ts)" });
    expect(g.decide(cmd("cat src/a.ts"))).toMatchObject({ decision: "ask", rule: "permissions.ask: Read(src/**)" });
    expect(g.decide(cmd("cat src/a.ts src/b.ts")).decision).toBe("deny");
  });

  it("a rule deep in a long list binds a write through a redirect", async () => {
    const g = await gateWith(
      {
        "toolgate.autoApprove.actions": { editFiles: true },
        "toolgate.permissions.deny": [...filler("Edit"), "Edit(pkg7/**/secret4*.ts)", ...filler("Edit")],
      },
      roots,
    );
    expect(g.decide(cmd("echo x > pkg7/deep/secret42.ts")).decision).toBe("deny");
    expect(g.decide(cmd("echo x > pkg7/deep/other.ts")).decision).not.toBe("deny");
  });
});
