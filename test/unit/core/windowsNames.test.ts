/**
 * Spellings Windows reads as another name (a component's trailing dots and blanks dropped, `name:stream` read
 * as `name`): protected paths and ignored files are matched by the name they reach, so `.git./hooks/x` asks
 * and `.env.` is refused like `.env`, in auto mode too. Ordinary names are untouched.
 */
import { afterAll, describe, expect, it } from "vitest";
import { windowsSpelling } from "../../../src/core/windowsNames";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

describe("windowsSpelling", () => {
  it("drops trailing dots and blanks and stream names per component, and keeps a drive", () => {
    expect(windowsSpelling(".git./hooks/x")).toBe(".git/hooks/x");
    expect(windowsSpelling(".vscode /settings.json")).toBe(".vscode/settings.json");
    expect(windowsSpelling(".vscode/tasks.json::$DATA")).toBe(".vscode/tasks.json");
    expect(windowsSpelling("C:\\w\\.git. \\config")).toBe("C:\\w\\.git\\config");
    expect(windowsSpelling("src/a.b.ts")).toBeUndefined();
    expect(windowsSpelling("C:\\w\\src\\a.ts")).toBeUndefined();
  });
});

describe("the gate matches them as the name they reach", () => {
  const t = tempTree({ "w/src/a.ts": "a", "w/.env": "SECRET=1", "w/.toolgateignore": ".env\n" });
  afterAll(() => t.cleanup());
  const auto = { "toolgate.mode": "auto" };

  it("writes to protected paths ask in auto mode, whatever the spelling", async () => {
    const g = await gateWith(auto, [t.path("w")]);
    for (const path of [
      ".git./hooks/pre-commit",
      ".git /hooks/pre-commit",
      ".vscode /settings.json",
      ".vscode/settings.json.",
      ".vscode/tasks.json::$DATA",
      ".toolgateignore.",
      ".github./workflows/ci.yml",
    ]) {
      const d = g.decide(call("write_to_file", { path, content: "x" }));
      expect({ path, d: d.decision }).toEqual({ path, d: "ask" });
      expect(d.reason).toMatch(/protected path/);
    }
    expect(g.decide(call("write_to_file", { path: "src/b.c.ts", content: "x" })).decision).toBe("allow");
  });

  it("an ignored file is refused by its other spellings, to file tools and commands", async () => {
    const g = await gateWith(auto, [t.path("w")]);
    for (const path of [".env.", ".env ", ".env::$DATA"]) {
      expect({ path, d: g.decide(call("read_file", { path })).decision }).toEqual({ path, d: "deny" });
      const command = `cat '${path}'`;
      expect({ command, d: g.decide(call("execute_command", { command })).decision }).toEqual({ command, d: "deny" });
    }
    expect(g.decide(call("read_file", { path: "src/a.ts" })).decision).toBe("allow");
  });
});
