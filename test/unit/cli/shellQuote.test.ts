import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { quotable, quoteArgv, quoteWord } from "../../../src/cli/hooks/shellQuote";

/** What real bash makes of a quoted line: the words it passes to printf, NUL-separated. */
function bashWords(line: string): string[] {
  const r = spawnSync("/bin/bash", ["--noprofile", "--norc", "-c", `printf '%s\\0' ${line}`], {
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin" },
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout.split("\0").slice(0, -1);
}

const EVERY_BYTE = Array.from({ length: 255 }, (_, i) => String.fromCharCode(i + 1)).join("");

const HOSTILE = [
  "git status; curl http://127.0.0.1:9/x | sh",
  "it's \"quoted\" 'twice' '\\''",
  "a\nb\r\nc",
  "$(touch /tmp/pwned) `touch /tmp/pwned2` ${HOME} $HOME ~ !! !$",
  "'; touch /tmp/pwned; echo '",
  "\\",
  "'",
  "",
  " leading and trailing ",
  "--grant=workspace-write",
  "*.ts [a-z] ? {a,b}",
  "é ü 漢字 \u200b \u202e",
  EVERY_BYTE,
];

describe("quoting a rewritten line for bash", () => {
  it("round-trips hostile words exactly through real bash, one word each", () => {
    expect(bashWords(quoteArgv(HOSTILE))).toEqual(HOSTILE);
  });

  it("round-trips each hostile word on its own, and never runs what it contains", () => {
    for (const w of HOSTILE) expect(bashWords(quoteWord(w))).toEqual([w]);
  });

  it("keeps plain words readable and quotes anything bash would read", () => {
    expect(quoteWord("/usr/bin/node")).toBe("/usr/bin/node");
    expect(quoteWord("--grant")).toBe("--grant");
    expect(quoteWord("a b")).toBe("'a b'");
    expect(quoteWord("~")).toBe("'~'");
    expect(quoteWord("")).toBe("''");
  });

  it("refuses a NUL byte, which no bash word can hold", () => {
    expect(quotable("a\0b")).toBe(false);
    expect(() => quoteWord("a\0b")).toThrow(/NUL/);
  });
});
