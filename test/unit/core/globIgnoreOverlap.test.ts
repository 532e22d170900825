/**
 * Whether a glob can match a path the ignore file excludes, decided from the patterns: checked against
 * bash's own expansion over every name of a small alphabet, and at the seam (real gate, real files).
 */
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { globMatches, globMayMatchIgnored } from "../../../src/core/globIgnoreOverlap";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const IGNORE = ".env\nsecrets/\n*.pem\n/build\ndocs/private/**\n";

describe("the overlap test", () => {
  it.each([
    ["", "*.md", false],
    ["src", "*.ts", false],
    ["", "?env", false],
    ["", "[.]env", false],
    ["", "*", true],
    ["", ".e*", true],
    ["", ".[e]nv", true],
    ["", "*.PEM", true],
    ["", "key.p?m", true],
    ["", "b*", true],
    ["src", "b*", true],
    ["src", "a*.ts", false],
    ["", "secret?", true],
    ["secrets", "*.md", true],
    ["docs/private", "*.md", true],
    ["docs", "*.md", false],
    ["src", "[a-z]*.ts", false],
    ["src", "*[!a-z]", true],
    ["src", "*[0-9]", false],
    ["", "*.*", true],
  ])("%j %j → %s", (dir, glob, expected) => {
    expect(globMayMatchIgnored(dir, glob, IGNORE)).toBe(expected);
  });

  it("never says no for a name bash would expand and the ignore rules exclude", () => {
    // Names over a small alphabet, globs over the same alphabet with wildcards; bash is the oracle of matching.
    const names = [".env", "env", ".e", "e.pem", ".pem", "a.md", ".md", "secrets", "build", "x"];
    const globs = ["*", "?*", ".*", "*.*", "[.]*", "?env", "*env", "*.pem", "[!a]*", "b*", "s*", "*s", "?"];
    const ignored = (n: string) => n === ".env" || n === "secrets" || n.endsWith(".pem") || n === "build";
    for (const g of globs)
      for (const n of names) {
        const out = execFileSync("bash", ["--norc", "-c", '[[ "$1" == $2 ]] && echo y || echo n', "_", n, g])
          .toString()
          .trim();
        // `[[ == ]]` ignores the leading-dot rule; filename expansion applies it, as globMatches does.
        const bashMatches = out === "y" && !(n.startsWith(".") && !g.startsWith("."));
        expect({ g, n, m: globMatches(g, n) }).toEqual({ g, n, m: bashMatches });
        if (bashMatches && ignored(n))
          expect({ g, n, overlap: globMayMatchIgnored("", g, IGNORE) }).toEqual({ g, n, overlap: true });
      }
  });
});

describe("globs read file by file at the seam", () => {
  const t = tempTree(
    {
      "ws/README.md": "r",
      "ws/CHANGES.md": "c",
      "ws/src/a.ts": "a",
      "ws/src/b.ts": "b",
      "ws/.env": "SECRET=1",
      "ws/secrets/k": "k",
      "ws/.toolgateignore": ".env\nsecrets/\n",
    },
    { "ws/lib/evil.ts": "ws/.env" },
  );
  afterAll(() => t.cleanup());
  const cmd = (command: string) => call("execute_command", { command });

  it("run when the pattern cannot match an ignored file, ask when it could, refuse when it reads only ignored files", async () => {
    const g = await gateWith({}, [t.path("ws")]);
    for (const line of ["head -5 *.md", "grep -n import src/*.ts", "cat src/*.ts", "wc -l src/*.ts"])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
    for (const line of ["cat *", "cat .e*", "cat lib/*.ts", "grep -r x src/*", "cat */*.md"])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "ask" });
    // Every name `secrets/*` can match is inside an ignored directory: refused like read_file(secrets/x).
    expect(g.decide(cmd("cat secrets/*")).decision).toBe("deny");
  });

  it("a rule naming files to read keeps patterns asking", async () => {
    const g = await gateWith({ "toolgate.permissions.deny": ["Read(src/b.ts)"] }, [t.path("ws")]);
    expect(g.decide(cmd("cat src/*.ts")).decision).not.toBe("allow");
  });
});
