/** Temporary folders for a real-agent test file, by real path (agents report realpaths), removed after the file. */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll } from "vitest";

/** Registers the clean-up and returns the maker: `temp(prefix, base = the OS temp folder)`. */
export function tempFolders(): (prefix: string, base?: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  return (prefix, base = tmpdir()) => {
    const d = realpathSync(mkdtempSync(path.join(base, prefix)));
    made.push(d);
    return d;
  };
}
