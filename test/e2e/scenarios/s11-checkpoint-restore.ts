/**
 * Scenario 11: the scripted model creates one file and overwrites another (auto-approved). "Show all changes of
 * this task" opens both in one multi-file diff. The overwrite's row offers "Restore files to before this
 * step": it opens the diff of what restoring undoes — the agent's text on the left (now), the original on the
 * right (before the step) — and a modal that lists the file; confirming brings the file back, and only it.
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
    "the model creates extra.txt, then overwrites notes.txt; its row offers 'Restore files to before this step'",
    "'Show all changes of this task' opens one diff naming both files",
    "click it: a diff editor for notes.txt shows the agent's text (now) against the original (before the step)",
    "a modal asks, naming notes.txt; click 'Restore files'",
    "notes.txt holds the original text again; extra.txt (an earlier step) is still there",
    "the row says 'Restored to before this step' and offers 'Undo restore' instead of the restore",
    "'Undo restore': a modal asks; confirming brings the agent's text back, and the row says 'Restore undone'",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ tool: "write_to_file", args: { path: "extra.txt", content: "an extra file\n" } }] },
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
    await requestsAtLeast(model, 3);
    assert.equal(readFileSync(target, "utf8"), AGENT, "the agent's write did not land");

    const row = frame.locator(".tg-row.tg-tool", { hasText: "notes.txt" }).first();
    const restore = row.getByRole("button", { name: "Restore files to before this step" });
    await restore.waitFor({ timeout: 30_000 });
    // The changed-file count arrives once the step's after-checkpoint is recorded (in the background).
    const rowText = await eventually("the row names its checkpoint and what it changed", async () => {
      const t = (await row.innerText()).replace(/\s+/g, " ");
      return /Checkpoint 2 · 1 file changed/.test(t) ? t : undefined;
    }).catch(async () => (await row.innerText()).replace(/\s+/g, " "));
    ctx.softCheck(/Checkpoint 2 · 1 file changed/.test(rowText), `the row does not name its checkpoint: "${rowText}"`);
    ctx.log(`the row offers the restore: "${rowText.slice(0, 160)}"`);
    for (const shot of await session.screenshotBothThemes("restore-row")) ctx.log(`screenshot: ${shot}`);

    const page = session.page;
    await frame.getByRole("button", { name: "Show all changes of this task" }).click();
    const allTab = page.locator(".tabs-container .tab", { hasText: "All changes of this task" }).first();
    await allTab.waitFor({ timeout: 20_000 });
    const allText = await eventually("the task's diff names both files", async () => {
      const t = await page.locator(".editor-group-container.active .editor-container").first().innerText();
      return t.includes("extra.txt") && t.includes("notes.txt") ? t : undefined;
    }).catch(() => "");
    ctx.softCheck(allText !== "", "the diff of all changes does not show extra.txt and notes.txt");
    ctx.log("'Show all changes of this task' opened one diff with extra.txt and notes.txt");
    ctx.log(`screenshot: ${await session.screenshot("task-changes")}`);

    await restore.click();
    const tab = page.locator(".tabs-container .tab.active", { hasText: "before step 2" }).first();
    await tab.waitFor({ timeout: 20_000 });
    const tabText = (await tab.innerText()).replace(/\s+/g, " ");
    const diff = page.locator(".editor-group-container.active .editor-container .monaco-diff-editor").first();
    await diff.waitFor({ timeout: 20_000 });
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
    ctx.softCheck(/before step 2/.test(dialogText), `the modal does not name the step: "${dialogText}"`);
    ctx.softCheck(!/extra\.txt/.test(dialogText), `the modal would undo the earlier step too: "${dialogText}"`);
    ctx.log(`modal: "${dialogText.slice(0, 240)}"`);
    ctx.log(`screenshot: ${await session.screenshot("restore-confirm")}`);
    assert.equal(readFileSync(target, "utf8"), AGENT, "the file changed before the person confirmed");

    await dialog.getByRole("button", { name: "Restore files" }).click();
    await eventually("notes.txt holds the original text again", () =>
      readFileSync(target, "utf8") === ORIGINAL ? true : undefined,
    );
    ctx.log("confirmed: notes.txt holds the original text again");
    assert.equal(readFileSync(join(session.workspace, "extra.txt"), "utf8"), "an extra file\n", "extra.txt was undone");
    const toast = page.locator(".notifications-toasts", { hasText: "Restored 1 file(s) to before step 2." });
    await toast.first().waitFor({ timeout: 10_000 });

    // The row itself says so, and offers the undo in place of the restore.
    const undo = row.getByRole("button", { name: "Undo restore" });
    await undo.waitFor({ timeout: 20_000 });
    const restoredText = (await row.getByRole("status").innerText()).replace(/\s+/g, " ").trim();
    ctx.softCheck(
      /^Restored to before this step/.test(restoredText),
      `the row does not say it was restored: "${restoredText}"`,
    );
    ctx.softCheck((await restore.count()) === 0, "the restored row still offers the same restore");
    ctx.log(`the row says: "${restoredText}" and offers 'Undo restore'`);
    for (const shot of await session.screenshotBothThemes("restored")) ctx.log(`screenshot: ${shot}`);

    await undo.click();
    const undoDialog = page.locator(".monaco-dialog-box", { hasText: "Undo the restore" });
    await undoDialog.waitFor({ timeout: 20_000 });
    const undoText = (await undoDialog.innerText()).replace(/\s+/g, " ");
    ctx.softCheck(/notes\.txt/.test(undoText), `the undo's modal does not list notes.txt: "${undoText}"`);
    ctx.log(`undo modal: "${undoText.slice(0, 200)}"`);
    assert.equal(readFileSync(target, "utf8"), ORIGINAL, "the undo changed the file before the person confirmed");
    await undoDialog.getByRole("button", { name: "Undo restore" }).click();
    await eventually("notes.txt holds the agent's text again", () =>
      readFileSync(target, "utf8") === AGENT ? true : undefined,
    );
    const undoneText = await eventually("the row says the restore was undone", async () => {
      const t = (await row.innerText()).replace(/\s+/g, " ");
      return t.includes("Restore undone") ? t : undefined;
    });
    // The row leaves "Reviewing the restore…" once the host has answered the undo; the offer comes back then.
    const offered = await eventually("the row to offer the restore again", async () =>
      (await row.getByRole("button", { name: "Restore files to before this step" }).count()) === 1 ? true : undefined,
    ).catch(() => false);
    ctx.softCheck(
      offered,
      `after the undo the row does not offer the restore again: "${(await row.innerText()).replace(/\s+/g, " ").slice(0, 160)}" (first seen: "${undoneText.slice(0, 160)}")`,
    );
    ctx.log("undone: notes.txt holds the agent's text again; the row says 'Restore undone' and offers the restore");
    for (const shot of await session.screenshotBothThemes("restore-undone")) ctx.log(`screenshot: ${shot}`);
  },
};
