/**
 * One scenario's world: a fresh user-data folder with our user settings.json, a fresh workspace folder,
 * a code-server on loopback, and a browser page showing the workbench. The extensions folder (with the
 * VSIX installed once per run) is shared across sessions of a run; nothing else is.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { extensionHostLog, startCodeServer, type CodeServer, type Toolchain } from "./codeServer";
import { pixelStats } from "./pixels";
import { visibleToolgateFrame } from "./webview";
import { escapeRegExp, runCommand, THEMES, waitForTheme, waitForWorkbench, type Theme } from "./workbench";

export type Settings = Record<string, unknown>;

const ANY_THEME_LABEL = new RegExp(
  `^(${Object.values(THEMES)
    .map((t) => escapeRegExp(t.label))
    .join("|")})$`,
);

export interface SessionOptions {
  /** false: the folder opens in Restricted Mode (workspace trust on, no start-up prompt). */
  readonly trusted: boolean;
  readonly theme: Theme;
  /** Extra user settings (Toolgate's keys, MCP servers, model endpoint). */
  readonly settings: Settings;
  /** Files to create in the workspace folder, relative path → content. */
  readonly files: Readonly<Record<string, string>>;
}

export const DEFAULT_SESSION: SessionOptions = { trusted: true, theme: "dark", settings: {}, files: {} };

/**
 * What "rendered" means for a screenshot. The page: luminance varies (a blank or single-colour page does not).
 * The panel: its document shows text, and its area on screen has ink (pixels unlike its background).
 */
const MIN_PAGE_STDDEV = 2;
const MIN_PANEL_TEXT = 20;
const MIN_PANEL_INK = 0.002;

/** Every workspace gets this file, so "the explorer shows the folder" is something we can wait for. */
export const MARKER_FILE = "TOOLGATE_E2E.md";

/** User settings that keep the workbench quiet and deterministic; scenario settings are merged on top. */
function baseSettings(o: SessionOptions): Settings {
  return {
    "security.workspace.trust.enabled": !o.trusted,
    "security.workspace.trust.startupPrompt": "never",
    "security.workspace.trust.untrustedFiles": "open",
    "workbench.colorTheme": THEMES[o.theme].setting,
    "workbench.startupEditor": "none",
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "workbench.tips.enabled": false,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "extensions.ignoreRecommendations": true,
    "git.enabled": false,
  };
}

export interface SessionEnv {
  readonly toolchain: Toolchain;
  readonly browser: Browser;
  readonly extensionsDir: string;
  /** Where screenshots go (test-results/e2e). */
  readonly resultsDir: string;
}

export class Session {
  readonly userDataDir: string;
  readonly workspace: string;
  readonly settingsPath: string;
  private server?: CodeServer;
  private context?: BrowserContext;
  private pageRef?: Page;
  /** Set once the panel was opened (panel.ts): from then on every screenshot must show it rendered. */
  expectPanel = false;

  constructor(
    private readonly env: SessionEnv,
    readonly dir: string,
    readonly name: string,
    readonly options: SessionOptions,
  ) {
    this.userDataDir = join(dir, "user-data");
    this.workspace = join(dir, "workspace");
    this.settingsPath = join(this.userDataDir, "User", "settings.json");
  }

  get page(): Page {
    if (!this.pageRef) throw new Error("session not started");
    return this.pageRef;
  }

  get codeServerLog(): string {
    return join(this.dir, "home", "code-server.log");
  }

