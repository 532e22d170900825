/**
 * How often the gate asks for what agents really run, under each preset (DESIGN, Settings): the share of the
 * project's everyday sample (inside the workspace) and of its boundary sample that ask (a deny counts as an
 * ask: nothing ran). Printed, never asserted. The sandbox and checkpoints are taken as working, as on a Linux
 * machine with bubblewrap and checkpoints on.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { BashAnalyzer } from "../src/core/commands/analyzer";
import { Gate } from "../src/core/gate";
import { parseSettings } from "../src/core/settingsModel";
import { BOUNDARY, EVERYDAY } from "./autonomyCommands";

const PRESETS: readonly { readonly name: string; readonly actions: Record<string, boolean> }[] = [
  { name: "defaults (ask before changes)", actions: {} },
  { name: "reads + edits + safe commands", actions: { readFiles: true, editFiles: true, executeSafeCommands: true } },
  {
    name: "sandboxed autonomy",
    actions: { readFiles: true, editFiles: true, executeSafeCommands: true, executeInSandbox: true },
  },
  {
    name: "run all commands (for comparison)",
    actions: { readFiles: true, editFiles: true, executeSafeCommands: true, executeAllCommands: true },
  },
];

const FILES: Record<string, string> = {
  "package.json": '{"scripts":{"test":"vitest","build":"tsc","lint":"eslint ."}}',
  "src/a.ts": "export const a = 1;\n",
  "tools/gen.js": "",
  "tools/gen.py": "",
  "scripts/build.sh": "#!/bin/sh\n",
  Makefile: "all:\n\ttrue\n",
  ".env": "SECRET=1\n",
  ".toolgateignore": ".env\n",
  "test/a.test.ts": "",
  "tests/test_a.py": "",
};

async function main(): Promise<void> {
  const dist = process.env.TOOLGATE_DIST;
  if (!dist) throw new Error("TOOLGATE_DIST is not set (run through `npm run bench autonomy`)");
  const ws = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-bench-autonomy-")));
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    writeFileSync(path.join(ws, rel), text);
  }
  const analyzer = new BashAnalyzer({ grammarDir: dist });
  console.log(`everyday: ${EVERYDAY.length} commands inside the workspace; boundary: ${BOUNDARY.length}`);
  for (const p of PRESETS) {
    const parsed = parseSettings({ "toolgate.autoApprove.actions": p.actions });
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    const gate = await Gate.create({
      settings: parsed.value,
      roots: [ws],
      analyzer,
      sandbox: { available: true },
      checkpoints: { available: true },
    });
    const asks = (list: readonly string[]) =>
      list.filter((command) => gate.decide({ tool: "execute_command", params: { command } }).decision !== "allow");
    const everyday = asks(EVERYDAY);
    const boundary = asks(BOUNDARY);
    const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(0)}%`.padStart(4);
    console.log(
      `  ${p.name.padEnd(36)} everyday asks ${pct(everyday.length, EVERYDAY.length)} (${everyday.length}/${EVERYDAY.length})   boundary asks ${pct(boundary.length, BOUNDARY.length)} (${boundary.length}/${BOUNDARY.length})`,
    );
    if (p.name === "sandboxed autonomy") {
      if (everyday.length > 0) console.log(`    everyday that still ask: ${everyday.join(" | ")}`);
      const ran = BOUNDARY.filter((c) => !boundary.includes(c));
      if (ran.length > 0) console.log(`    boundary that run unasked: ${ran.join(" | ")}`);
    }
  }
  rmSync(ws, { recursive: true, force: true });
}

void main();
