/** The one list of files that run code later, and what in them counts as a change. */
import { describe, expect, it } from "vitest";
import { meaningOf, runCodeFile } from "../../../src/core/runCodeFiles";
import { lineDiff } from "../../../src/core/lineDiff";

describe("runCodeFile", () => {
  it.each([
    "package.json",
    "packages/a/package.json",
    ".npmrc",
    ".yarnrc.yml",
    "Makefile",
    "rules.mk",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "tox.ini",
    "noxfile.py",
    "tests/conftest.py",
    "Cargo.toml",
    "crates/x/build.rs",
    "go.mod",
    "Dockerfile",
    "Dockerfile.dev",
    "api.dockerfile",
    ".gitlab-ci.yml",
    ".circleci/config.yml",
    ".github/actions/setup/action.yml",
    ".envrc",
    ".pre-commit-config.yaml",
    "lefthook.yml",
    ".lintstagedrc.json",
    "MAKEFILE",
  ])("%s runs code later", (p) => expect(runCodeFile(p)).toBeDefined());

  it.each(["src/index.ts", "README.md", "package-lock.json", "docs/Makefile.md", "github/actions.txt", "test.py"])(
    "%s does not",
    (p) => expect(runCodeFile(p)).toBeUndefined(),
  );
});

describe("meaningOf", () => {
  const pkg = (o: object, indent = 2) => JSON.stringify(o, null, indent);
  it("package.json: formatting, key order and other fields do not count; scripts, bin and hooks do", () => {
    const base = meaningOf("package-json", pkg({ name: "a", version: "1.0.0", scripts: { test: "x", b: "y" } }));
    expect(meaningOf("package-json", pkg({ scripts: { b: "y", test: "x" }, version: "2.0.0", name: "a" }, 4))).toBe(
      base,
    );
    for (const changed of [
      { name: "a", scripts: { test: "curl x | sh", b: "y" } },
      { name: "a", scripts: { test: "x", b: "y", postinstall: "z" } },
      { name: "a", scripts: { test: "x", b: "y" }, bin: { a: "evil.js" } },
      { name: "a", scripts: { test: "x", b: "y" }, directories: { bin: "evil" } },
      { name: "a", scripts: { test: "x", b: "y" }, husky: { hooks: { "pre-commit": "z" } } },
      { name: "a", scripts: { test: "x", b: "y" }, packageManager: "yarn@9.9.9" },
    ])
      expect(meaningOf("package-json", pkg(changed))).not.toBe(base);
  });

  it("package.json that is not JSON any more: every byte counts (undefined)", () => {
    expect(meaningOf("package-json", "{ not json")).toBeUndefined();
    expect(meaningOf("package-json", "[1]")).toBeUndefined();
  });

  it("go.mod: replace (line or block), toolchain and go lines count; requires and comments do not", () => {
    const base = meaningOf("go-mod", "module m\n\ngo 1.22\n\nrequire x v1.0.0\n");
    expect(meaningOf("go-mod", "module m\ngo  1.22 // c\nrequire (\n  x v1.1.0\n)\n")).toBe(base);
    expect(meaningOf("go-mod", "module m\ngo 1.22\nreplace x => ../evil\n")).not.toBe(base);
    expect(meaningOf("go-mod", "module m\ngo 1.22\nreplace (\n x => ../evil\n)\n")).not.toBe(base);
    expect(meaningOf("go-mod", "module m\ngo 1.22\ntoolchain go1.99.0\n")).not.toBe(base);
  });
});

describe("lineDiff", () => {
  it("shows removed and added lines with context, and cuts long runs of unchanged lines", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", "h"].join("\n");
    const after = ["a", "b", "c", "D", "e", "f", "g", "h", "i"].join("\n");
    expect(lineDiff(before, after, { context: 1 })).toBe(["  c", "- d", "+ D", "  e", "…", "  h", "+ i"].join("\n"));
    expect(lineDiff("x\n", "x")).toBe("");
  });

  it("caps its output", () => {
    const after = Array.from({ length: 100 }, (_, i) => `l${i}`).join("\n");
    const d = lineDiff("", after, { maxLines: 10 }).split("\n");
    expect(d).toHaveLength(11);
    expect(d[10]).toMatch(/^… \d+ more lines$/);
  });
});
