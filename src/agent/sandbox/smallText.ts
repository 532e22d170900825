/**
 * Small text files as the person's keep-or-undo ask shows them: the first lines of a planted hook or a new
 * settings file, and the whole of a changed file for its diff. The final component is never followed.
 */
import { lstatSync, readFileSync } from "node:fs";
import { KEEP_CONTENT_BYTES } from "./protectedSnapshot";

const PREVIEW_BYTES = 4096;
const PREVIEW_LINES = 8;
const PREVIEW_LINE_CHARS = 120;

/** A small text file's content now (at most the kept size; no NUL). */
export function readSmallText(abs: string): string | undefined {
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size > KEEP_CONTENT_BYTES) return undefined;
  let data: Buffer;
  try {
    data = readFileSync(abs);
  } catch {
    return undefined;
  }
  return data.includes(0) ? undefined : data.toString("utf8");
}

/**
 * The first lines of a small text file as it is now (a planted hook, a new settings file), for the person's
 * ask; undefined for a directory, a link, a large or binary file.
 */
export function textPreview(abs: string): string | undefined {
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size > PREVIEW_BYTES) return undefined;
  let data: Buffer;
  try {
    data = readFileSync(abs);
  } catch {
    return undefined;
  }
  if (data.includes(0)) return undefined;
  const lines = data.toString("utf8").split("\n");
  const shown = lines
    .slice(0, PREVIEW_LINES)
    .map((l) => (l.length > PREVIEW_LINE_CHARS ? l.slice(0, PREVIEW_LINE_CHARS) + "…" : l));
  const more = lines.length > PREVIEW_LINES && lines.slice(PREVIEW_LINES).some((l) => l !== "");
  return (shown.join("\n") + (more ? "\n…" : "")).trimEnd();
}
