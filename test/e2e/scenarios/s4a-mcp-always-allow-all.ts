/**
 * Scenario 4, the part that needs only the approval UI and the settings: with server-everything configured,
 * the MCP view's server-level "Always allow all tools" writes `alwaysAllow: ["*"]` into the user's
 * `toolgate.mcpServers` — keeping the server's command and arguments intact — and the tick survives a
 * window reload. (The per-tool checkbox needs the MCP hub connected: scenario s4.)
 */
import assert from "node:assert/strict";
import { eventually, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";
import type { Session } from "../harness/session";
import { toolgateFrame } from "../harness/webview";

async function everythingCard(session: Session) {
  let frame = await openPanel(session);
  await frame.getByRole("tab", { name: /MCP/ }).click();
  frame = await toolgateFrame(session.page);
  const card = frame.getByRole("region", { name: "everything" });
  await card.waitFor({ timeout: 15_000 });
  return card;
}

export const mcpAlwaysAllowAll: Scenario = {
  id: "s4a",
  title: "MCP view: 'Always allow all tools' for server-everything writes alwaysAllow [\"*\"] and survives a reload",
  needs: ["vsix", "panel"],
  plan: [
    "configure server-everything (stdio) in user settings; the MCP view lists it",
    "tick 'Always allow all tools': settings.json has alwaysAllow [\"*\"], command and args unchanged",
    "reload the window: the box is still ticked",
  ],
  run: async (ctx) => {
    const session = await ctx.openSession({ settings: { "toolgate.mcpServers": ctx.info.mcpServers } });
    const configured = (ctx.info.mcpServers as Record<string, { command: string; args: string[] }>).everything!;
    let card = await everythingCard(session);
    const box = () => card.getByRole("checkbox", { name: /^Always allow all tools/ });
    assert.equal(await box().isChecked(), false);
    await box().click();

    const written = await eventually('alwaysAllow ["*"] in user settings.json', () => {
      const s = session.readUserSettings()["toolgate.mcpServers"] as
        Record<string, Record<string, unknown>> | undefined;
      const e = s?.everything;
      return Array.isArray(e?.alwaysAllow) && e.alwaysAllow.includes("*") ? e : undefined;
    });
    assert.equal(written.command, configured.command, "the server's command was changed");
    assert.deepEqual(written.args, configured.args, "the server's args were changed");
    ctx.log(
      `settings.json toolgate.mcpServers.everything.alwaysAllow = ${JSON.stringify(written.alwaysAllow)}, command/args kept`,
    );
    await eventually("the box to show ticked", async () => ((await box().isChecked()) === true ? true : undefined));

    await session.reload();
    card = await everythingCard(session);
    assert.equal(await box().isChecked(), true, "the tick did not survive the reload");
    ctx.log("after a window reload the box is still ticked");
    for (const shot of await session.screenshotBothThemes("mcp-always-allow-all")) ctx.log(`screenshot: ${shot}`);
  },
};
