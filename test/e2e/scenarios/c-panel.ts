/**
 * (c) The Toolgate panel opens from its activity-bar icon, connects to the extension host (the ready
 * handshake completes: no "Connecting…" left), and is screenshotted in the light and dark themes — the
 * chat, the auto-approve dropdown open, and the MCP view with server-everything configured.
 */
import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import type { Scenario } from "../harness/scenario";
import type { Session } from "../harness/session";
import { toolgateFrame } from "../harness/webview";
import { activityBarItem } from "../harness/workbench";

/** Opens the Toolgate view container and returns its webview frame once the app has connected. */
export async function openPanel(session: Session): Promise<Frame> {
  const page = session.page;
  await activityBarItem(page, "Toolgate").first().click();
  const frame = await toolgateFrame(page);
  // The webview shows a "Connecting" status until the host answered its ready message.
  await frame.getByRole("tablist", { name: "Toolgate" }).waitFor({ timeout: 30_000 });
  return frame;
}

export const panel: Scenario = {
  id: "c",
  title: "the Toolgate panel opens, connects, and is screenshotted (chat, dropdown, MCP view) in light and dark",
  needs: ["vsix", "panel"],
  plan: [
    "click the Toolgate activity-bar icon: the webview renders and completes its handshake",
    "screenshot the chat panel, the auto-approve dropdown open, and the MCP view, each in light and dark",
  ],
  run: async (ctx) => {
    const session = await ctx.openSession({ settings: { "toolgate.mcpServers": ctx.info.mcpServers } });
    let frame = await openPanel(session);
    const page = session.page;
    assert.equal(await frame.getByRole("status", { name: /Connecting/ }).count(), 0);
    for (const shot of await session.screenshotBothThemes("panel-chat")) ctx.log(`screenshot: ${shot}`);

    const menuToggle = frame.getByRole("button", { name: /auto-approve/i }).first();
    await menuToggle.click();
    await frame.getByRole("region", { name: "Auto-approve settings" }).waitFor({ timeout: 10_000 });
    for (const shot of await session.screenshotBothThemes("panel-dropdown")) ctx.log(`screenshot: ${shot}`);
    await page.keyboard.press("Escape");

    frame = await toolgateFrame(page);
    await frame.getByRole("tab", { name: /MCP/ }).click();
    await frame.getByText("everything").first().waitFor({ timeout: 20_000 });
    for (const shot of await session.screenshotBothThemes("panel-mcp")) ctx.log(`screenshot: ${shot}`);
  },
};
