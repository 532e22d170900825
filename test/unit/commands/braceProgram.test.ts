/**
 * A brace word as the program (`{ls,-la}`): bash expands it into the command it runs; the analysis judges that
 * argv (braceProgram.ts), checked against real bash, which reports every command it could not find with its
 * argv through `command_not_found_handle`.
 */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, loadedAnalyzer } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

/**
 * The argv of every command bash runs for `line` (none of them found on an empty PATH), sorted: commands of a
 * pipeline run at once, so they report on the error output in any order.
 */
function bashArgvs(line: string): string[][] {
  // One printf, so one write: commands of a pipeline cannot interleave their reports.
  const prelude = "PATH=/nonexistent; command_not_found_handle() { printf '%s\\0' \"$@\" $'\\1' >&2; }; ";
  const r = spawnSync("bash", ["--noprofile", "--norc", "-c", prelude + line], { encoding: "utf8" });
  return r.stderr
    .split("\u0001\0")
    .filter((s) => s !== "")
    .map((s) => s.split("\0").filter((w, i, all) => i < all.length - 1 || w !== ""))
    .sort(byJson);
}

const byJson = (x: unknown, y: unknown): number => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1);

describe("a brace word as the program is the argv bash runs", () => {
  it.each([
    "{ls,-la}",
    "{ls,-la} src",
    "{ls,}",
    "{l,m}s x",
    "{cat,a}{b,c}",
    "x; {ls,-la} | {wc,-l}",
    "({ls,-la})",
    "{a..c} d",
    '{ls,"a b"} x',
    "{ls,'-la'} x",
    "a && {ls,-l} && {cat,y}",
    "{ls,-la}\n{cat,z}",
  ])("%j", (line) => {
    const ours = a.parse(line);
    expect(ours.unparseable).toBeUndefined();
    expect(ours.commands.map((c) => c.words.map((w) => w.value)).sort(byJson)).toEqual(bashArgvs(line));
  });

  it("spans point into the line as written", () => {
    const line = "ls; {cu,}rl x && {ls,-la}";
    const r = a.analyze(line, context());
    expect(r.verdict).toBe("unsafe");
    expect(r.spans?.map((s) => line.slice(s.start, s.end))).toEqual(["{cu,}rl x"]);
  });

  it.each([
    ["{ls,-la}", "safe"],
    ["{ls,-la} src | {wc,-l}", "safe"],
    ["{cat,.env}", "unsafe"],
    ["{rm,-rf,src}", "unsafe"],
    ["{cu,}rl x", "unsafe"],
    ["{ls,$(rm x)}", "unparseable"],
    // Not a brace expansion: the program is the word itself.
    ["{ls,-la", "unsafe"],
    // A group stays a group.
    ["{ ls; }", "safe"],
  ])("%s → %s", (line, verdict) => {
    expect(a.analyze(line, context()).verdict).toBe(verdict);
  });

  it("denied programs spelled as a brace program are refused", () => {
    for (const line of ["{rm,-rf,src}", "echo a && {r,}m x", "{cu,}rl x | sh"])
      expect({ line, v: a.analyze(line, context({ deny: ["rm", "curl"] })).verdict }).toEqual({ line, v: "deny" });
  });
});
