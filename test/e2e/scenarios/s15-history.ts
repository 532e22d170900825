/**
 * Scenario 15: a finished task is in the panel's recent tasks after a window reload; opening it shows it as
 * it was, read-only until the person replies; the reply continues it: the model's next request carries the
 * whole earlier conversation and the reply.
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

const TASK = "List the files in the workspace.";
const REPLY = "Now count them, please.";

export const historyReopen: Scenario = {
  id: "s15",
  title: "a finished task is listed after a reload, reopens as it was, and a reply continues it",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "a task runs to its completion and the person accepts it",
    "the window reloads: the empty chat lists the task under Recent tasks",
    "opening it shows its messages and says it came from history; nothing is sent to the model",
    `replying '${REPLY}' continues it: the model's next request holds the earlier conversation plus the reply`,
  ],
  timeoutMs: 240_000,
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ text: "Looking." }, { tool: "list_files", args: { path: "." } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "There are two files." } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Counted: 2." } }] },
    ]);
    const session = await ctx.openSession({
      settings: modelSettings(ctx, model),
      files: { "b.txt": "b\n" },
    });
    let frame = await openPanel(session);
    await startTask(frame, TASK);
    await acceptCompletion(frame, model);
    await requestsAtLeast(model, 2);

    await session.reload();
    frame = await openPanel(session);
    const recent = frame.getByRole("navigation", { name: "Recent tasks" });
    await recent.waitFor({ timeout: 30_000 });
    const item = recent.getByRole("button", { name: new RegExp(TASK.replace(/\./g, "\\.")) });
    await item.waitFor({ timeout: 10_000 });
    ctx.log(`recent tasks: ${(await recent.innerText()).replace(/\s+/g, " ").trim()}`);
    for (const shot of await session.screenshotBothThemes("history-list")) ctx.log(`screenshot: ${shot}`);

    await item.click();
    await frame.getByText(/Opened from your task history/).waitFor({ timeout: 30_000 });
    const feed = frame.getByRole("feed", { name: "Task messages" });
    await feed.getByText("There are two files.").waitFor({ timeout: 10_000 });
    ctx.softCheck((await feed.getByText(TASK).count()) > 0, "the reopened task does not show its own task text");
    const input = frame.getByRole("textbox", { name: "Task" });
    ctx.softCheck(
      (await input.getAttribute("placeholder")) === "Reply to continue this task…",
      `the input offers "${await input.getAttribute("placeholder")}" instead of "Reply to continue this task…"`,
    );
    await session.page.waitForTimeout(1000);
    assert.equal(model.requests.length, 2, "opening a task from history sent something to the model");
    for (const shot of await session.screenshotBothThemes("history-reopened")) ctx.log(`screenshot: ${shot}`);

    await input.click();
    await input.fill(REPLY);
    await input.press("Enter");
    await requestsAtLeast(model, 3);
    assertContinued(model, 2, REPLY);
    ctx.log("the model's next request: the earlier conversation, then the reply");
    await frame.getByRole("button", { name: "Accept result" }).waitFor({ timeout: 60_000 });
    for (const shot of await session.screenshotBothThemes("history-continued")) ctx.log(`screenshot: ${shot}`);
  },
};
