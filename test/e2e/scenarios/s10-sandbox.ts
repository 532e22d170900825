/**
 * Scenario 10: the OS sandbox around an auto-approved command. With "run all commands" on, the model runs a
 * command that writes outside the workspace: the file is not created, the row says the sandbox stopped it,
 * and the card asks about one re-run labelled "unsandboxed"; rejecting it leaves the sandbox's failure. The
 * auto-approve dropdown shows the sandbox's state.
 */
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import {
  approvalCard,
  answer,
  modelSettings,
  requestsAtLeast,
  startModel,
  startTask,
  toolResultsIn,
} from "../harness/agent";
import { openAutoApproveMenu, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

export const sandboxStopsOutsideWrite: Scenario = {
  id: "s10",
  title: "OS sandbox: an auto-approved write outside the workspace is stopped; one unsandboxed re-run is asked",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "settings: toolgate.autoApprove.actions.executeAllCommands = true",
    "the model runs `touch /var/tmp/…` (outside the workspace; /tmp is private inside the sandbox, /var/tmp is read-only)",
    "the file is not created; the row says 'stopped by the OS sandbox'; the card asks about a re-run, labelled unsandboxed",
    "screenshots light and dark; reject: the model reads the sandbox's failure, the file still does not exist",
    "the auto-approve dropdown shows the sandbox state (screenshot)",
  ],
  run: async (ctx) => {
    const outside = `/var/tmp/toolgate-e2e-s10-${process.pid}-${Date.now()}.txt`;
    rmSync(outside, { force: true });
    const model = await startModel(ctx, [
      { steps: [{ tool: "execute_command", args: { command: `touch ${outside}` } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Done." } }] },
    ]);
    const session = await ctx.openSession({
      settings: { ...modelSettings(ctx, model), "toolgate.autoApprove.actions": { executeAllCommands: true } },
    });
    try {
      const frame = await openPanel(session);
      await startTask(frame, "Touch a file outside the workspace.");
      const card = approvalCard(frame);
      await card.waitFor({ timeout: 30_000 });
      assert.equal(existsSync(outside), false, `${outside} was created: the sandbox did not stop the write`);
      const line = (await card.getByLabel("OS sandbox").textContent()) ?? "";
      assert.equal(line, "runs unsandboxed — once, after the OS sandbox stopped it", `card's sandbox line: ${line}`);
      const why = (await card.locator(".tg-why").textContent()) ?? "";
      assert.match(why, /re-run once, unsandboxed/i, `the card does not say why it asks: ${why}`);
      // The waiting call's row (its command is shown once, in the card) says how the first run ended.
      const row = frame.locator(".tg-row.tg-tool.tg-docked").first();
      await row.getByText(/stopped by the OS sandbox \(read-only file system\)/).waitFor({ timeout: 10_000 });
      ctx.log(`the write was stopped, the row says so, the card asks: ${JSON.stringify(line)}`);
      for (const shot of await session.screenshotBothThemes("sandbox-rerun-ask", () => card.waitFor()))
        ctx.log(`screenshot: ${shot}`);

      await answer(card, "Reject");
      await requestsAtLeast(model, 2);
      const result = toolResultsIn(model, 1).join("\n");
      assert.match(result, /The sandbox blocked a write/, `the model was not told the sandbox blocked it: ${result}`);
      assert.match(result, /did not approve running it again outside the sandbox/);
      assert.equal(existsSync(outside), false, `${outside} exists after the re-run was rejected`);
      ctx.log("re-run rejected: the model read the sandbox's failure, the file does not exist");

      const menu = await openAutoApproveMenu(frame);
      const state = (await menu.getByRole("note", { name: "OS sandbox" }).textContent()) ?? "";
      assert.match(state, /run in the OS sandbox \(bubblewrap, no network\)/, `dropdown's sandbox state: ${state}`);
      ctx.log(`dropdown: ${JSON.stringify(state)}`);
      for (const shot of await session.screenshotBothThemes("sandbox-dropdown", async () => {
        const m = await openAutoApproveMenu(frame);
        await m.getByRole("note", { name: "OS sandbox" }).scrollIntoViewIfNeeded();
      }))
        ctx.log(`screenshot: ${shot}`);
    } finally {
      rmSync(outside, { force: true });
    }
  },
};
