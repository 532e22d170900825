/**
 * Scenario 8: with maxRequests = 2, two auto-approved reads run, the third shows "Reset and
 * continue"; continuing runs it and the task goes on.
 */
import assert from "node:assert/strict";
import { modelSettings, requestsAtLeast, startModel, startTask, toolResultsIn } from "../harness/agent";
import { openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

export const maxRequests: Scenario = {
  id: "s8",
  title: "maxRequests = 2: the third request shows 'reset and continue'; continuing works",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "settings: toolgate.autoApprove.maxRequests = 2; reads auto-approved (default)",
    "the model makes three read_file calls: two run, the third shows 'Reset and continue'",
    "click it: the third runs (its content reaches the model) and the task goes on",
  ],
  run: async (ctx) => {
    const read = (p: string) => ({ steps: [{ tool: "read_file", args: { path: p } }] });
    const model = await startModel(ctx, [
      read("a.txt"),
      read("b.txt"),
      read("c.txt"),
      { steps: [{ tool: "attempt_completion", args: { result: "Read all three." } }] },
    ]);
    const session = await ctx.openSession({
      settings: { ...modelSettings(ctx, model), "toolgate.autoApprove.maxRequests": 2 },
      files: { "a.txt": "alpha\n", "b.txt": "bravo\n", "c.txt": "charlie\n" },
    });
    const frame = await openPanel(session);
    await startTask(frame, "Read the three files.");
    await requestsAtLeast(model, 3);
    const reset = frame.getByRole("button", { name: "Reset and continue" });
    await reset.waitFor({ timeout: 30_000 });
    assert.equal(model.requests.length, 3, "the third read must wait for the person");
    ctx.log("two reads ran; the third shows 'Reset and continue'");
    for (const shot of await session.screenshotBothThemes("limit")) ctx.log(`screenshot: ${shot}`);
    await reset.click();
    await requestsAtLeast(model, 4);
    assert.ok(
      toolResultsIn(model, 3).some((r) => r.includes("charlie")),
      "the third read's content did not reach the model",
    );
    ctx.log("after 'Reset and continue' the third read ran and the task went on");
  },
};
