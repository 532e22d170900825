/**
 * A protected path can be written without naming it: by copying or moving a directory that holds one, into a
 * directory, or by replacing the protected directory itself. With real cp and mv the lines below plant
 * `.vscode/settings.json`; the gate asks about each under allow rules for them (editing auto-approved),
 * and copies of trees without protected paths still run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const tree = {
  "w/docs/example/.vscode/settings.json": '{"task.allowAutomaticTasks":"on"}',
  "w/docs/readme.md": "d",
  "w/src/a.ts": "a",
};
const settings = {
  "toolgate.commands.allow": ["cp", "mv", "ln", "mkdir"],
  "toolgate.autoApprove.actions": { readFiles: true, editFiles: true, executeSafeCommands: true },
};
const planting = [
  "cp -r docs/example/.vscode .",
  "cp -r docs/example/. .",
  "cp -a docs/example/.vscode ./",
  "mv docs/example/.vscode .vscode",
  "mv docs/example/.vscode .",
  "cp docs/example/.vscode/settings.json .vscode/",
  "cp -t .vscode docs/example/.vscode/settings.json",
  "ln -s docs/example/.vscode .vscode",
];

describe("protected paths planted by copies and moves", () => {
  const t = tempTree(tree);
  afterAll(() => t.cleanup());

  it("each line really plants .vscode/settings.json (real cp, mv, ln)", () => {
    for (const line of planting) {
      const dir = mkdtempSync(join(tmpdir(), "toolgate-plant-"));
      try {
        execFileSync("cp", ["-r", `${t.path("w")}/.`, dir]);
        // `cp … .vscode/` and `-t .vscode` need the directory; the others create it.
        if (line.includes(".vscode/ ") || line.endsWith(".vscode/") || line.includes("-t .vscode"))
          execFileSync("mkdir", [join(dir, ".vscode")]);
        execFileSync("bash", ["-c", line], { cwd: dir });
        expect({ line, planted: existsSync(join(dir, ".vscode/settings.json")) }).toEqual({ line, planted: true });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it("the gate asks about each, and copies without protected paths run", async () => {
    const g = await gateWith(settings, [t.path("w")]);
    for (const line of planting) {
      const d = g.decide(call("execute_command", { command: line }));
      expect({ line, d: d.decision }).toEqual({ line, d: "ask" });
      expect(d.reason).toMatch(/protected path/);
    }
    for (const line of ["cp -r src src2", "cp -r docs/readme.md src/", "mv src/a.ts src/b.ts", "mkdir -p src/lib"])
      expect({ line, d: g.decide(call("execute_command", { command: line })).decision }).toEqual({ line, d: "allow" });
  });
});
