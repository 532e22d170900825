import fc from "fast-check";
import ignore from "ignore";
import { Minimatch } from "minimatch";
import { describe, expect, it } from "vitest";
import { globPrefilterSource } from "../../../src/core/globPrefilter";
import { ignorePrefilter } from "../../../src/core/ignorePrefilter";

/** The pre-filters may only say "maybe" too often, never "no" for a path the exact matcher matches. */
const seg = fc.constantFrom(
  "a",
  "b",
  "src",
  ".env",
  "x.ts",
  ".git",
  "node_modules",
  "A",
  "dir",
  "*.ts",
  "*",
  "?",
  "[ab]",
  "**",
  "x*",
  ".*",
);
const pathSeg = fc.constantFrom(
  "a",
  "b",
  "src",
  ".env",
  "x.ts",
  ".git",
  "node_modules",
  "A",
  "dir",
  "y.js",
  "ab",
  "xx.ts",
);
const glob = fc
  .tuple(fc.boolean(), fc.array(seg, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([lead, parts, trail]) => (lead ? "/" : "") + parts.join("/") + (trail ? "/" : ""));
const relPath = fc.array(pathSeg, { minLength: 1, maxLength: 5 }).map((p) => p.join("/"));

describe("sound pre-filters", () => {
  it("glob pre-filter never rejects a path minimatch accepts", () => {
    fc.assert(
      fc.property(glob, relPath, fc.boolean(), (g, p, slash) => {
        const pattern = g.replace(/^\//, "");
        const mm = new Minimatch(pattern, { dot: true, nocase: true });
        const subject = slash ? p + "/" : p;
        if (mm.match(subject))
          expect(new RegExp(globPrefilterSource(pattern), "i").test(subject), `${pattern} ~ ${subject}`).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it("ignore pre-filter never rejects a path the ignore file ignores", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            glob,
            glob.map((g) => "!" + g),
            fc.constant("# c"),
          ),
          { minLength: 1, maxLength: 5 },
        ),
        relPath,
        (lines, p) => {
          const text = lines.join("\n");
          const ig = ignore().add(text);
          const pre = ignorePrefilter(text);
          if (pre && (ig.ignores(p) || ig.ignores(p + "/")))
            expect(pre.test(p), `${JSON.stringify(lines)} ~ ${p}`).toBe(true);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
