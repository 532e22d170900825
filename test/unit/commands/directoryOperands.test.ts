/**
 * A reader of named files given a directory (`cat .`, `head src`, `grep x .` without `-r`) reads nothing of
 * it: not a recursive read, so the ignored `.env` and `secrets/key.pem` below the workspace root of
 * helpers.ts do not make it ask. Readers that do read below (`grep -r`, `diff`, `cp -r`, and `find -exec cat
 * {}`, which hands the reader every file found) still ask, and an ignored directory named directly is still
 * refused. The real programs are run there to show they print
 * nothing of what is below.
 */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, loadedAnalyzer, WS } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

const READS_NOTHING = [
  "cat .",
  "cat ./",
  "cat src",
  "head -n 5 .",
  "tail .",
  "wc -l .",
  "sort .",
  "grep foo .",
  "od -c .",
  "sha256sum .",
  `cat ${WS}`,
];

describe("a directory given to a reader of named files", () => {
  it.each(READS_NOTHING)("%j is safe", (line) => {
    const r = a.analyze(line, context());
    expect(r.verdict, `${r.reason} [${r.rule}]`).toBe("safe");
  });

  it.each([
    ["grep -r foo .", "ignoreFile: .toolgateignore"],
    ["diff . src", "ignoreFile: .toolgateignore"],
    ["cat secrets", "ignoreFile: .toolgateignore"],
    ["cat secrets/", "ignoreFile: .toolgateignore"],
  ])("%j still asks or is refused", (line, rule) => {
    expect(a.analyze(line, context())).toMatchObject({ verdict: "unsafe", rule });
  });

  describe("find -exec hands it every file below the start point", () => {
    const lines: [string, "safe" | "asks"][] = [
      ["find . -exec cat {} +", "asks"],
      ["find . -type f -exec head -n 1 {} \\;", "asks"],
      ["find . -exec grep -l TOKEN {} +", "asks"],
      ["find . -exec sha256sum {} +", "asks"],
      ["find src -exec cat {} +", "safe"],
      ["find . -exec ls -d {} +", "safe"],
      ["find . -exec stat -c %n {} +", "safe"],
      // A conjunction of `-name` tests selects what the reader gets; `-o`, `!` or a glob that matches undo it.
      ["find . -name '*.ts' -exec grep -l foo {} +", "safe"],
      ["find . -type f -iname '*.TS' -exec cat {} +", "safe"],
      ["find . -name '*.ts' -o -name '*.pem' -exec cat {} +", "asks"],
      ["find . ! -name '*.ts' -exec cat {} +", "asks"],
      ["find . -name '*.pem' -exec cat {} +", "asks"],
      ["find . -name '.e*' -exec cat {} +", "asks"],
      ["find . -exec cat {} + -name '*.ts'", "asks"],
      ["find . -name '*.[tp]*' -exec cat {} +", "asks"],
    ];
    it.each(lines)("%j %s", (line, expected) => {
      const r = a.analyze(line, context({ allow: ["find"] }));
      if (expected === "safe") expect(r.verdict, `${r.reason} [${r.rule}]`).toBe("safe");
      else expect(r).toMatchObject({ verdict: "unsafe", rule: "ignoreFile: .toolgateignore" });
    });
    it.each(lines)("%j run by the real find prints ignored contents only where it asks", (line, expected) => {
      const out = spawnSync("bash", ["--norc", "--noprofile", "-c", line], { cwd: WS, encoding: "utf8" }).stdout;
      if (expected === "safe") expect(out).not.toMatch(/TOKEN|key\n/);
      if (line.startsWith("find . -exec cat") || line.includes("head")) expect(out).toMatch(/TOKEN/);
      if (line.includes("'*.pem' -exec cat") || line.includes("'.e*'")) expect(out).toMatch(/TOKEN|key/);
    });
  });

  it("a tree copied whole is still read below", () => {
    expect(a.analyze("cp -r . ../out", context({ allow: ["cp"] })).verdict).toBe("unsafe");
    expect(a.analyze("cp -r . out", context({ allow: ["cp"] }))).toMatchObject({ rule: "ignoreFile: .toolgateignore" });
  });

  it.each(READS_NOTHING)("%j run by the real program prints nothing of the files below", (line) => {
    const r = spawnSync("bash", ["--norc", "--noprofile", "-c", line], { cwd: WS, encoding: "utf8" });
    expect(r.stdout).not.toMatch(/TOKEN|key|export const/);
  });
});
