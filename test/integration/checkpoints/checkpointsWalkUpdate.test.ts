/**
 * `RootWalker.update` re-lists only the directories a change signal names; its result must equal a full walk
 * of the same tree. Random edits (files and folders created, removed, renamed, grown past the size cap, links,
 * .gitignore and ignore-file rules changed) on a real tree, each batch checked against a fresh full walk.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RootWalker, type WalkOptions, type WalkResult } from "../../../src/agent/checkpoints/walk";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import { tempDir, write } from "./checkpointsFixture";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The directory (walk form: `a/b/`, "" for the root) whose listing a change of `rel` alters. */
const parentOf = (rel: string): string => {
  const i = rel.replace(/\/$/, "").lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i + 1);
};

const comparable = (w: WalkResult) => ({
  files: w.files,
  skipped: [...w.skippedPaths].map((s) => `${s.reason}:${s.path}`).sort(),
  counts: w.counts,
  truncated: w.truncated,
});

describe("incremental walk", () => {
  it("equals a full walk after random edits, and names every path git must look at again", async () => {
    const root = tempDir();
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const rand = rng(42);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const dirs = ["", "a/", "a/b/", "c/", "c/d/", "node_modules/", "e/"];
    for (const d of dirs) for (let f = 0; f < 4; f++) write(root, `${d}f${f}.txt`, `${d}${f}\n`);
    write(root, "a/.gitignore", "*.log\nbuild/\n");
    const ignore = IgnoreRules.fromContents(".toolgateignore", ["secret*\n"]);
    const o: WalkOptions = { root, rootIndex: 0, ignore, includeGitignored: false, maxFileBytes: 64, maxFiles: 1e6 };
    const walker = new RootWalker(o);
    await walker.full();
    let n = 0;
    let inPlace = 0;
    for (let batch = 0; batch < 60; batch++) {
      const dirty = new Set<string>();
      const changed = new Set<string>();
      for (let k = 0; k < 1 + Math.floor(rand() * 4); k++) {
        const d = pick(dirs);
        const name = pick(["x.txt", "y.log", "secret.txt", "big.txt", "sub", "build", "ln", ".gitignore", "f1.txt"]);
        const rel = d + name;
        const abs = path.join(root, rel);
        const op = Math.floor(rand() * 5);
        rmSync(abs, { recursive: true, force: true });
        if (op === 0) {
          // removed (done above)
        } else if (name === "sub" || name === "build") {
          mkdirSync(abs, { recursive: true });
          writeFileSync(path.join(abs, `n${n++}.txt`), "in a new folder\n");
        } else if (name === "ln") symlinkSync(pick(["f0.txt", "../f0.txt", "missing"]), abs);
        else if (name === ".gitignore") writeFileSync(abs, pick(["*.txt\n", "!f1.txt\n*.txt\n", "sub/\n", ""]));
        else if (name === "big.txt") writeFileSync(abs, "x".repeat(op === 1 ? 10 : 100));
        else writeFileSync(abs, `v${n++}\n`);
        if (op === 4 && name === "sub") {
          rmSync(path.join(root, d, "moved"), { recursive: true, force: true });
          renameSync(abs, path.join(root, d, "moved"));
          dirty.add(d);
        }
        dirty.add(parentOf(rel));
        changed.add(rel);
      }
      const updated = await walker.update(dirty);
      const full = await new RootWalker(o).full();
      if (updated === undefined) {
        // Allowed only when the walk could not be updated in place; the next batch starts from a full walk.
        await walker.full();
        continue;
      }
      inPlace++;
      expect(comparable(updated)).toEqual(comparable(full));
      for (const f of full.files)
        if ([...changed].some((c) => f === c || f.startsWith(c + "/"))) expect(updated.touched).toContain(f);
    }
    // Most batches are updated in place (giving up is allowed, but must not be the common case).
    expect(inPlace).toBeGreaterThan(45);
  });

  it("a re-listed directory that vanished makes the update give up (a full walk follows)", async () => {
    const root = tempDir();
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    write(root, "a/b/c.txt", "c\n");
    const o: WalkOptions = {
      root,
      rootIndex: 0,
      ignore: IgnoreRules.empty(".toolgateignore"),
      includeGitignored: false,
      maxFileBytes: 1e6,
      maxFiles: 1e6,
    };
    const walker = new RootWalker(o);
    await walker.full();
    rmSync(path.join(root, "a/b"), { recursive: true });
    expect(await walker.update(new Set(["a/b/"]))).toBeUndefined();
    const w = new RootWalker(o);
    await w.full();
    expect((await w.update(new Set(["a/"])))?.files).toEqual([]);
  });
});
