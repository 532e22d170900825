/**
 * Scenario 17, never miss an ask: the person hides the Toolgate panel (opens the Explorer) while the model is still
 * streaming; when its call asks, a VS Code notification says an ask waits and offers "Show", the activity bar's
 * Toolgate item carries a badge of 1 and the status bar counts it. "Show" brings the panel back with the approval
 * card focused; answering clears the badge and the count. With `toolgate.notifyOnAsk: "off"` no notification
 * appears, and the badge still does.
 */
import type { Frame, Locator, Page } from "playwright-core";
import { answer, approvalCard, gate, modelSettings, requestsAtLeast, startModel, startTask } from "../harness/agent";
import { eventually, openPanel } from "../harness/panel";
import type { Scenario, ScenarioContext } from "../harness/scenario";
import type { Session } from "../harness/session";
import { toolgateFrame } from "../harness/webview";
import { activityBarItem, runCommand } from "../harness/workbench";

const COMMAND = "rm -rf build";

/** The notification toast naming a waiting ask. */
function askToast(page: Page): Locator {
  return page.locator(".notifications-toasts .notification-toast", { hasText: "Toolgate is waiting for you" });
}

/** The badge on the Toolgate item of the activity bar ("" when none). */
async function badgeText(page: Page): Promise<string> {
  const item = page
    .locator(".part.activitybar .action-item")
    .filter({ has: page.locator('.action-label[aria-label^="Toolgate"]') })
    .first();
  const badge = item.locator(".badge .badge-content");
  if (!(await badge.count()) || !(await badge.first().isVisible())) return "";
  return (await badge.first().innerText()).trim();
}

/** The text of Toolgate's status bar item (it shows the mode, and first the count of waiting asks). */
async function statusBarText(page: Page): Promise<string> {
  const item = page.locator(".part.statusbar .statusbar-item", { hasText: /Normal|Plan|Auto/ }).first();
  return (await item.innerText()).replace(/\s+/g, " ").trim();
}

/** The side bar shows another container (the Explorer), so the Toolgate view is hidden. */
async function hidePanel(page: Page): Promise<void> {
  await activityBarItem(page, "Explorer").first().click();
  await page.locator(".part.sidebar .composite.title", { hasText: /Explorer/i }).waitFor({ timeout: 10_000 });
}

/** Starts a task whose only call (`rm -rf build`, which always asks) is held until the panel is hidden. */
async function askWhileHidden(ctx: ScenarioContext, settings: Record<string, unknown>) {
  const hold = gate();
  // The turn after the answer stays in its stream, so no new ask (the completion) counts once this one is answered.
  const after = gate();
  ctx.defer(() => {
    hold.open();
    after.open();
  });
  const model = await startModel(ctx, [
    {
      steps: [
        { text: "Cleaning up." },
        {
          tool: "execute_command",
          args: { command: COMMAND, requires_approval: false },
          chunks: 4,
          pauseAfterChunk: { chunk: 1, until: hold.promise },
        },
      ],
    },
    {
      steps: [
        {
          tool: "attempt_completion",
          args: { result: "Left build/ alone." },
          chunks: 3,
          pauseAfterChunk: { chunk: 1, until: after.promise },
        },
      ],
    },
  ]);
  const session = await ctx.openSession({
    theme: "light",
    settings: { ...modelSettings(ctx, model), ...settings },
    files: { "build/keep.txt": "keep\n" },
  });
  const frame = await openPanel(session);
  await startTask(frame, "Clean up.");
  await frame.getByText("Cleaning up.").first().waitFor({ timeout: 30_000 });
  await hidePanel(session.page);
  // The panel is off screen from here: screenshots need not show it.
  session.expectPanel = false;
  ctx.softCheck((await badgeText(session.page)) === "", "the badge shows before any ask has arrived");
  hold.open();
  return { model, session };
}

async function waitForBadge(session: Session, want: string): Promise<string> {
  return eventually(
    `the Toolgate badge to read "${want}"`,
    async () => {
      const t = await badgeText(session.page);
      return t === want ? t : undefined;
    },
    20_000,
    session.page,
  ).catch(async () => badgeText(session.page));
}

