/**
 * `Gate.commandContext` hands out the context the gate's own command analysis uses: its lists, its first root
 * as the working directory, and its `CommandPathGate`, begun afresh like a decision (the file system seen anew).
 */
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

describe("Gate.commandContext", () => {
  const t = tempTree({ "w/src/a.ts": "a", "w/.env": "SECRET=1", "w/.toolgateignore": ".env\n" });
  afterAll(() => t.cleanup());
  const flat = { "toolgate.commands.allow": ["npm test"], "toolgate.permissions.deny": ["Bash(curl)"] };

  it("starts in the first root, or in the directory given, with the gate's lists", async () => {
    const g = await gateWith(flat, [t.path("w")], { deferAnalyzer: true });
    const ctx = g.commandContext();
    expect(ctx.cwd).toBe(t.path("w"));
    expect(ctx.allow).toEqual(["npm test"]);
    expect(ctx.deny).toEqual(["curl"]);
    expect(g.commandContext(t.path("w/src/../src")).cwd).toBe(t.path("w/src"));
  });

  it("judges paths as the gate's decisions do", async () => {
    const g = await gateWith(flat, [t.path("w")], { deferAnalyzer: true });
    const paths = g.commandContext().paths;
    expect(paths.check(".env", t.path("w"), "read")).toMatchObject({ ok: false, rule: "ignoreFile: .toolgateignore" });
    expect(paths.check("src/a.ts", t.path("w"), "read")).toEqual({ ok: true });
    expect(paths.check(".git/hooks/x", t.path("w"), "write")).toMatchObject({
      ok: false,
      rule: "protected: **/.git/**",
    });
    expect(paths.check("../x", t.path("w"), "read")).toMatchObject({ ok: false, rule: "path:external-read" });
    await g.prepare(call("execute_command", { command: "cat .env" }));
    expect(g.decide(call("execute_command", { command: "cat .env" })).decision).toBe("deny");
  });

  it("sees the file system afresh each time, as each decision does", async () => {
    const g = await gateWith(flat, [t.path("w")], { deferAnalyzer: true });
    expect(g.commandContext().paths.check("src", t.path("w"), "read")).toEqual({ ok: true });
    writeFileSync(t.path("w/src/.env"), "SECRET=2");
    expect(g.commandContext().paths.check("src", t.path("w"), "read")).toMatchObject({
      ok: false,
      rule: "ignoreFile: .toolgateignore",
    });
  });
});
