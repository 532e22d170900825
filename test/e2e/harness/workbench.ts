/**
 * Driving the VS Code workbench in the page the way a person does: the command palette, the Settings
 * editor, the activity bar, themes. Selectors are VS Code's own (1.139) and roles where it has them.
 */
import type { Locator, Page } from "playwright-core";

export type Theme = "light" | "dark" | "hcDark" | "hcLight";
/** `setting`: the workbench.colorTheme value; `label`: the name the theme picker shows (VS Code 1.139). */
export const THEMES: Record<Theme, { setting: string; label: string; bodyClass: string }> = {
  light: {
    setting: "Default Light Modern",
    label: "Light Modern",
    bodyClass: "vscode-theme-defaults-themes-light_modern-json",
  },
  dark: {
    setting: "Default Dark Modern",
    label: "Dark Modern",
    bodyClass: "vscode-theme-defaults-themes-dark_modern-json",
  },
  hcDark: {
    setting: "Default High Contrast",
    label: "Dark High Contrast",
    bodyClass: "vscode-theme-defaults-themes-hc_black-json",
  },
  hcLight: {
    setting: "Default High Contrast Light",
    label: "Light High Contrast",
    bodyClass: "vscode-theme-defaults-themes-hc_light-json",
  },
};

/** Waits until the workbench has rendered and the explorer shows `markerFile` from the opened folder. */
export async function waitForWorkbench(page: Page, markerFile: string, timeoutMs = 60_000): Promise<void> {
  await page.locator(".monaco-workbench .part.activitybar").waitFor({ timeout: timeoutMs });
  await page
    .getByRole("treeitem", { name: new RegExp(`^${escapeRegExp(markerFile)}`) })
    .first()
    .waitFor({ timeout: timeoutMs });
}

/** The theme is applied some seconds after the workbench appears (settings are read asynchronously). */
export async function waitForTheme(page: Page, theme: Theme, timeoutMs = 20_000): Promise<void> {
  await page.locator(`.monaco-workbench.${THEMES[theme].bodyClass}`).waitFor({ timeout: timeoutMs });
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Runs a command through the palette, choosing the row whose label is exactly `label`. F1 first; when
 * keyboard focus is inside a webview (which keeps F1 to itself) the title bar's command center is clicked.
 */
export async function runCommand(page: Page, label: string): Promise<void> {
  const input = await openPalette(page);
  await input.fill(`>${label}`);
  const row = page.locator(".quick-input-list .monaco-list-row", {
    has: page.locator(".label-name", { hasText: new RegExp(`^${escapeRegExp(label)}$`) }),
  });
  await row.first().waitFor({ timeout: 10_000 });
  await row.first().click();
}

/** Opens the Settings editor and searches; returns the editor's locator. */
export async function openSettingsUi(page: Page, query: string) {
  const editor = page.locator(".settings-editor");
  if (!(await editor.isVisible())) {
    await runCommand(page, "Preferences: Open User Settings");
    await editor.waitFor({ timeout: 15_000 });
  }
  await searchSettings(page, query);
  return editor;
}

export async function searchSettings(page: Page, query: string): Promise<void> {
  const search = page.locator(".settings-editor .settings-header .suggest-input-container .monaco-editor").first();
  await search.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(query);
  // The result count ("13 Settings Found") updates once the search has run.
  await page.locator(".settings-editor .settings-count-widget", { hasText: /Setting/ }).waitFor({ timeout: 10_000 });
  await page.waitForTimeout(400);
}

/** The Settings editor opens as a modal over the workbench; Escape leaves the search box, then closes it. */
export async function closeSettingsUi(page: Page): Promise<void> {
  const editor = page.locator(".settings-editor");
  for (let i = 0; i < 3 && (await editor.isVisible()); i++) {
    await page.keyboard.press("Escape");
    await page.waitForTimeout(300);
  }
  if (await editor.isVisible()) await runCommand(page, "View: Close Editor");
  await editor.waitFor({ state: "hidden", timeout: 5000 });
}

/** The Settings editor row of one setting key (its control carries the key as aria-label for simple types). */
export function settingRow(page: Page, key: string) {
  return page.locator(".settings-editor-tree .setting-item", {
    has: page.locator(`[aria-label="${key}"], [data-key="${key}"]`),
  });
}

/** The activity-bar entry of a view container, by its title (as a person sees it on hover). */
export function activityBarItem(page: Page, title: string) {
  return page
    .locator(".part.activitybar .action-item a.action-label, .part.activitybar .action-item .action-label")
    .and(page.locator(`[aria-label^="${title}"]`));
}

/** The status bar shows Restricted Mode when the folder is not trusted. */
export function restrictedModeIndicator(page: Page) {
  return page.locator(".part.statusbar", { hasText: "Restricted Mode" });
}

/**
 * Edits the user settings.json in VS Code's own editor, as a person would: "Preferences: Open User
 * Settings (JSON)" (a modal editor in 1.139), Find/Replace all `find` with `replace`, save, close.
 * (Writing the file from outside is not noticed by code-server's running workbench.) The caller checks
 * the file on disk.
 */
export async function replaceInUserSettingsJson(page: Page, find: string, replace: string): Promise<void> {
  await runCommand(page, "Preferences: Open User Settings (JSON)");
  const editor = page.locator('.monaco-editor[data-uri$="/User/settings.json"]').first();
  await editor.waitFor({ timeout: 10_000 });
  await editor.locator(".view-lines").click();
  await page.keyboard.press("ControlOrMeta+H");
  const widget = editor.locator(".find-widget.visible");
  await widget.waitFor({ timeout: 5000 });
  await widget.locator(".find-part textarea, .find-part input").first().fill(find);
  await widget.locator(".replace-part textarea, .replace-part input").first().fill(replace);
  await widget.locator(".replace-part [aria-label^='Replace All']").click();
  await page.keyboard.press("Escape");
  await editor.locator(".view-lines").click();
  await page.keyboard.press("ControlOrMeta+S");
  await page.waitForTimeout(500);
  await closeModalEditor(page);
}

/** Closes the modal editor (settings.json, the Settings editor) with its own close button. */
export async function closeModalEditor(page: Page): Promise<void> {
  const modal = page.locator(".monaco-modal-editor-block");
  if (!(await modal.isVisible())) return;
  const close = modal.getByRole("button", { name: /^Close/ }).first();
  if (await close.isVisible()) await close.click();
  else await page.keyboard.press("Escape");
  await modal.waitFor({ state: "hidden", timeout: 5000 });
}

/**
 * Opens the command palette: F1, else the title bar's command center. A quick input that was still closing
 * (just answered) can swallow both, so each attempt ends with Escape and the next one starts afresh.
 */
async function openPalette(page: Page): Promise<Locator> {
  const input = page.locator(".quick-input-widget input");
  const shown = (timeout: number) =>
    input.waitFor({ state: "visible", timeout }).then(
      () => true,
      () => false,
    );
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.keyboard.press("F1");
    if (await shown(1500)) return input;
    await page
      .locator(".part.titlebar .command-center .action-item")
      .first()
      .click({ timeout: 3000 })
      .catch(() => undefined);
    if (await shown(3000)) return input;
    await page.keyboard.press("Escape");
  }
  throw new Error("the command palette did not open (F1 and the command center, 3 attempts)");
}
