/**
 * `find START -print0 | xargs -0 CMD`: the words xargs appends are the paths find printed, so a reader CMD
 * is judged as reading the files below START (real gate, real files). Without the pairing, real bash shows
 * why it still asks: xargs cuts names at blanks and newlines into pieces that name other files.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gate } from "../../../src/core/gate";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const t = tempTree(
  {
    "ws/src/a.ts": "import foo\n",
    "ws/src/sub/b.ts": "b\n",
    "ws/lib/c.ts": "c\n",
    "ws/README.md": "foo\n",
    "ws/docs/a.md": "foo\n",
    "ws/.env": "SECRET=1\n",
    "ws/secrets/k": "k\n",
    "ws/.toolgateignore": ".env\nsecrets/\n",
  },
  { "ws/linked/env.ts": "ws/.env" },
);
afterAll(() => t.cleanup());

let g: Gate;
beforeAll(async () => {
  g = await gateWith({}, [t.path("ws")]);
});
const decide = (command: string) => g.decide(call("execute_command", { command })).decision;

describe("find -print0 | xargs -0 reads the paths find printed", () => {
  it.each([
    "find src -print0 | xargs -0 grep -l foo",
    "find src -name '*.ts' -print0 | xargs -0 wc -l",
    "find src lib -type f -print0 | xargs -0 cat",
    "find src -print0 2>/dev/null | xargs -0 -r -n 5 -P 2 head -3",
    "find -L src -print0 | xargs --null --no-run-if-empty sha256sum",
    "cd src && find . -print0 | xargs -0 grep -c import",
    "find src -print0 | xargs -0 grep -l foo | wc -l",
    // Names only (as for `find -exec ls {} +`).
    "find . -print0 | xargs -0 ls -ld",
  ])("%s runs", (line) => {
    expect(decide(line)).toBe("allow");
  });

  it.each([
    // An ignored file, or a link to one, lies below the start point (and find's selection keeps it).
    "find . -name '*.env' -print0 | xargs -0 grep -l foo",
    "find . -print0 -name '*.md' | xargs -0 grep -l foo",
    "find . -name '*.ts' -print0 | xargs -0 grep -l foo",
    "find . -name '*.ts' -o -name x -print0 | xargs -0 cat",
    "find . ! -name '*.ts' -print0 | xargs -0 cat",
    "find . -name '*.ts' -print0 -o -print0 | xargs -0 cat",
    "find linked -name '*.ts' -print0 | xargs -0 cat",
    "find linked -print0 | xargs -0 cat",
    "find . -print0 | xargs -0 wc -c",
    "find linked -print0 | xargs -0 wc -c",
    "find . -print0 | xargs -0 file",
    "find linked -print0 | xargs -0 md5sum",
    "find src secrets -print0 | xargs -0 cat",
    // The pairing: names cut at blanks or newlines are pieces that can name any file.
    "find src | xargs cat",
    "find src -print | xargs -0 cat",
    "find src -print0 | xargs cat",
    "find src -print0 | xargs -d '\\n' cat",
    "find src -print0 -print | xargs -0 cat",
    // Something else reaches the pipe, or the pipe does not reach xargs.
    "find src -print0 2>&1 | xargs -0 cat",
    "find src -print0 |& xargs -0 cat",
    "find src -print0 -exec echo .env \\; | xargs -0 cat",
    "find src -printf '%p\\0' | xargs -0 cat",
    "find src -print0 -ls | xargs -0 cat",
    "find --help -print0 | xargs -0 cat",
    "find src -print0 | xargs -0 cat < .env",
    "find src -print0 | xargs -0 -a .env cat",
    "find src -print0; xargs -0 cat",
    "find src -print0 | timeout 5 xargs -0 cat",
    "find src -print0 | bash -c 'xargs -0 cat'",
    "find $X -print0 | xargs -0 cat",
    // xargs options that recut or replace the input.
    "find src -print0 | xargs -0 -I{} cat {}",
    "find src -print0 | xargs -0 -L 1 cat",
    "find src -print0 | xargs -0 -E x cat",
    // What xargs runs must read the files, and only read them.
    "find src -print0 | xargs -0 sh -c 'cat \"$@\"' x",
    "find src -print0 | xargs -0 sort -o out",
    "find src -print0 | xargs -0 cp -t lib",
    "find src -print0 | xargs -0 rm",
    "find src -print0 | xargs -0 awk 1",
  ])("%s asks (or is refused)", (line) => {
    expect(decide(line)).not.toBe("allow");
  });
});

describe("find's selection by name", () => {
  // No link in this one: a link below the start point asks whatever its name (it is followed).
  const u = tempTree({
    "ws/README.md": "foo\n",
    "ws/docs/a.md": "foo\n",
    "ws/src/a.ts": "x\n",
    "ws/.env": "SECRET=1\n",
    "ws/secrets/k.md": "k\n",
    "ws/.toolgateignore": ".env\nsecrets/\n",
  });
  afterAll(() => u.cleanup());

  it("leaves the ignored files it cannot print out of the read", async () => {
    const gu = await gateWith({}, [u.path("ws")]);
    const d = (command: string) => gu.decide(call("execute_command", { command })).decision;
    for (const line of [
      "find . -name '*.ts' -print0 | xargs -0 grep -l foo",
      "find . -type f -iname '*.TS' -print0 | xargs -0 wc -l",
      "find . -name '*.ts' -exec grep -l foo {} +",
    ])
      expect({ line, d: d(line) }).toEqual({ line, d: "allow" });
    for (const line of [
      // `secrets/k.md` is ignored with its folder, and its name matches.
      "find . -name '*.md' -print0 | xargs -0 grep -l foo",
      "find . -name '*env' -print0 | xargs -0 cat",
      "find . -print0 -name '*.ts' | xargs -0 cat",
      "find . -name '*.ts' -o -name '*' -print0 | xargs -0 cat",
      "find . -name '*.ts' -print0 -o -print0 | xargs -0 cat",
    ])
      expect({ line, d: d(line) }).not.toEqual({ line, d: "allow" });
  });
});

describe("why the pairing matters, shown by real bash", () => {
  const b = tempTree({ "d/x .env": "", "d/y\n.env": "", ".env": "SECRET" });
  afterAll(() => b.cleanup());
  const pieces = (line: string) =>
    execFileSync("bash", ["--noprofile", "--norc", "-c", line], { cwd: b.dir, encoding: "utf8" }).split("\0");

  it("without -print0 and -0, xargs hands on pieces that name a file outside the start point", () => {
    for (const line of [
      "find d -type f | xargs printf '%s\\0'",
      "find d -type f -print0 | xargs printf '%s\\0' 2>/dev/null",
      "find d -type f | xargs -d '\\n' printf '%s\\0'",
    ])
      expect({ line, got: pieces(line) }).toEqual({ line, got: expect.arrayContaining([".env"]) as unknown });
  });

  it("with -print0 and -0, every word xargs appends is a path find printed, below the start point", () => {
    const got = pieces("find d -type f -print0 | xargs -0 printf '%s\\0'").filter((p) => p !== "");
    expect(got.sort()).toEqual(["d/x .env", "d/y\n.env"]);
  });
});
