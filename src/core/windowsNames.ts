/**
 * Windows reaches a file by more spellings than its name: it drops a component's trailing dots and blanks and
 * reads `name:stream` as the file `name` (`.git./hooks`, `.vscode /settings.json`, `tasks.json::$DATA`). The
 * gate matches such spellings as the name they reach as well, on every platform (elsewhere they only add asks).
 */

const ODD = /[. ](?:[/\\]|$)|:[^/\\]*(?:[/\\]|$)/;

/** The name Windows reaches for `path`, or undefined when `path` has no such component. A drive (`C:`) stays. */
export function windowsSpelling(path: string): string | undefined {
  const drive = /^[A-Za-z]:/.exec(path)?.[0] ?? "";
  const body = path.slice(drive.length);
  if (!ODD.test(body)) return undefined;
  return drive + body.replace(/:[^/\\]*(?=[/\\]|$)/g, "").replace(/[. ]+(?=[/\\]|$)/g, "");
}
