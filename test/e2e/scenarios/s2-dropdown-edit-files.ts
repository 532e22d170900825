/**
 * Scenario 2 (the agent part; the settings round trip is s2a): after ticking "Edit files" in the
 * auto-approve dropdown, the model's next write runs without an ask — a say row, the file on disk — and the
 * user settings.json shows the new value.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { approvalCard, modelSettings, requestsAtLeast, startModel, startTask } from "../harness/agent";
import { eventually, openAutoApproveMenu, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

export const dropdownEditFiles: Scenario = {
  id: "s2",
  title: "auto-approve dropdown 'edit files' on: the next write runs with a say row, no ask; settings.json shows it",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "open the auto-approve dropdown; tick 'Edit files'",
    "user settings.json has toolgate.autoApprove.actions.editFiles = true",
    "the model writes a file: no ask, a say row, the file is on disk",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      {
        steps: [{ tool: "write_to_file", args: { path: "auto.txt", content: "written without asking\n" }, chunks: 4 }],
      },
      { steps: [{ tool: "attempt_completion", args: { result: "Done." } }] },
    ]);
    const session = await ctx.openSession({ settings: modelSettings(ctx, model) });
    const frame = await openPanel(session);
    const menu = await openAutoApproveMenu(frame);
    await menu.getByRole("checkbox", { name: /^Edit files in the workspace/ }).click();
    await eventually("editFiles = true in user settings.json", () => {
      const a = session.readUserSettings()["toolgate.autoApprove.actions"] as Record<string, unknown> | undefined;
      return a?.editFiles === true ? true : undefined;
    });
    ctx.log("ticked 'Edit files': settings.json has editFiles = true");
    await frame
      .getByRole("button", { name: /^Auto-approve:/ })
      .first()
      .click(); // close the dropdown

    await startTask(frame, "Write auto.txt.");
    await requestsAtLeast(model, 2); // the write ran and its result went back without anyone answering
    const target = join(session.workspace, "auto.txt");
    assert.equal(
      existsSync(target) && readFileSync(target, "utf8"),
      "written without asking\n",
      "auto.txt was not written",
    );
    assert.equal(await approvalCard(frame).count(), 0, "no approval card expected");
    const row = frame.locator(".tg-row.tg-tool", { hasText: "auto.txt" }).first();
    await row.waitFor({ timeout: 10_000 });
    assert.equal(await row.evaluate((el) => el.classList.contains("tg-ask")), false, "the write's row is an ask row");
    ctx.log("the write ran without an ask (say row) and auto.txt is on disk");
    ctx.log(`screenshot: ${await session.screenshot("auto-write")}`);
  },
};
