import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** A throwaway directory tree for tests: `files` maps relative paths to contents, `links` to link targets. */
export interface TempTree {
  readonly dir: string;
  path(rel: string): string;
  cleanup(): void;
}

export function tempTree(files: Record<string, string> = {}, links: Record<string, string> = {}): TempTree {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-test-")));
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    if (rel.endsWith("/")) mkdirSync(p, { recursive: true });
    else writeFileSync(p, content);
  }
  for (const [rel, target] of Object.entries(links)) {
    const p = path.join(dir, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    symlinkSync(path.isAbsolute(target) ? target : path.join(dir, target), p);
  }
  return { dir, path: (rel) => path.join(dir, rel), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
