/**
 * Finding the Toolgate webview. VS Code renders a webview as two nested iframes: an outer `webview` frame
 * whose URL carries `extensionId=<publisher.name>`, and inside it the `active-frame` that holds the
 * extension's own document. We return that inner frame once our root element is in it.
 */
import type { Frame, Page } from "playwright-core";

export const EXTENSION_ID = "toolgate.toolgate";
/** The element the webview's index.html renders into (src/host/webviewHtml.ts). */
export const ROOT_SELECTOR = "#root";

async function hasRoot(frame: Frame, selector: string): Promise<boolean> {
  try {
    return (await frame.$(selector)) !== null;
  } catch {
    return false; // frame navigating or detached
  }
}

function isOurs(frame: Frame): boolean {
  for (let f: Frame | null = frame; f; f = f.parentFrame()) {
    if (f.url().includes(`extensionId=${EXTENSION_ID}`)) return true;
  }
  return false;
}

/**
 * Waits for the Toolgate webview frame. When several are open (the sidebar view and an editor-tab panel),
 * the first whose document matches `selector` wins: pass a narrower selector to pick one.
 */
export async function toolgateFrame(page: Page, { selector = ROOT_SELECTOR, timeoutMs = 30_000 } = {}): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (isOurs(frame) && (await hasRoot(frame, selector))) return frame;
    }
    if (Date.now() > deadline) {
      const urls = page.frames().map((f) => f.url().slice(0, 160));
      throw new Error(
        `no Toolgate webview frame with ${selector} within ${timeoutMs} ms; frames:\n  ${urls.join("\n  ")}`,
      );
    }
    await page.waitForTimeout(250);
  }
}

/** The Toolgate webview frame that is on screen now, with its box in page coordinates; no waiting. */
export async function visibleToolgateFrame(
  page: Page,
): Promise<{ frame: Frame; box: { x: number; y: number; width: number; height: number } } | undefined> {
  for (const frame of page.frames()) {
    if (!isOurs(frame) || !(await hasRoot(frame, ROOT_SELECTOR))) continue;
    const box = await (await frame.frameElement()).boundingBox().catch(() => null);
    if (box && box.width > 50 && box.height > 50) return { frame, box };
  }
  return undefined;
}
