/**
 * A recursive read that selects files by name (`rg -g GLOB`, `grep -r --include=GLOB`) does not ask for an
 * ignored file below it that the selection provably leaves out, and still asks whenever the selection could
 * take one in (a glob that matches it, a glob in a dialect Toolgate does not read, an `--exclude` first, a
 * glob the shell may expand). Judged by the real path gate over the real workspace of helpers.ts, whose
 * `.env` and `secrets/key.pem` lie below `.`; every grep line is also run by the real GNU grep there.
 */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, loadedAnalyzer, WS } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

const SAFE = [
  "rg -g '*.ts' foo",
  "rg -l 'foo|bar' -g '*.ts'",
  "rg --iglob '*.TS' foo",
  "rg -g '*.ts' -g '!*.md' foo",
  "rg -g '*.ts' foo . src",
  "grep -r --include='*.ts' foo .",
  'grep -rn foo --include="*.ts" .',
  "grep -r --include='*.ts' --exclude='*.md' foo .",
  "grep -r --inc='*.ts' foo",
  "grep -d recurse --include='*.md' --include='*.ts' foo .",
];

const ASKS = [
  // A glob that matches an ignored file, or everything.
  "rg -g '*.pem' foo",
  "rg -g '*' foo",
  "grep -r --include='*.pem' foo .",
  "grep -r --include='.e*' foo .",
  "grep -r --include='*.ts' --include='*env' foo .",
  // Globs Toolgate does not read: braces and sets select more than they seem to.
  "rg -g '*.{ts,pem}' foo",
  "grep -r --include='*.[tp][se]*' foo .",
  // Only `!` globs: everything else is read.
  "rg -g '!*.md' foo",
  // An `--exclude` first: GNU grep then reads every file no option matches.
  "grep -r --exclude='*.md' --include='*.ts' foo .",
  "grep -r --exclude-from=list.txt --include='*.ts' foo .",
  // The `-g` is the pattern here, not an option.
  "rg -e -g '*.ts' .",
  "grep -r -e --include='*.ts' .",
  // Unquoted, the shell may expand the option itself.
  "grep -r --include=*.ts foo .",
  "rg --glob=*.ts foo",
  // Without a selection, or with another one for the same tree in the same line.
  "grep -r foo .",
  "rg foo",
  "rg -g '*.ts' foo; rg -g '*.pem' foo",
  "grep -r --include='*.ts' foo . && grep -r --include='*.pem' foo .",
];

describe("recursive reads that select files by name", () => {
  it.each(SAFE)("%j is safe: no ignored file is selected", (line) => {
    const r = a.analyze(line, context());
    expect(r.verdict, `${r.reason} [${r.rule}]`).toBe("safe");
  });
  it.each(ASKS)("%j asks", (line) => {
    const r = a.analyze(line, context());
    expect(r.verdict, `${r.reason} [${r.rule}]`).not.toBe("safe");
  });
});

const grepPath = spawnSync("bash", ["-c", "command -v grep"], { encoding: "utf8" }).stdout.trim();
const gnuGrep = grepPath !== "" && /GNU grep/.test(spawnSync(grepPath, ["--version"], { encoding: "utf8" }).stdout);

describe("against the real GNU grep", () => {
  /** The files grep reads for `line` in the workspace: `-l` with a pattern every file matches. */
  function filesRead(line: string): string[] {
    const argv = line.replace(/^grep /, "grep -l --null-data -e '' ").replace(/ foo( |$)/, " ");
    const r = spawnSync("bash", ["--norc", "--noprofile", "-c", argv], { cwd: WS, encoding: "utf8" });
    return r.stdout.split(/[\n\0]/).filter(Boolean);
  }
  const lines = [...SAFE, ...ASKS].filter((l) => l.startsWith("grep ") && !l.includes(" -e ") && !l.includes("from"));
  it.skipIf(!gnuGrep).each(lines)("%j: safe only when grep reads no ignored file", (line) => {
    const read = filesRead(line);
    const ignored = read.filter((f) => /(^|\/)(\.env|secrets\/)/.test(f));
    if (a.analyze(line, context()).verdict === "safe") expect(ignored).toEqual([]);
  });
  it.skipIf(!gnuGrep)("the oracle sees ignored files where grep reads them", () => {
    expect(filesRead("grep -r foo .")).toEqual(expect.arrayContaining(["./.env", "./secrets/key.pem"]));
    expect(filesRead("grep -r --exclude='*.md' --include='*.ts' foo .")).toContain("./.env");
  });
});
