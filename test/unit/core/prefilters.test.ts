import fc from "fast-check";
import ignore from "ignore";
import { Minimatch } from "minimatch";
import { describe, expect, it } from "vitest";
import { GLOB_PREFILTER_FLAGS, globPrefilterSource } from "../../../src/core/globPrefilter";
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
  "k",
  "s*",
  "a?",
  "a]",
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
  // Unicode case folding (ſ is s, K is k) and a code point that takes two UTF-16 units.
  "\u017Frc",
  "\u212A",
  "a\u{1F600}",
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
          expect(
            new RegExp(globPrefilterSource(pattern), GLOB_PREFILTER_FLAGS).test(subject),
            `${pattern} ~ ${subject}`,
          ).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it("a glob pre-filter that accepts a path accepts it with a `/` appended (so only that form is tested)", () => {
    fc.assert(
      fc.property(glob, relPath, (g, p) => {
        const re = new RegExp(globPrefilterSource(g.replace(/^\//, "")), GLOB_PREFILTER_FLAGS);
        if (re.test(p)) expect(re.test(p + "/"), `${g} ~ ${p}/`).toBe(true);
      }),
      { numRuns: 3000 },
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
