/**
 * The CLI as `esbuild.mjs --only=cli` really builds it (the small entry and one bundle per command) in a private
 * folder, beside a temp tree with a workspace (`ws/src/a.ts`) and a home; both removed after the test file.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { tempTree, type TempTree } from "./workspace";

export interface CliBuild {
  /** The build's folder (`cli.js` and the `cli-<command>.js` bundles). */
  readonly out: string;
  readonly t: TempTree;
}

export function splitCliBuild(): CliBuild {
  const t = tempTree({ "ws/src/a.ts": "export const a = 1;\n", "home/.keep": "" });
  const out = mkdtempSync(path.join(tmpdir(), "toolgate-dist-"));
  beforeAll(() => {
    const r = spawnSync(process.execPath, ["esbuild.mjs", "--only=cli", `--outdir=${out}`], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  }, 120_000);
  afterAll(() => {
    t.cleanup();
    rmSync(out, { recursive: true, force: true });
  });
  return { out, t };
}
