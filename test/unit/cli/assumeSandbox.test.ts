import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../../support/cli";
import { toolgate } from "./cliProcess";
import { tempTree } from "../../support/workspace";

/** `toolgate check` decides "Run other commands in the sandbox" as the runtime would, or as told. */
const t = tempTree({ "ws/Makefile": "all:\n\ttrue\n" });
let cli = "";
beforeAll(async () => {
  cli = await buildCli();
});
afterAll(() => t.cleanup());

const settings = (flat: Record<string, unknown>) => {
  const p = t.path(`s${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(p, JSON.stringify(flat));
  return p;
};
const SANDBOXED = { "toolgate.autoApprove.actions": { executeSafeCommands: true, executeInSandbox: true } };
const check = (args: string[], command = "make") =>
  toolgate(cli, ["check", "--workspace", t.path("ws"), ...args], {
    input: [{ tool: "execute_command", params: { command } }],
  });

describe("toolgate check --assume-sandbox", () => {
  it("available: a project command runs in the sandbox; a network one asks by name", () => {
    const s = settings(SANDBOXED);
    expect(check(["--settings", s, "--assume-sandbox", "available"]).lines[0]).toMatchObject({
      decision: "allow",
      rule: "autoApprove.executeInSandbox",
    });
    expect(
      check(["--settings", s, "--assume-sandbox", "available"], "curl https://example.com").lines[0],
    ).toMatchObject({ decision: "ask", rule: "sandbox:network" });
  });

  it("unavailable: it asks, saying why", () => {
    const r = check(["--settings", settings(SANDBOXED), "--assume-sandbox", "unavailable"]);
    expect(r.lines[0]).toMatchObject({ decision: "ask", rule: "sandbox:unavailable" });
    expect(String(r.lines[0]!.reason)).toContain("--assume-sandbox unavailable");
  });

  it("checkpoints off: it asks; a bad value is a usage error", () => {
    const off = settings({ ...SANDBOXED, "toolgate.checkpoints.enabled": false });
    expect(check(["--settings", off, "--assume-sandbox", "available"]).lines[0]).toMatchObject({
      decision: "ask",
      rule: "sandbox:no-checkpoint",
    });
    expect(check(["--assume-sandbox", "maybe"]).status).toBe(2);
  });
});
