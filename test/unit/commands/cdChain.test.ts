/**
 * `cd` is followed through a line: after `cd DIR &&` what the chain runs runs in DIR only (the cd succeeded);
 * after `;`, a newline, `||`, a pipe or a negation the line may be in DIR or where it was.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, loadedAnalyzer, WS, type RecordingPathGate } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

function judge(command: string) {
  return a.analyze(command, context({ allow: ["ls", "cat"] }));
}

/** The directories `path` was checked from. */
function checkedFrom(command: string, path: string): string[] {
  const ctx = context();
  a.analyze(command, ctx);
  return (ctx.paths as RecordingPathGate).calls.filter((c) => c.path === path).map((c) => c.cwd);
}

describe("cd through a line", () => {
  it.each([
    "cd src && cat ../package.json",
    "cd src && cat a.ts && cat ../package.json",
    "cd src && cat ../package.json | wc -l",
    "cd src &&\n  cat ../package.json",
    "ls && cd src && cat ../package.json",
    "(cd src && cat ../package.json)",
    "cd src && cd lib && cat ../../package.json",
    "cd ~+/src && cat ../package.json",
  ])("%j is judged inside the workspace", (command) => {
    expect(judge(command).verdict).toBe("safe");
  });

  it("after `cd DIR &&` the chain is checked from DIR only", () => {
    expect(checkedFrom("cd src && cat ../package.json", "../package.json")).toEqual([`${WS}/src`]);
  });

  it.each([
    "cd src; cat ../package.json",
    "cd src\ncat ../package.json",
    "cd src || cat ../package.json",
    "cd src && cat a.ts || cat ../package.json",
    "cd src && cat a.ts; cat ../package.json",
    "ls | cd src && cat ../package.json",
    "! cd src && cat ../package.json",
    "ls || cd src && cat ../package.json",
    "(cd src) && cat ../package.json",
    'echo "$(cd src)" && cat ../package.json',
    "if cd src && ls; then :; fi; cat ../package.json",
    "for d in src; do cd $d && cat ../package.json; done",
  ])("%j keeps the old directory too", (command) => {
    expect(judge(command).verdict).not.toBe("safe");
  });

  it("a cd that may fail is still checked from both directories", () => {
    expect(checkedFrom("cd src; cat ../package.json", "../package.json")).toEqual([WS, `${WS}/src`]);
    expect(checkedFrom("cd src && ls; cat ../package.json", "../package.json")).toEqual([WS, `${WS}/src`]);
  });
});
