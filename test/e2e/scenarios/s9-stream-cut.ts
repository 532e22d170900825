/**
 * Scenario 9: the connection is cut in the middle of a write_to_file block (with edits
 * auto-approved, so a complete block would run at once): nothing is written and the row shows the call was
 * interrupted.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { modelSettings, startModel, startTask } from "../harness/agent";
import { openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

export const streamCut: Scenario = {
  id: "s9",
  title: "a stream cut in the middle of write_to_file: nothing is written and the row shows it was interrupted",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "editFiles auto-approve on (so a complete block would run at once)",
    "the model streams write_to_file and the connection is cut after 12 of 30 argument chunks",
    "the row shows the block as interrupted; cut.txt does not exist",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      {
        steps: [
          {
            tool: "write_to_file",
            args: { path: "cut.txt", content: "y".repeat(3000) },
            chunks: 30,
            cutAfterChunk: 12,
          },
        ],
      },
      // Whatever the runtime does next (a retry, or the next turn), it must not be this block.
      { steps: [{ tool: "attempt_completion", args: { result: "Stopped." } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Stopped." } }] },
    ]);
    const session = await ctx.openSession({
      settings: { ...modelSettings(ctx, model), "toolgate.autoApprove.actions": { editFiles: true } },
    });
    const frame = await openPanel(session);
    await startTask(frame, "Write cut.txt.");
    const row = frame.locator(".tg-row.tg-tool", { hasText: "cut.txt" }).first();
    await row.waitFor({ timeout: 30_000 });
    await row
      .getByText(/Interrupted/)
      .first()
      .waitFor({ timeout: 30_000 });
    ctx.log(
      `the row says: "${(
        await row
          .getByText(/Interrupted/)
          .first()
          .innerText()
      ).trim()}"`,
    );
    await session.page.waitForTimeout(2000); // give a wrongly executed write time to land
    assert.equal(existsSync(join(session.workspace, "cut.txt")), false, "the cut block was written");
    ctx.log("cut.txt does not exist");
    for (const shot of await session.screenshotBothThemes("stream-cut")) ctx.log(`screenshot: ${shot}`);
  },
};
