/**
 * The Toolgate panel as a person reaches it: the activity-bar icon opens the view container, the webview
 * connects to the extension host, and the auto-approve dropdown sits at the bottom of the chat.
 * Selectors are roles and names the UI (webview-ui/) gives its elements.
 */
import type { Frame, Page } from "playwright-core";
import type { Session } from "./session";
import { toolgateFrame } from "./webview";
import { activityBarItem } from "./workbench";

/** The first-run preset card (webview-ui/src/chat/PresetCard.tsx). */
export const PRESET_CARD = "How much may the agent do without asking?";

/**
 * Opens the Toolgate side bar and returns its webview frame, once the host's state has arrived. Every scenario
 * starts from the defaults: the first-run preset card, which a fresh profile shows, is answered "Decide later"
 * (which writes no setting) unless `keepPresetCard` — the scenario that tests the card keeps it.
 */
export async function openPanel(session: Session, o: { readonly keepPresetCard?: boolean } = {}): Promise<Frame> {
  const page = session.page;
  const icon = activityBarItem(page, "Toolgate").first();
  await icon.waitFor({ timeout: 30_000 });
  // Clicking the icon of the container already shown hides the side bar, and right after a reload the
  // workbench may still be restoring it: click only while the side bar does not show our container.
  const sidebarTitle = page.locator(".part.sidebar .composite.title");
  const ours = async () =>
    (await sidebarTitle.isVisible()) && (await sidebarTitle.innerText().catch(() => "")).includes("Toolgate");
  for (let attempt = 0; !(await ours()); attempt++) {
    if (attempt === 3) throw new Error("the Toolgate side bar did not open from its activity-bar icon");
    // The whole item, not its label: while the view loads, its progress badge covers the label and takes
    // the click (a person's click on the badge opens the container just the same).
    await icon
      .locator("xpath=ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' action-item ')][1]")
      .click({ timeout: 10_000 });
    await page.waitForTimeout(1000);
  }
  const frame = await toolgateFrame(page);
  session.expectPanel = true;
  // Until the host answered the webview's ready message the app shows only a "Connecting…" status.
  await frame.getByRole("tablist", { name: "Toolgate" }).waitFor({ timeout: 30_000 });
  // The tab list renders with the host's first state, which says whether the card is offered.
  const presets = frame.getByRole("region", { name: PRESET_CARD });
  if (!o.keepPresetCard && (await presets.isVisible())) {
    await presets.getByRole("button", { name: "Decide later" }).click();
    await presets.waitFor({ state: "detached", timeout: 10_000 });
  }
  return frame;
}

/** Opens the auto-approve dropdown (its toggle bar is labelled "Auto-approve: …"). */
export async function openAutoApproveMenu(frame: Frame) {
  const region = frame.getByRole("region", { name: "Auto-approve settings" });
  if (!(await region.isVisible())) {
    await frame
      .getByRole("button", { name: /^Auto-approve:/ })
      .first()
      .click();
    await region.waitFor({ timeout: 10_000 });
  }
  return region;
}

/** Polls `probe` until it returns a value other than undefined. */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 15_000,
  page?: Page,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    if (page) await page.waitForTimeout(200);
    else await new Promise((r) => setTimeout(r, 200));
  }
}
