/**
 * Scenario 6, the part that needs only the approval UI: in an untrusted folder (Restricted Mode) the panel
 * says that nothing is auto-approved, even with approve-all and every action switched on in user settings, and
 * says it once: the banner names Restricted Mode, the dropdown only says its switches wait for trust.
 * (That the calls really ask is scenario s6 and needs the agent runtime.)
 */
import { openAutoApproveMenu, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

const EVERYTHING_ON = {
  "toolgate.autoApprove.all": true,
  "toolgate.autoApprove.actions": {
    readFiles: true,
    readFilesExternally: true,
    editFiles: true,
    editFilesExternally: true,
    executeSafeCommands: true,
    executeAllCommands: true,
    useMcp: true,
    webFetch: true,
  },
};

export const restrictedBanner: Scenario = {
  id: "s6a",
  title:
    "an untrusted folder: the panel and the dropdown say Restricted Mode, nothing auto-approved, with every switch on",
  needs: ["vsix", "panel"],
  plan: [
    "open an untrusted folder with approve-all and every action on",
    "the panel shows the Restricted Mode note",
    "the dropdown's bar says off until trusted, its note that the switches apply once trusted",
    "with the dropdown open, 'Restricted Mode' is on screen once in the panel",
  ],
  run: async (ctx) => {
    const session = await ctx.openSession({ trusted: false, settings: EVERYTHING_ON });
    const frame = await openPanel(session);
    await frame
      .getByRole("note")
      .filter({ hasText: /Restricted Mode/ })
      .first()
      .waitFor({ timeout: 10_000 });
    ctx.log("panel: Restricted Mode note shown");
    const menu = await openAutoApproveMenu(frame);
    await menu
      .getByRole("note")
      .filter({ hasText: "These switches apply once you trust this folder." })
      .waitFor({ timeout: 10_000 });
    const bar = (
      await frame
        .getByRole("button", { name: /^Auto-approve:/ })
        .first()
        .innerText()
    ).replace(/\s+/g, " ");
    ctx.softCheck(/Off until the folder is trusted/.test(bar), `the dropdown's bar says "${bar}"`);
    const said = ((await frame.locator("body").innerText()).match(/Restricted Mode/g) ?? []).length;
    ctx.softCheck(said === 1, `"Restricted Mode" is on screen ${said} times in the panel, not once`);
    ctx.log(`dropdown: bar "${bar.trim()}"; its note says the switches apply once trusted; "Restricted Mode" ${said}×`);
    for (const shot of await session.screenshotBothThemes("restricted")) ctx.log(`screenshot: ${shot}`);
  },
};
