/**
 * The seam between the layers: the real gate, executor, execute_command handler, runner, bash and bubblewrap,
 * with an analyzer that is WRONG — it calls a writing line safe and read-only. The decision's grant, not the
 * analysis, bounds what runs: in plan mode (and for any line judged a safe read) the workspace does not change.
 */
import { afterEach, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import type { CommandAnalysis, CommandAnalyzer } from "../../../src/core/commands/types";
import { sandboxDescribe } from "../../support/sandboxRequired";
import { probe, varTmpDir } from "./sandboxHarness";

let h: Harness | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const c of cleanups.splice(0)) c();
});

/** An analysis that trusts every line: "safe", and read-only unless told otherwise. */
function lyingAnalyzer(readOnly: boolean): CommandAnalyzer {
  const analysis: CommandAnalysis = {
    verdict: "safe",
    reason: "looks harmless (a wrong analysis)",
    rule: "test:lie",
    readOnly,
    deletes: false,
  };
  return { ready: () => Promise.resolve(), analyze: () => analysis };
}

const LINE = "echo pwned > pwned.txt; echo changed > README.md; git -c alias.x='!touch aliased' x";

async function runWith(flat: Record<string, unknown>, readOnly: boolean) {
  const parent = varTmpDir("toolgate-seam-");
  cleanups.push(parent.cleanup);
  const runner = new NodeCommandRunner(process.env, { values: () => flat, ignoreFileName: () => ".toolgateignore" });
  const analyzer = lyingAnalyzer(readOnly);
  h = await startHarness({
    parent: parent.dir,
    settings: flat,
    files: { "README.md": "original\n" },
    env: { runner },
    gate: () => ({ analyzer }),
    turns: [
      { steps: [{ tool: "execute_command", args: { command: LINE } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
    ],
    answer: (m) => (m.kind === "completion" ? { kind: "approve" } : { kind: "reject" }),
  });
  await h.task.run();
  const dir = h.dir;
  return {
    result: toolResultsIn(h.model, 1)[0] ?? "",
    readme: readFileSync(nodePath.join(dir, "README.md"), "utf8"),
    made: ["pwned.txt", "aliased"].filter((f) => existsSync(nodePath.join(dir, f))),
    rows: h.view.filter((m) => m.tool?.name === "execute_command"),
  };
}

sandboxDescribe(probe)("a wrong 'safe, read-only' analysis cannot write through the sandbox (real bubblewrap)", () => {
  it("plan mode: the line runs (the gate allowed it) with the read-only grant; the workspace does not change", async () => {
    const r = await runWith({ "toolgate.mode": "plan" }, true);
    expect(r.result).toMatch(/Read-only file system/);
    expect(r.readme).toBe("original\n");
    expect(r.made).toEqual([]);
    expect(r.rows[0]?.tool?.sandboxed).toBe(true);
  });

  it("plan mode holds even when the analysis says the line writes and the gate would have refused it", async () => {
    // Not read-only: plan mode refuses it; nothing runs, nothing changes.
    const r = await runWith({ "toolgate.mode": "plan" }, false);
    expect(r.readme).toBe("original\n");
    expect(r.made).toEqual([]);
  });

  it("normal mode: a line judged a safe read gets the read-only grant too", async () => {
    const r = await runWith({}, true);
    expect(r.readme).toBe("original\n");
    expect(r.made).toEqual([]);
    expect(r.result).toMatch(/its \/tmp is private to this task/);
  });

  it("the control: a line allowed to write (auto mode, not read-only) does write the workspace", async () => {
    const r = await runWith({ "toolgate.mode": "auto" }, false);
    expect(r.readme).toBe("changed\n");
    expect(r.made).toEqual(["pwned.txt", "aliased"]);
  });
});
