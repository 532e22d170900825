/**
 * The harness itself: code-server serves VS Code, Chromium shows the workbench with the opened folder, and
 * workspace trust works both ways (scenario 6 relies on Restricted Mode). Needs nothing of Toolgate, so a
 * broken toolchain shows up here first rather than as a confusing product failure.
 */
import assert from "node:assert/strict";
import type { Scenario } from "../harness/scenario";
import { MARKER_FILE } from "../harness/session";
import { restrictedModeIndicator } from "../harness/workbench";

export const harness: Scenario = {
  id: "h",
  title: "harness: code-server + Chromium open a trusted folder, and an untrusted one in Restricted Mode",
  needs: [],
  plan: [
    "open a trusted folder: the explorer lists its files, no Restricted Mode",
    "open an untrusted folder: the status bar says Restricted Mode",
  ],
  run: async (ctx) => {
    const trusted = await ctx.openSession({ trusted: true, files: { "src/a.ts": "export const a = 1;\n" } });
    const page = trusted.page;
    await page.getByRole("treeitem", { name: /^src/ }).first().waitFor();
    assert.equal(await restrictedModeIndicator(page).count(), 0, "a trusted folder must not show Restricted Mode");
    ctx.log(`trusted folder open, explorer shows ${MARKER_FILE} and src/`);
    ctx.log(`screenshot: ${await trusted.screenshot("workbench-dark")}`);
    await trusted.close();

    const untrusted = await ctx.openSession({ trusted: false });
    await restrictedModeIndicator(untrusted.page).waitFor({ timeout: 20_000 });
    ctx.log("untrusted folder opens in Restricted Mode");
  },
};
