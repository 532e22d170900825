/**
 * Everyday read-only commands that used to ask (issue 20's needless asks): the inspectors and filters of
 * catalogue/inspect.ts and version queries. Each file they read still passes the path gate, and each option
 * that writes (`shuf -o`, `iconv -o`, `xxd IN OUT`) is a write the gate checks.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, loadedAnalyzer } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});
const judge = (line: string) => {
  const r = a.analyze(line, context());
  return { verdict: r.verdict, readOnly: r.readOnly };
};

describe("read-only inspectors", () => {
  it.each([
    "od -c f",
    "od -An -tx1 -N16 f",
    "od --read-bytes=16 f",
    "od -w8 f",
    "xxd f",
    "xxd -l 64 f",
    "xxd -c8 -g1 f",
    "xxd -ps f",
    "hexdump -C f",
    "hexdump -n 32 -s 4 f",
    "strings f",
    "strings -n 8 f",
    "strings -8 f",
    "base64 f",
    "base64 -d f",
    "base64 --decode -w0 f",
    "cksum f",
    "cksum -a sha256 f",
    "shuf f",
    "shuf -n 3 f",
    "shuf -e a b c",
    "shuf -i 1-10",
    "join a b",
    "join -t, -1 2 -2 1 a b",
    "fmt -w 60 f",
    "fmt -60 f",
    "pr -2 -t f",
    "pr -n f",
    "iconv -f latin1 -t utf-8 f",
    "iconv --from-code=latin1 --to=utf-8 f",
    "iconv -l",
    "expr 1 + 2",
    "factor 12",
    "numfmt --to=iec 2048",
    "ps aux",
    "ps -ef",
    "ps -o pid,cmd -p 1",
    "free -h",
    "free -m",
    "node --version",
    "node -v",
    "python3 --version",
    "python --version",
    "npm --version",
    "npm -v",
    "java -version",
    "git --version",
    "make --version",
    "gcc --version",
    "ls | od -c",
    "cat f | base64 | shuf",
  ])("%s is safe and read-only", (line) => {
    expect(judge(line)).toEqual({ verdict: "safe", readOnly: true });
  });

  it.each([
    "od -c .env",
    "xxd .env",
    "hexdump -C /etc/shadow",
    "strings .env",
    "base64 .env",
    "cksum .env",
    "shuf .env",
    "join a .env",
    "fmt .env",
    "pr .env",
    "iconv -f latin1 -t utf-8 .env",
    "hexdump -f .env f",
    "shuf --random-source=.env f",
    "cksum -c sums",
  ])("%s reads a file the gate refuses (or cannot see): not safe", (line) => {
    expect(judge(line).verdict).not.toBe("safe");
  });

  it.each([
    "shuf -o OUT f",
    "shuf --output=OUT f",
    "shuf --out=OUT f",
    "iconv -f a -t b -o OUT f",
    "iconv -oOUT f",
    "iconv --out=OUT f",
    "xxd f OUT",
    "xxd -r f.hex OUT",
  ])("%s writes OUT: a write through the path gate", (line) => {
    expect(judge(line.replace("OUT", "out"))).toEqual({ verdict: "safe", readOnly: false });
    expect(judge(line.replace("OUT", ".git/hooks/pre-commit")).verdict).toBe("unsafe");
    expect(judge(line.replace("OUT", "/tmp/elsewhere")).verdict).toBe("unsafe");
  });

  it.each(["od --frobnicate f", "xxd -frobnicate f", "xxd a b c", "strings --frob f", "iconv --frob f"])(
    "%s: an option or word the grammar does not know is not vouched for",
    (line) => expect(judge(line).verdict).not.toBe("safe"),
  );

  it.each([
    "node --version x.js",
    "node -v -e 'x'",
    "node -e 'console.log(1)'",
    "python3 --version -c 'import os'",
    "npm --version install",
    "cargo --version",
    "go version",
    "yarn --version",
    "ruby -v",
    "NODE_OPTIONS=--require=./x.js node --version",
  ])("%s is not a bare version query", (line) => {
    expect(judge(line).verdict).not.toBe("safe");
  });
});

const has = (program: string) => spawnSync("bash", ["-c", `command -v ${program}`]).status === 0;
describe.skipIf(!has("xxd") || !has("shuf") || !has("iconv"))("the writes are the real programs'", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-readers-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it.each(["xxd f out", "xxd -r f.hex out", "shuf -o out f", "shuf --out=out f", "iconv -f utf-8 -t utf-8 -oout f"])(
    "%s creates out",
    (line) => {
      writeFileSync(join(dir, "f"), "hello\n");
      writeFileSync(join(dir, "f.hex"), "00000000: 6869 0a  hi.\n");
      rmSync(join(dir, "out"), { force: true });
      spawnSync("bash", ["-c", line], { cwd: dir });
      expect(existsSync(join(dir, "out"))).toBe(true);
      expect(readFileSync(join(dir, "out")).length).toBeGreaterThan(0);
    },
  );
});
