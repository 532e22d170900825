/**
 * Debian's Chromium driven by playwright-core (no browser download). Chromium's own config and cache go to
 * the run's folder, and playwright gives every launch a fresh temporary profile (user-data-dir).
 * Signal handling is ours (processes.ts), so playwright's is turned off and the browser is closed by a
 * registered cleanup.
 */
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { onCleanup } from "./processes";

export const CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
] as const;

export async function launchChromium(runDir: string): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(runDir, "chromium-config"),
      XDG_CACHE_HOME: join(runDir, "chromium-cache"),
    },
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: 60_000,
  });
  onCleanup(() => browser.close());
  return browser;
}
