/**
 * The approval card for edits, at the default side bar width: a new file shows its first lines with "Open
 * diff", the editable review the runtime opens reads as a new file, and "Open diff" shows that review again; it ("new file: NAME" under the file's own folders in the breadcrumb, no
 * internal path, no removed line); a write through a link says where it really lands, outside the workspace, with Reject primary.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answer, approvalCard, modelSettings, requestsAtLeast, startModel, startTask } from "../harness/agent";
import { openPanel } from "../harness/panel";
import type { Scenario, ScenarioContext } from "../harness/scenario";
import type { Session } from "../harness/session";
import { cardShots } from "./cardShots";

const REPLACE = "------- SEARCH\nexport {};\n=======\nexport const a = 1;\n+++++++ REPLACE\n";
const NEW_FILE = Array.from({ length: 14 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join("\n") + "\n";

/**
 * The runtime's editable review of a new file: one editor (no diff with an empty side), its tab "new file: NAME",
 * its breadcrumb the file's own folders, no removed line, holding the proposed content.
 */
async function reviewReadsAsNewFile(ctx: ScenarioContext, session: Session): Promise<void> {
  const page = session.page;
  const tab = page.locator(".tabs-container .tab", { hasText: "new file: fresh.ts" });
  await tab.first().waitFor({ timeout: 15_000 });
  await tab.first().click();
  const labels = (await page.locator(".tabs-container .tab .label-name").allInnerTexts()).map((t) => t.trim());
  ctx.softCheck(
    !labels.some((l) => /original|↔/.test(l)),
    `a tab still reads like a diff against an empty original: ${JSON.stringify(labels)}`,
  );
  const group = page.locator(".editor-group-container.active");
  ctx.softCheck((await group.locator(".monaco-diff-editor").count()) === 0, "the new file's review is a diff editor");
  await group.locator(".view-lines", { hasText: "export const line1 = 1;" }).first().waitFor({ timeout: 15_000 });
  const crumbs = (await group.locator(".breadcrumbs-control .monaco-breadcrumb-item").allInnerTexts())
    .map((c) => c.trim())
    .filter((c) => c !== "");
  ctx.softCheck(
    crumbs.join(" › ").startsWith("src › new file: fresh.ts") &&
      !crumbs.some((c) => /^\d+$|proposed|toolgate/i.test(c)),
    `breadcrumb of the new file's review: ${JSON.stringify(crumbs)}`,
  );
  const hint = await group.locator(".empty-editor-hint, .editorPlaceholder").count();
  ctx.softCheck(hint === 0, "the new file's review shows an empty-editor hint");
  ctx.log(`review of the new file: tabs ${JSON.stringify(labels)}, breadcrumb ${JSON.stringify(crumbs)}`);
  for (const shot of await cardShots(session, "card-edit-new-file-review")) ctx.log(`screenshot: ${shot}`);
}

