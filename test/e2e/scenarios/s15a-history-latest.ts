/**
 * Scenario 15a: without a reload, the task just finished is cleared with "New task", then opened again from the
 * top of Recent tasks; a reply continues it (the model's request holds the earlier conversation and the
 * reply), it does not start a new task that holds only the reply.
 */
import assert from "node:assert/strict";
import {
  acceptCompletion,
  assertContinued,
  modelSettings,
  requestsAtLeast,
  startModel,
  startTask,
} from "../harness/agent";
import { openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

const TASK = "Say hello.";
const REPLY = "Now say goodbye.";

export const historyLatest: Scenario = {
  id: "s15a",
  title: "the task just cleared with New task, reopened from the top of Recent tasks, continues on a reply",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "a task runs to its completion and the person accepts it",
    "New task clears it: the empty chat lists it first under Recent tasks",
    "opening that entry shows it from history, with the input offering to continue it",
    `replying '${REPLY}' continues it: the model's next request holds the earlier conversation plus the reply`,
  ],
  timeoutMs: 180_000,
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ tool: "attempt_completion", args: { result: "Hello." } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Goodbye." } }] },
    ]);
    const session = await ctx.openSession({ settings: modelSettings(ctx, model), files: { "a.txt": "a\n" } });
    const frame = await openPanel(session);
    await startTask(frame, TASK);
    await acceptCompletion(frame, model);
    await requestsAtLeast(model, 1);

    await frame.getByRole("button", { name: "New task" }).click();
    const recent = frame.getByRole("navigation", { name: "Recent tasks" });
    await recent.waitFor({ timeout: 30_000 });
    const top = recent.getByRole("button", { name: new RegExp(TASK.replace(/\./g, "\\.")) }).first();
    await top.waitFor({ timeout: 10_000 });
    const first = recent.locator(".tg-history-item").first();
    assert.equal(await first.innerText(), await top.innerText(), "the task just finished is not the top entry");
    await top.click();

    await frame.getByText(/Opened from your task history/).waitFor({ timeout: 30_000 });
    const input = frame.getByRole("textbox", { name: "Task" });
    assert.equal(
      await input.getAttribute("placeholder"),
      "Reply to continue this task…",
      "the input does not offer to continue the reopened task",
    );
    for (const shot of await session.screenshotBothThemes("history-latest-reopened")) ctx.log(`screenshot: ${shot}`);

    await input.click();
    await input.fill(REPLY);
    await input.press("Enter");
    await requestsAtLeast(model, 2);
    const after = JSON.stringify(model.requests[1]!.body.messages);
    assert.ok(
      after.includes(TASK),
      `the reply started a new task: the model's request holds no earlier turn: ${after}`,
    );
    assertContinued(model, 1, REPLY);
    ctx.log("the model's next request: the earlier conversation, then the reply");
    await frame.getByRole("button", { name: "Accept result" }).waitFor({ timeout: 60_000 });
  },
};
