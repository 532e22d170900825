/**
 * Scenario 5, the part that needs only the approval UI: choosing Plan in the dropdown's mode writes
 * `toolgate.mode: "plan"` to user settings.json and the status bar item says Plan. (That writes are refused
 * and reads still run is scenario s5 and needs the agent runtime.)
 */
import { eventually, openAutoApproveMenu, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

export const planModeSetting: Scenario = {
  id: "s5a",
  title: "choosing Plan in the dropdown writes toolgate.mode = plan and the status bar says Plan",
  needs: ["vsix", "panel"],
  plan: [
    "open the dropdown and choose 'Plan (read-only)'",
    "user settings.json has toolgate.mode = plan",
    "the status bar item reads 'Plan · …'",
  ],
  run: async (ctx) => {
    const session = await ctx.openSession();
    const page = session.page;
    const status = page.locator(".part.statusbar .statusbar-item", { hasText: /Normal ·|Plan ·/ });
    await status.filter({ hasText: "Normal ·" }).first().waitFor({ timeout: 15_000 });
    const menu = await openAutoApproveMenu(await openPanel(session));
    await menu.getByRole("radio", { name: /^Plan/ }).click();
    await eventually("toolgate.mode = plan in user settings.json", () =>
      session.readUserSettings()["toolgate.mode"] === "plan" ? true : undefined,
    );
    ctx.log("settings.json: toolgate.mode = plan");
    await status.filter({ hasText: "Plan ·" }).first().waitFor({ timeout: 10_000 });
    ctx.log(`status bar: "${(await status.first().innerText()).trim()}"`);
  },
};