export const askWhenHidden: Scenario = {
  id: "s17",
  title:
    "an ask while the panel is hidden: a notification with Show, a badge of 1, the status bar count; Show focuses the card",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    `start a task; its call '${COMMAND}' is held in the stream while the person opens the Explorer`,
    "the call asks: a notification 'Toolgate is waiting for you: run …' with a Show button",
    "the activity bar's Toolgate item shows a badge of 1; the status bar item starts with 1",
    "screenshots light and dark",
    "Show: the Toolgate panel is back and the approval card has the keyboard focus",
    "Reject: the badge and the status bar count are gone",
    "a second window with toolgate.notifyOnAsk = off: the same ask shows no notification, the badge still reads 1",
  ],
  timeoutMs: 240_000,
  run: async (ctx) => {
    const { model, session } = await askWhileHidden(ctx, {});
    const page = session.page;
    const toast = askToast(page);
    const shown = await toast
      .first()
      .waitFor({ timeout: 30_000 })
      .then(
        () => true,
        () => false,
      );
    ctx.softCheck(shown, "no notification appeared for the ask that arrived while the panel was hidden");
    if (shown) ctx.log(`notification: "${(await toast.first().innerText()).replace(/\s+/g, " ").trim()}"`);
    const show = toast.first().getByRole("button", { name: "Show", exact: true });
    ctx.softCheck(shown && (await show.isVisible()), "the notification has no Show button");
    // At once, while the toast is up (VS Code moves it to the notification centre after a while), once it slid in.
    await page.waitForTimeout(600);
    ctx.log(`screenshot: ${await session.screenshot("ask-hidden-light")}`);
    const badge = await waitForBadge(session, "1");
    ctx.softCheck(badge === "1", `the activity bar's Toolgate badge reads "${badge}", not 1`);
    const status = await statusBarText(page);
    ctx.softCheck(/^1\b/.test(status), `the status bar item does not start with the count 1: "${status}"`);
    ctx.log(`badge "${badge}"; status bar "${status}"`);
    await session.setTheme("dark");
    // The toast may have timed out into the notification centre meanwhile: its Show is there too.
    if (!(await show.isVisible())) {
      await runCommand(page, "Notifications: Show Notifications");
      await page.locator(".notifications-center.visible").waitFor({ timeout: 5000 });
    }
    ctx.log(`screenshot: ${await session.screenshot("ask-hidden-dark")}`);

    const showAnywhere = page
      .locator(".notifications-toasts, .notifications-center")
      .locator(".notification-list-item", { hasText: "Toolgate is waiting for you" })
      .first()
      .getByRole("button", { name: "Show", exact: true });
    await showAnywhere.click({ timeout: 10_000 });
    session.expectPanel = true;
    const frame = await toolgateFrame(page, { selector: "section.tg-approval" });
    const card = approvalCard(frame);
    await card.waitFor({ timeout: 20_000 });
    const focused = await eventually(
      "the approval card to take the keyboard focus",
      async () => ((await cardHasFocus(frame)) ? true : undefined),
      10_000,
      page,
    ).catch(() => false);
    ctx.softCheck(focused, "after Show the approval card does not have the keyboard focus");
    ctx.log(`Show: the panel is back${focused ? " and the card has the focus" : ""}`);
    for (const shot of await session.screenshotBothThemes("ask-hidden-shown")) ctx.log(`screenshot: ${shot}`);

    await answer(card, "Reject");
    await requestsAtLeast(model, 2);
    const cleared = await waitForBadge(session, "");
    ctx.softCheck(cleared === "", `after the answer the badge still reads "${cleared}"`);
    const after = await eventually(
      "the status bar to drop the count",
      async () => {
        const t = await statusBarText(page);
        return /^\d/.test(t) ? undefined : t;
      },
      10_000,
      page,
    ).catch(async () => statusBarText(page));
    ctx.softCheck(!/^\d/.test(after), `after the answer the status bar still counts: "${after}"`);
    ctx.log(`answered: badge "${cleared}", status bar "${after}"`);
    await session.close();

    const off = await askWhileHidden(ctx, { "toolgate.notifyOnAsk": "off" });
    const quietBadge = await waitForBadge(off.session, "1");
    ctx.softCheck(quietBadge === "1", `with notifyOnAsk off the badge reads "${quietBadge}", not 1`);
    await off.session.page.waitForTimeout(3000); // give a wrongly raised notification time to show
    const toasts = await askToast(off.session.page).count();
    ctx.softCheck(toasts === 0, `with notifyOnAsk off ${toasts} notification(s) appeared`);
    ctx.log(`notifyOnAsk off: badge "${quietBadge}", ${toasts} notification(s)`);
    ctx.log(`screenshot: ${await off.session.screenshot("ask-hidden-off-light")}`);
  },
};

/** Whether the keyboard focus is in the approval card (the webview's own document has the focus too). */
async function cardHasFocus(frame: Frame): Promise<boolean> {
  return frame.evaluate(() => document.hasFocus() && !!document.activeElement?.closest("section.tg-approval"));
}