  async start(): Promise<void> {
    mkdirSync(this.workspace, { recursive: true });
    const files = { [MARKER_FILE]: "# Toolgate e2e workspace\n", ...this.options.files };
    for (const [rel, content] of Object.entries(files)) {
      const p = join(this.workspace, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
    }
    this.writeUserSettings({ ...baseSettings(this.options), ...this.options.settings });
    this.server = await startCodeServer(this.env.toolchain, {
      userDataDir: this.userDataDir,
      extensionsDir: this.env.extensionsDir,
      home: join(this.dir, "home"),
      folder: this.workspace,
    });
    this.context = await this.env.browser.newContext({ viewport: { width: 1400, height: 900 } });
    this.pageRef = await this.context.newPage();
    await this.pageRef.goto(this.server.folderUrl(this.workspace));
    await waitForWorkbench(this.pageRef, MARKER_FILE);
    await waitForTheme(this.pageRef, this.options.theme);
  }

  /** The workbench rewrites settings.json in place (truncate, then write): a read can land in between. */
  readUserSettings(): Settings {
    for (let attempt = 0; ; attempt++) {
      try {
        return JSON.parse(readFileSync(this.settingsPath, "utf8")) as Settings;
      } catch (e) {
        if (!(e instanceof SyntaxError) || attempt >= 40) throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
      }
    }
  }

  /**
   * Writes the whole user settings.json. Only before start(): code-server's running workbench does not
   * notice outside edits of the user settings file (verified: workspace files are watched, the user
   * settings file is not), so live changes go through the workbench (Settings editor, palette, our UI).
   */
  writeUserSettings(settings: Settings): void {
    if (this.pageRef) throw new Error("writeUserSettings after start: change settings through the workbench instead");
    mkdirSync(dirname(this.settingsPath), { recursive: true });
    writeFileSync(this.settingsPath, JSON.stringify(settings, null, 2) + "\n");
  }

  /**
   * Picks the theme in "Preferences: Color Theme", as a person does; VS Code saves it to user settings.
   * Tries three times: under load the palette's click can land while its list re-renders, and the theme
   * picker then never opens.
   */
  async setTheme(theme: Theme): Promise<void> {
    const page = this.page;
    const applied = page.locator(`.monaco-workbench.${THEMES[theme].bodyClass}`);
    if (await applied.count()) return;
    const label = new RegExp(`^${escapeRegExp(THEMES[theme].label)}$`);
    const input = page.locator(".quick-input-widget input");
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await runCommand(page, "Preferences: Color Theme");
        // The picker lists every installed theme; the palette filtered to the command lists none of them. Its list
        // renders only the rows in view, scrolled to the current theme: wait for any of ours (the current is one).
        await page
          .locator(".quick-input-list .label-name", { hasText: ANY_THEME_LABEL })
          .first()
          .waitFor({ timeout: 5000 });
        await input.fill(THEMES[theme].label, { timeout: 5000 });
        await page
          .locator(".quick-input-list .monaco-list-row.focused .label-name", { hasText: label })
          .waitFor({ timeout: 10_000 });
        await page.keyboard.press("Enter");
        await waitForTheme(page, theme);
        await page.waitForTimeout(300); // let webviews repaint with the new theme variables
        return;
      } catch (e) {
        lastError = e;
        if (await applied.count()) return;
        await page.keyboard.press("Escape");
        await page.waitForTimeout(300);
      }
    }
    throw lastError;
  }

  /**
   * Saves a PNG under the results folder and returns its path, after checking that it shows something: the
   * page is not blank and, once the panel was opened in this session, the Toolgate panel is on screen with
   * text in it and ink in its pixels. Throws (failing the scenario) when not. `check: false` only saves
   * (the runner's FAILURE screenshots, which must be saved whatever they show).
   */
  async screenshot(label: string, { check = true }: { readonly check?: boolean } = {}): Promise<string> {
    const path = join(this.env.resultsDir, `${this.name}-${label}.png`);
    const png = await this.page.screenshot({ path });
    if (!check) return path;
    const page = pixelStats(png);
    if (page.stddev < MIN_PAGE_STDDEV)
      throw new Error(`screenshot ${path} is blank (luminance deviation ${page.stddev.toFixed(2)})`);
    const panel = await visibleToolgateFrame(this.page);
    if (!panel) {
      if (this.expectPanel) throw new Error(`screenshot ${path}: the Toolgate panel is not on screen`);
      return path;
    }
    const text = (await panel.frame.locator("body").innerText()).trim();
    if (text.length < MIN_PANEL_TEXT)
      throw new Error(`screenshot ${path}: the Toolgate panel shows ${text.length} characters of text: ${text}`);
    const area = pixelStats(await this.page.screenshot({ clip: panel.box }));
    if (area.inked < MIN_PANEL_INK)
      throw new Error(`screenshot ${path}: the Toolgate panel area is blank (${(area.inked * 100).toFixed(2)}% ink)`);
    return path;
  }

  /** One screenshot per theme (light, then dark); the theme is left at dark. */
  async screenshotBothThemes(label: string, prepare?: () => Promise<void>): Promise<string[]> {
    const shots: string[] = [];
    for (const theme of ["light", "dark"] as const) {
      await this.setTheme(theme);
      if (prepare) await prepare();
      shots.push(await this.screenshot(`${label}-${theme}`));
    }
    return shots;
  }

  /** Reloads the browser window (what "Developer: Reload Window" amounts to in code-server). */
  async reload(): Promise<void> {
    await this.page.reload();
    // The side bar comes back with whatever container was open (often ours), so not the explorer: wait for
    // the workbench parts and the theme instead.
    await this.page.locator(".monaco-workbench .part.activitybar").waitFor({ timeout: 60_000 });
    await this.page.locator(".monaco-workbench .part.statusbar").waitFor({ timeout: 60_000 });
    await this.page
      .locator(
        ".monaco-workbench.vs, .monaco-workbench.vs-dark, .monaco-workbench.hc-black, .monaco-workbench.hc-light",
      )
      .first()
      .waitFor({ timeout: 60_000 });
  }

  extensionHostLog(): string {
    return extensionHostLog(this.userDataDir);
  }

  /** Idempotent: a scenario may close a session early and the runner closes it again. */
  async close(): Promise<void> {
    const context = this.context;
    const server = this.server;
    this.context = undefined;
    this.server = undefined;
    try {
      await context?.close();
    } finally {
      await server?.stop();
    }
  }
}
