/**
 * Scenario 5: in plan mode a write is refused without asking and the model is told why; a read
 * still runs and its content reaches the model.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { approvalCard, modelSettings, requestsAtLeast, startModel, startTask, toolResultsIn } from "../harness/agent";
import { openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

export const planMode: Scenario = {
  id: "s5",
  title: "plan mode: a write is refused and the model is told why; reads still run",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "settings: toolgate.mode = plan",
    "the model calls write_to_file: refused without an ask, the file is not on disk, the next request carries the refusal reason",
    "the model calls read_file on a workspace file: it runs and its content reaches the model",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ tool: "write_to_file", args: { path: "notes/plan.txt", content: "should not exist\n" } }] },
      { steps: [{ tool: "read_file", args: { path: "src/a.ts" } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Planned." } }] },
    ]);
    const session = await ctx.openSession({
      settings: { ...modelSettings(ctx, model), "toolgate.mode": "plan" },
      files: { "src/a.ts": "export const answer = 42;\n" },
    });
    const frame = await openPanel(session);
    await startTask(frame, "Plan the change.");
    // Neither call may ask: if one did, the task would wait and the third request would never come.
    await requestsAtLeast(model, 3);
    assert.equal(await approvalCard(frame).count(), 0, "no approval card expected in plan mode for these calls");
    const refused = toolResultsIn(model, 1);
    assert.equal(refused.length, 1);
    assert.match(refused[0]!, /plan/i, `the refusal does not say why (plan mode): ${refused[0]}`);
    assert.equal(existsSync(join(session.workspace, "notes", "plan.txt")), false, "the write ran in plan mode");
    ctx.log(`write refused, the model was told: ${JSON.stringify(refused[0]!.slice(0, 200))}`);
    const read = toolResultsIn(model, 2);
    assert.ok(
      read.some((r) => r.includes("export const answer = 42;")),
      `the read's content did not reach the model: ${read.join(" | ").slice(0, 300)}`,
    );
    ctx.log("read_file ran and its content reached the model");
    ctx.log(`screenshot: ${await session.screenshot("plan-mode")}`);
  },
};
