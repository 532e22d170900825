/**
 * Scenario 2, the part that needs only the approval UI: the auto-approve dropdown writes the user's
 * settings.json (one source of truth), and a change made in settings.json shows in the open dropdown live.
 * (The "next write runs with a say row" part is scenario s2 and needs the agent runtime.)
 */
import assert from "node:assert/strict";
import { eventually, openAutoApproveMenu, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";
import { replaceInUserSettingsJson } from "../harness/workbench";

const EDIT_FILES = /^Edit files in the workspace/;

export const dropdownSettingsBridge: Scenario = {
  id: "s2a",
  title: "the dropdown's 'edit files' writes user settings.json, and editing settings.json updates the dropdown live",
  needs: ["vsix", "panel"],
  plan: [
    "open the panel and the auto-approve dropdown; 'Edit files' is unticked (the default)",
    "tick it: user settings.json gets toolgate.autoApprove.actions.editFiles = true",
    "set it back to false in settings.json (VS Code's editor, saved): the dropdown unticks without a reload",
  ],
  run: async (ctx) => {
    const session = await ctx.openSession();
    const frame = await openPanel(session);
    const menu = await openAutoApproveMenu(frame);
    const box = menu.getByRole("checkbox", { name: EDIT_FILES });
    assert.equal(await box.isChecked(), false, "'Edit files' should start unticked");

    await box.click();
    const actions = await eventually("editFiles = true in user settings.json", () => {
      const a = session.readUserSettings()["toolgate.autoApprove.actions"] as Record<string, unknown> | undefined;
      return a?.editFiles === true ? a : undefined;
    });
    ctx.log(`ticked 'Edit files': settings.json has toolgate.autoApprove.actions = ${JSON.stringify(actions)}`);
    // Missing keys take their defaults (the manifest says so), so readFiles must be absent or still true.
    assert.notEqual(actions.readFiles, false, "ticking 'Edit files' must not turn 'Read files' off");
    assert.equal(await menu.getByRole("checkbox", { name: /^Read files in the workspace/ }).isChecked(), true);
    await eventually("the box shows ticked", async () => ((await box.isChecked()) === true ? true : undefined));
    ctx.log(`screenshot: ${await session.screenshot("dropdown-editfiles-on")}`);

    await replaceInUserSettingsJson(session.page, '"editFiles": true', '"editFiles": false');
    await eventually("settings.json saved with editFiles false", () => {
      const a = session.readUserSettings()["toolgate.autoApprove.actions"] as Record<string, unknown> | undefined;
      return a?.editFiles === false ? true : undefined;
    });
    await eventually(
      "the dropdown's 'Edit files' to untick",
      async () => ((await box.isChecked()) === false ? true : undefined),
      15_000,
    );
    ctx.log("edited settings.json to editFiles false: the dropdown unticked live");
  },
};