export const cardEdit: Scenario = {
  id: "s12b",
  title: "approval card for edits: new-file preview and its Open diff; a write through a link shows where it lands",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "the model writes src/fresh.ts (14 lines): the card previews its first lines and offers Open diff",
    "the editable review opens as one editor 'new file: fresh.ts' under src/ in the breadcrumb, holding the content",
    "Open diff shows that review again (no second 'new file: fresh.ts' tab): src/ in the breadcrumb, no removed lines",
    "screenshots light and dark; Reject",
    "the model writes link_out/planted.sh, link_out → a folder outside the workspace",
    "the card says 'link_out/planted.sh → /…/planted.sh, outside the workspace'; Reject is primary; screenshots",
    "the model edits src/a.ts: its review is a diff 'a.ts: original ↔ proposed' under src/; Approve writes the proposal",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ tool: "write_to_file", args: { path: "src/fresh.ts", content: NEW_FILE }, chunks: 3 }] },
      { steps: [{ tool: "write_to_file", args: { path: "link_out/planted.sh", content: "echo planted\n" } }] },
      { steps: [{ tool: "replace_in_file", args: { path: "src/a.ts", diff: REPLACE } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Done." } }] },
    ]);
    const outside = mkdtempSync(join(tmpdir(), "toolgate-e2e-outside-"));
    mkdirSync(outside, { recursive: true });
    const session = await ctx.openSession({
      settings: modelSettings(ctx, model),
      files: { "src/a.ts": "export {};\n" },
    });
    symlinkSync(outside, join(session.workspace, "link_out"));
    const frame = await openPanel(session);
    await startTask(frame, "Add a file.");

    const card = approvalCard(frame).filter({ hasText: "Allow this edit?" });
    await card.getByRole("button", { name: "Approve", exact: true }).waitFor({ timeout: 30_000 });
    const preview = await card.getByLabel("Content preview").innerText();
    ctx.softCheck(
      preview.startsWith("export const line1 = 1;") && !preview.includes("line9 "),
      `preview shows: ${JSON.stringify(preview.slice(0, 200))}`,
    );
    const box = await card.locator(".tg-edit-preview").innerText();
    ctx.softCheck(/14 lines/i.test(box), `preview header: ${JSON.stringify(box.slice(0, 80))}`);
    // The editable review the runtime opened by itself when the edit asked: a new file, not a deletion.
    await reviewReadsAsNewFile(ctx, session);
    await card.getByRole("button", { name: "Open diff" }).click();
    await session.page.waitForTimeout(1500); // a second view, if one opened, has its tab by now
    const tab = session.page.locator(".tabs-container .tab", { hasText: "new file: fresh.ts" });
    await tab.first().waitFor({ timeout: 15_000 });
    const crumbs = (
      await session.page
        .locator(".editor-group-container.active .breadcrumbs-control .monaco-breadcrumb-item")
        .allInnerTexts()
    )
      .map((c) => c.trim())
      .filter((c) => c !== "");
    ctx.softCheck(
      // The workbench may show no breadcrumb for a virtual document; when it does, it is the file's own path.
      (crumbs.length === 0 || crumbs.join(" › ").startsWith("src › new file: fresh.ts")) &&
        !crumbs.some((c) => /^\d+$|empty|toolgate/.test(c)),
      `breadcrumb of the new file's view: ${JSON.stringify(crumbs)}`,
    );
    const removed = await session.page
      .locator(".editor-group-container.active .line-delete, .editor-group-container.active .char-delete")
      .count();
    ctx.softCheck(removed === 0, `the new file's view shows ${removed} removed line(s)`);
    const tabs = await session.page.locator(".tabs-container .tab", { hasText: "new file: fresh.ts" }).count();
    ctx.softCheck(tabs === 1, `Open diff left ${tabs} tabs named "new file: fresh.ts" (the review, and a copy)`);
    ctx.log(`Open diff: "new file: fresh.ts" (${tabs} tab), breadcrumb ${JSON.stringify(crumbs)}, no removed lines`);
    for (const shot of await cardShots(session, "card-edit-new-file")) ctx.log(`screenshot: ${shot}`);
    await answer(card, "Reject");
    await requestsAtLeast(model, 2);

    const link = approvalCard(frame).filter({ hasText: "planted.sh" });
    await link.getByRole("button", { name: /Approve/ }).waitFor({ timeout: 30_000 });
    const lands = (await link.getByLabel("Where the write lands").innerText()).replace(/\s+/g, " ").trim();
    ctx.softCheck(
      lands.startsWith("link_out/planted.sh → ") &&
        lands.includes(join(outside, "planted.sh")) &&
        lands.endsWith("outside the workspace"),
      `where it lands: "${lands}"`,
    );
    const rejectClass = (await link.getByRole("button", { name: "Reject", exact: true }).getAttribute("class")) ?? "";
    ctx.softCheck(
      rejectClass.includes("tg-button-primary"),
      `Reject is not primary for an outside write: ${rejectClass}`,
    );
    ctx.log(`link write: "${lands}"`);
    for (const shot of await cardShots(session, "card-edit-link")) ctx.log(`screenshot: ${shot}`);
    await answer(link, "Reject");
    await requestsAtLeast(model, 3);
    assert.equal(existsSync(join(outside, "planted.sh")), false, "the rejected write landed outside the workspace");

    // An existing file's review is a diff titled as one, under the file's own path; Approve writes what it proposes.
    const edit = approvalCard(frame).filter({ hasText: "src/a.ts" });
    await edit.getByRole("button", { name: "Approve", exact: true }).waitFor({ timeout: 30_000 });
    const diffTab = session.page.locator(".tabs-container .tab", { hasText: "a.ts: original ↔ proposed" });
    await diffTab.first().waitFor({ timeout: 15_000 });
    await diffTab.first().click();
    const group = session.page.locator(".editor-group-container.active");
    await group.locator(".monaco-diff-editor").first().waitFor({ timeout: 10_000 });
    const diffCrumbs = (await group.locator(".breadcrumbs-control .monaco-breadcrumb-item").allInnerTexts())
      .map((c) => c.trim())
      .filter((c) => c !== "");
    ctx.softCheck(
      diffCrumbs.join(" › ").startsWith("src › a.ts") && !diffCrumbs.some((c) => /^\d+$|proposed|original/.test(c)),
      `breadcrumb of the existing file's review: ${JSON.stringify(diffCrumbs)}`,
    );
    ctx.log(`review of src/a.ts: a diff editor, breadcrumb ${JSON.stringify(diffCrumbs)}`);
    for (const shot of await cardShots(session, "card-edit-replace-review")) ctx.log(`screenshot: ${shot}`);
    await answer(edit, "Approve");
    await requestsAtLeast(model, 4);
    assert.equal(readFileSync(join(session.workspace, "src", "a.ts"), "utf8"), "export const a = 1;\n");
    ctx.log("Approve: src/a.ts holds exactly the proposed content");
  },
};
