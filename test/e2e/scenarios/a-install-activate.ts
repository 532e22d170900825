/**
 * (a) The VSIX installs the way a user installs it and the extension activates: the extension host logs
 * its activation without an error, its commands are in the palette, its "Toolgate" output channel exists,
 * and (once the UI has landed) the activity bar shows the Toolgate icon.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Scenario } from "../harness/scenario";
import { EXTENSION_ID } from "../harness/webview";
import { activityBarItem, escapeRegExp, runCommand } from "../harness/workbench";

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const installAndActivate: Scenario = {
  id: "a",
  title: "the VSIX installs with code-server --install-extension and the extension activates",
  needs: ["vsix"],
  plan: [
    "the installed manifest has this build's version",
    "the extension host logs the activation of toolgate.toolgate and no activation error",
    "every contributed command is in the palette under 'Toolgate:'",
    "the Output view offers the 'Toolgate' channel",
    "the activity bar shows the Toolgate icon when the manifest contributes the container",
  ],
  run: async (ctx) => {
    const m = ctx.info.manifest!;
    const repoPkg = JSON.parse(readFileSync(join(ctx.info.repoRoot, "package.json"), "utf8")) as { version: string };
    assert.equal(m.version, repoPkg.version, "installed version differs from package.json");
    ctx.log(`installed ${m.publisher}.${m.name}@${m.version}`);

    const session = await ctx.openSession();
    const page = session.page;
    const activation = await waitFor("the activation line of toolgate.toolgate in the extension host log", () => {
      const line = session
        .extensionHostLog()
        .split("\n")
        .find((l) => l.includes(`_doActivateExtension ${EXTENSION_ID}`));
      return line ?? undefined;
    });
    ctx.log(`extension host: ${activation.replace(/^.*?\[info\] /, "")}`);
    // Give a failing activate() a moment to be logged, then look for errors naming us.
    await page.waitForTimeout(1500);
    const errors = session
      .extensionHostLog()
      .split("\n")
      .filter((l) => /\[error\]/.test(l) && l.toLowerCase().includes(EXTENSION_ID));
    assert.deepEqual(errors, [], "the extension host logged errors for toolgate.toolgate");

    // Commands the manifest shows in the palette only in some context (`menus.commandPalette` with a `when`,
    // e.g. "Approve the Waiting Request" while an ask waits) are not listed now.
    const menus = (m.contributes as { menus?: { commandPalette?: { command: string; when?: string }[] } } | undefined)
      ?.menus;
    const contextual = new Set((menus?.commandPalette ?? []).filter((e) => e.when).map((e) => e.command));
    const commands = (m.contributes?.commands ?? []).filter((c) => !contextual.has(c.command));
    if (commands.length > 0) {
      await page.keyboard.press("F1");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor();
      await input.fill(">Toolgate: ");
      for (const c of commands) {
        const label = `${c.category ? `${c.category}: ` : ""}${c.title}`;
        const row = page.locator(".quick-input-list .monaco-list-row .label-name", {
          hasText: new RegExp(`^${escapeRegExp(label)}$`),
        });
        await row
          .first()
          .waitFor({ timeout: 10_000 })
          .catch(() => {
            throw new Error(`the palette does not list "${label}"`);
          });
      }
      await page.keyboard.press("Escape");
      ctx.log(`palette lists all ${commands.length} Toolgate commands`);
    } else {
      ctx.log("the manifest contributes no commands yet: palette not checked");
    }

    await runCommand(page, "Output: Show Output Channels...");
    await page
      .locator(".quick-input-list .monaco-list-row .label-name", { hasText: /^Toolgate$/ })
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => {
        throw new Error('the Output view has no "Toolgate" channel');
      });
    await page.keyboard.press("Escape");
    ctx.log('Output view offers the "Toolgate" channel');

    const container = m.contributes?.viewsContainers?.activitybar?.find((c) => c.id === "toolgate");
    if (container) {
      await activityBarItem(page, container.title).first().waitFor({ timeout: 15_000 });
      ctx.log(`activity bar shows "${container.title}"`);
    } else {
      ctx.log("no activity-bar container in this build: icon not checked");
    }
  },
};
