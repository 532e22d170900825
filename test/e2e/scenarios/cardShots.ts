/**
 * Screenshots of the side bar alone (the Toolgate panel at the workbench's default side bar width), next to the
 * full-page ones the session takes: the approval card is read at that width, so that is where it is checked.
 */
import type { Session } from "../harness/session";
import { visibleToolgateFrame } from "../harness/webview";

/** The panel's width on screen (CSS pixels), for the report. */
export async function panelWidth(session: Session): Promise<number> {
  const panel = await visibleToolgateFrame(session.page);
  return Math.round(panel?.box.width ?? 0);
}

/** Full page and side bar, light and dark; returns every path. The theme is left at dark. */
export async function cardShots(session: Session, label: string): Promise<string[]> {
  const shots: string[] = [];
  for (const theme of ["light", "dark"] as const) {
    await session.setTheme(theme);
    const full = await session.screenshot(`${label}-${theme}`);
    shots.push(full);
    const panel = await visibleToolgateFrame(session.page);
    if (panel) {
      const path = full.replace(/\.png$/, "-panel.png");
      await session.page.screenshot({ path, clip: panel.box });
      shots.push(path);
    }
  }
  return shots;
}
