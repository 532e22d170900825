/**
 * The task's private `/tmp` at the seam: the scripted model, the real gate, the execute_command handler, the one
 * command runner with real bash and real bubblewrap. A sandboxed line's writes under `/tmp` are inside its grant:
 * it runs without a card, its later commands see what it wrote, and the host's `/tmp` is untouched. Where it
 * would run unsandboxed, the same line asks (it would write the host's `/tmp`).
 */
import { afterEach, expect, it } from "vitest";
import { existsSync, mkdirSync } from "node:fs";
import * as nodePath from "node:path";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import type { GateOptions } from "../../../src/core/gate";
import { probe, varTmpDir } from "./sandboxHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";

let h: Harness | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const c of cleanups.splice(0)) c();
});

const SANDBOXED = {
  "toolgate.autoApprove.actions": {
    readFiles: true,
    editFiles: true,
    executeSafeCommands: true,
    executeInSandbox: true,
  },
};

async function runTask(commands: readonly string[], gate: Partial<GateOptions>, flat: Record<string, unknown> = {}) {
  const parent = varTmpDir("toolgate-privtmp-");
  cleanups.push(parent.cleanup);
  const settings = { ...SANDBOXED, ...flat };
  const runner = new NodeCommandRunner(process.env, {
    values: () => settings,
    ignoreFileName: () => ".toolgateignore",
  });
  const workspace = nodePath.join(parent.dir, "ws");
  mkdirSync(workspace);
  h = await startHarness({
    parent: workspace,
    settings,
    env: { runner },
    gate: () => ({ checkpoints: { available: true }, ...gate }),
    turns: [
      ...commands.map((command) => ({ steps: [{ tool: "execute_command", args: { command } }] })),
      { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
    ],
    answer: (m) => (m.kind === "completion" ? { kind: "approve" } : { kind: "reject" }),
  });
  await h.task.run();
  return {
    harness: h,
    // The model's request after the last command carries every command's result, in order.
    results: toolResultsIn(h.model, commands.length),
    asks: h.asks.asks.filter((a) => a.message.kind === "tool"),
    rows: h.view.filter((m) => m.tool?.name === "execute_command"),
  };
}

sandboxDescribe(probe)("a sandboxed line's /tmp is the task's private one (real bash, real bubblewrap)", () => {
  it("an auto-approved write to /tmp runs without a card, prints, is seen by the task's next command, not the host", async () => {
    const name = `/tmp/toolgate-seam-${process.pid}-${Date.now()}`;
    const r = await runTask([`echo hi > ${name} && cat ${name}`, `cat ${name}`], {
      sandbox: { available: true, privateTmp: true },
    });
    expect(r.asks).toHaveLength(0);
    expect(r.results[0]).toMatch(/Exit code: 0/);
    expect(r.results[0]).toMatch(/Output:\nhi/);
    expect(r.results[0]).toMatch(/its \/tmp is private to this task/);
    // Kept across the task's sandboxed commands.
    expect(r.results[1]).toMatch(/Output:\nhi/);
    for (const row of r.rows) expect(row.tool?.sandboxed).toBe(true);
    // The host's /tmp never saw it.
    expect(existsSync(name)).toBe(false);
  });

  it("where the line would run unsandboxed, the same write asks (it would land in the host's /tmp)", async () => {
    const name = `/tmp/toolgate-seam-${process.pid}-${Date.now()}-host`;
    const r = await runTask(
      [`echo hi > ${name} && cat ${name}`],
      { sandbox: { available: false, reason: "toolgate.sandbox.mode is off" } },
      { "toolgate.sandbox.mode": "off" },
    );
    expect(r.asks).toHaveLength(1);
    expect(r.asks[0]!.message.tool?.decision?.reason).toMatch(/outside the workspace/);
    expect(r.asks[0]!.message.tool?.decision?.rule).toBe("sandbox:outside-write");
    expect(existsSync(name)).toBe(false);
  });
});
