/**
 * Scenario 11: the scripted model overwrites a file (auto-approved); its row offers "Restore files to before
 * this step". Clicking it opens the diff of what restoring undoes — the agent's text on the left (now), the
 * original on the right (before the step) — and a modal that lists the file; confirming brings the file back.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { modelSettings, requestsAtLeast, startModel, startTask } from "../harness/agent";
import { eventually, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

const ORIGINAL = "the original line\n";
const AGENT = "the agent's replacement\n";

export const checkpointRestore: Scenario = {
  id: "s11",
  title: "restore from a row: the diff of what is undone opens first, a modal asks, the file is back",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "settings: editFiles auto-approved; the workspace has notes.txt",
    "the model overwrites notes.txt; its row offers 'Restore files to before this step'",
    "click it: a diff editor for notes.txt shows the agent's text (now) against the original (before the step)",
    "a modal asks, naming notes.txt; click 'Restore files'",
    "notes.txt holds the original text again",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ tool: "write_to_file", args: { path: "notes.txt", content: AGENT }, chunks: 3 }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Rewrote notes.txt." } }] },
    ]);
    const session = await ctx.openSession({
      settings: {
        ...modelSettings(ctx, model),
        "toolgate.autoApprove.actions": {
          readFiles: true,
          readFilesExternally: false,
          editFiles: true,
          editFilesExternally: false,
          executeSafeCommands: true,
          executeAllCommands: false,
          useMcp: false,
          webFetch: false,
        },
      },
      files: { "notes.txt": ORIGINAL },
    });
    const target = join(session.workspace, "notes.txt");
    const frame = await openPanel(session);
    await startTask(frame, "Rewrite notes.txt.");
    await requestsAtLeast(model, 2);
    assert.equal(readFileSync(target, "utf8"), AGENT, "the agent's write did not land");

    const row = frame.locator(".tg-row.tg-tool", { hasText: "notes.txt" }).first();
    const restore = row.getByRole("button", { name: "Restore files to before this step" });
    await restore.waitFor({ timeout: 30_000 });
    const rowText = (await row.innerText()).replace(/\s+/g, " ");
    ctx.softCheck(/Checkpoint 1 · 1 file changed/.test(rowText), `the row does not name its checkpoint: "${rowText}"`);
    const all = frame.getByRole("button", { name: "Show all changes of this task" });
    ctx.softCheck((await all.count()) === 1, "the task offers no 'Show all changes of this task'");
    ctx.log(`the row offers the restore: "${rowText.slice(0, 160)}"`);
    for (const shot of await session.screenshotBothThemes("restore-row")) ctx.log(`screenshot: ${shot}`);

    await restore.click();
    const page = session.page;
    const diff = page.locator(".monaco-diff-editor").first();
    await diff.waitFor({ timeout: 20_000 });
    const tab = page.locator(".tabs-container .tab.active").first();
    const tabText = (await tab.innerText()).replace(/\s+/g, " ");
    ctx.softCheck(/notes\.txt/.test(tabText), `the diff's tab does not name notes.txt: "${tabText}"`);
    const left = await eventually("the diff's left side shows the agent's text", async () => {
      const t = await diff.locator(".editor.original .view-lines").innerText();
      return t.includes("replacement") ? t : undefined;
    });
    const right = (await diff.locator(".editor.modified .view-lines").innerText()).replace(/\u00a0/g, " ");
    ctx.softCheck(right.includes("the original line"), `the diff's right side shows "${right}", not the original`);
    ctx.log(`diff ${tabText}: now "${left.trim()}" → after restore "${right.trim()}"`);

    const dialog = page.locator(".monaco-dialog-box");
    await dialog.waitFor({ timeout: 20_000 });
    const dialogText = (await dialog.innerText()).replace(/\s+/g, " ");
    ctx.softCheck(/notes\.txt/.test(dialogText), `the modal does not list notes.txt: "${dialogText}"`);
    ctx.softCheck(/before step 1/.test(dialogText), `the modal does not name the step: "${dialogText}"`);
    ctx.log(`modal: "${dialogText.slice(0, 240)}"`);
    ctx.log(`screenshot: ${await session.screenshot("restore-confirm")}`);
    assert.equal(readFileSync(target, "utf8"), AGENT, "the file changed before the person confirmed");

    await dialog.getByRole("button", { name: "Restore files" }).click();
    await eventually("notes.txt holds the original text again", () =>
      readFileSync(target, "utf8") === ORIGINAL ? true : undefined,
    );
    ctx.log("confirmed: notes.txt holds the original text again");
    const toast = page.locator(".notifications-toasts", { hasText: "Restored 1 file(s) to before step 1." });
    await toast.first().waitFor({ timeout: 10_000 });
    for (const shot of await session.screenshotBothThemes("restored")) ctx.log(`screenshot: ${shot}`);
  },
};
