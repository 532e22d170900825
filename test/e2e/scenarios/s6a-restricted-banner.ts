/**
 * Scenario 6, the part that needs only the approval UI: in an untrusted folder (Restricted Mode) the panel
 * says that nothing is auto-approved, even with approve-all and every action switched on in user settings.
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
    "the dropdown repeats it",
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
      .filter({ hasText: /Restricted Mode/ })
      .waitFor({ timeout: 10_000 });
    ctx.log("dropdown: Restricted Mode note shown");
    for (const shot of await session.screenshotBothThemes("restricted")) ctx.log(`screenshot: ${shot}`);
  },
};
