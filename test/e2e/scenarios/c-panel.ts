/**
 * (c) The Toolgate panel opens from its activity-bar icon, connects to the extension host (the ready
 * handshake completes: no "Connecting…" left), the agent runtime it starts connects too (no "not connected"
 * notice left), and it is screenshotted in the light and dark themes — the chat, the auto-approve dropdown
 * open, and the MCP view with server-everything configured.
 */
import assert from "node:assert/strict";
import { eventually, openAutoApproveMenu, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";
import { toolgateFrame } from "../harness/webview";

export const panel: Scenario = {
  id: "c",
  title: "the Toolgate panel opens, connects, and is screenshotted (chat, dropdown, MCP view) in light and dark",
  needs: ["vsix", "panel"],
  plan: [
    "click the Toolgate activity-bar icon: the webview renders and completes its handshake",
    "the agent runtime, started by opening the panel, connects",
    "screenshot the chat panel, the auto-approve dropdown open, and the MCP view, each in light and dark",
  ],
  run: async (ctx) => {
    const session = await ctx.openSession({ settings: { "toolgate.mcpServers": ctx.info.mcpServers } });
    let frame = await openPanel(session);
    const page = session.page;
    assert.equal(await frame.getByRole("status", { name: /Connecting/ }).count(), 0);
    // The runtime starts when the panel opens (not at activation): it must connect within seconds.
    const notConnected = frame.getByText("The agent runtime is not connected yet");
    await eventually(
      "the agent runtime to connect",
      async () => ((await notConnected.count()) === 0 ? true : undefined),
      30_000,
      page,
    );
    const log = session.extensionHostLog();
    ctx.log(
      `agent runtime connected; extension host log: ${/ExtensionService#_doActivateExtension toolgate\.toolgate[^\n]*/.exec(log)?.[0] ?? "(no activation line)"}`,
    );
    for (const shot of await session.screenshotBothThemes("panel-chat")) ctx.log(`screenshot: ${shot}`);

    await openAutoApproveMenu(frame);
    for (const shot of await session.screenshotBothThemes("panel-dropdown")) ctx.log(`screenshot: ${shot}`);
    await page.keyboard.press("Escape");

    frame = await toolgateFrame(page);
    await frame.getByRole("tab", { name: /MCP/ }).click();
    await frame.getByText("everything").first().waitFor({ timeout: 20_000 });
    for (const shot of await session.screenshotBothThemes("panel-mcp")) ctx.log(`screenshot: ${shot}`);
  },
};
