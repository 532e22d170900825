/**
 * Families of command lines the per-program catalogue must never vouch for ("an allow is a proof"):
 * sub-languages judged by text tests that over-approximate (awk, sed, jq), `find -exec` handing file names
 * to code, git pointed at another repository, project commands whose flags change what runs, unknown
 * options. Each line is checked with no allow rule and with a typical allow list: neither may make it safe.
 * Everyday lines stay safe.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { awkProgramProblem } from "../../../src/core/commands/catalogue/awk";
import { jqFilterProblem } from "../../../src/core/commands/catalogue/jq";
import { sedScriptProblem } from "../../../src/core/commands/catalogue/sed";
import { context, loadedAnalyzer, WS } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

const TYPICAL_ALLOW = [
  "npm test",
  "node",
  "make",
  "git",
  "awk",
  "sed",
  "jq",
  "find",
  "tar",
  "grep",
  "rg",
  "cat",
  "ls",
  "head",
];

function verdicts(command: string): [string, string] {
  return [a.analyze(command, context()).verdict, a.analyze(command, context({ allow: TYPICAL_ALLOW })).verdict];
}

function expectNeverSafe(lines: readonly string[]): void {
  for (const line of lines) {
    const [bare, allowed] = verdicts(line);
    expect({ line, bare }).not.toEqual({ line, bare: "safe" });
    expect({ line, allowed }).not.toEqual({ line, allowed: "safe" });
  }
}

describe("awk programs are judged by text, not by a parse that can desync", () => {
  const attacks = [
    `awk 'BEGIN { print /#/; system("touch X") }'`,
    `awk 'BEGIN { x = /[]/]#/; system("touch X") }'`,
    `awk '/[(]/ { print > "/tmp/x" }' f`,
    `awk 'BEGIN { ARGV[1] = ".env"; ARGC = 2 } { print }' src/a.ts`,
    `awk 'BEGIN { while ((getline l < ".env") > 0) print l }'`,
    `awk '{ print | "sh" }' f`,
    `awk '{ printf "%s", $0 > "out" }' f`,
    `awk 'BEGIN { print ENVIRON["HOME"] }'`,
    `awk 'BEGIN { "id" | getline; close("id") }'`,
    `awk -f prog.awk f`,
    `awk --fi=prog.awk f`,
    `awk --sou='BEGIN{system("id")}'`,
    `gawk '@include "x"'`,
    `gawk -v 'ARGV=1' '{print}' f`,
    `awk '{print}' ARGC=3 f`,
    `awk -d '{print}' f`,
    `awk --dump-variables=/tmp/v '{print}' f`,
    `awk 'BEGIN { sys\\\ntem("id") }'`,
  ];
  it.each(attacks)("%s is never safe", (line) => expectNeverSafe([line]));

  it("everyday programs stay safe", () => {
    for (const line of [
      "awk '{print $1}' src/a.ts",
      "awk -F: '$3 > 100 {print $1}' passwd.txt",
      "awk '/a|b/ { n++ } END { print n }' f",
      "awk '$1 >= 3 { print $2 }' f",
      "awk 'NR % 2 == 0' f",
    ])
      expect({ line, v: a.analyze(line, context()).verdict }).toEqual({ line, v: "safe" });
  });

  it("a dangerous name anywhere counts, in strings and comments too", () => {
    expect(awkProgramProblem('{ print "system" }')).toBeDefined();
    expect(awkProgramProblem("# system\n{ print }")).toBeDefined();
    expect(awkProgramProblem("{ print $1 }")).toBeUndefined();
  });
});

describe("sed scripts are judged by text", () => {
  const attacks = [
    "sed 's/[/]*$/ #/e' f",
    "sed ':a;e touch X' f",
    "sed ':a e touch X' f",
    "sed '/x/I e id' f",
    "sed '\\xhix e id' f",
    "sed 'sxhixidxe' f",
    "sed 'v4.2 e id' f",
    "sed 's/[/]/x/w /tmp/out' f",
    "sed '/[/]/W /tmp/out' f",
    "sed '/[/]/r .env' f",
    "sed '1R .env' f",
    "sed -f script.sed f",
    "sed --file=script.sed f",
    "sed --fil script.sed f",
    "sed --expr='e id' f",
    "sed --debugg -n p f",
  ];
  it.each(attacks)("%s is never safe", (line) => expectNeverSafe([line]));

  it("everyday scripts stay safe", () => {
    for (const line of [
      "sed -n 1,20p src/a.ts",
      "sed 's/foo/bar/g' f",
      "sed -e 's/foo/bar/g' -e '/^$/d' f",
      "sed -n '/TODO/p' f",
      "sed '1,5d' f",
    ])
      expect({ line, v: a.analyze(line, context()).verdict }).toEqual({ line, v: "safe" });
    expect(sedScriptProblem("s/test/best/g")).toBeUndefined();
  });
});

describe("sed scripts: wherever GNU sed runs a command, the text test finds it", () => {
  const sedPath = spawnSync("sh", ["-c", "command -v sed"], { encoding: "utf8" }).stdout.trim();
  // `:>Q` is the shell command `s///e` runs, and `w Q` the file `s///w` writes: either creates Q (a letter no
  // flag uses). Every delimiter, blanks and flag letters included.
  const delimiters = ["/", " ", "\t", "x", "|", ",", "#", "e", "g", "p", "w", "1", "a", "_"];
  const shapes = [
    "sDaD:>QDe",
    "sDaD:>QDge",
    "1sDaD:>QDe",
    "/a/sDaD:>QDe",
    "1{sDaD:>QDe}",
    "sDaD:>QDpe",
    "$ sDaD:>QDe",
    "sDaDbDw Q",
    "sDaDbDgw Q",
  ];
  it.skipIf(!sedPath.startsWith("/"))("every script that ran the command or wrote the file is judged a problem", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-sed-"));
    try {
      writeFileSync(join(dir, "in"), "a\n");
      let ran = 0;
      const missed: string[] = [];
      for (const d of delimiters)
        for (const shape of shapes) {
          const script = shape.replaceAll("D", d);
          spawnSync(sedPath, [script, "in"], { cwd: dir, stdio: "ignore", timeout: 3000 });
          if (!existsSync(join(dir, "Q"))) continue;
          rmSync(join(dir, "Q"));
          ran++;
          if (sedScriptProblem(script) === undefined) missed.push(JSON.stringify(script));
        }
      expect(missed).toEqual([]);
      // Most shapes do run with most delimiters: the test is not vacuous.
      expect(ran).toBeGreaterThan(50);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("jq filters are judged by text", () => {
  const attacks = [
    `jq -n 'import "x" as x {search: "/etc"}; x::f' `,
    `jq -n 'include "secrets/x"; .'`,
    `jq -n 'env'`,
    `jq -n '$ENV.HOME'`,
    `jq 'input_filename' src/a.json`,
    `jq -n '$__loc__'`,
    `jq -L /tmp '.' f.json`,
    `jq -L/tmp '.' f.json`,
    `jq -f prog.jq f.json`,
    `jq --rawfile x .env -n '$x'`,
    `jq --slurpfile x secrets/k.json -n '$x'`,
    `jq --run-tests t.txt`,
  ];
  it.each(attacks)("%s is never safe", (line) => expectNeverSafe([line]));

  it("everyday filters stay safe", () => {
    for (const line of ["jq .name package.json", "jq -r '.dependencies | keys[]' package.json", "jq -c '.[]' a.json"])
      expect({ line, v: a.analyze(line, context()).verdict }).toEqual({ line, v: "safe" });
    expect(jqFilterProblem(".scripts.test")).toBeUndefined();
  });
});

describe("find -exec hands file names to code", () => {
  const attacks = [
    "find . -exec sh -c 'echo {}' \\;",
    "find . -exec bash -c 'cat {}' \\;",
    "find . -execdir zsh -c 'x={}' \\;",
    "find . -ok dash -c ': {}' \\;",
    "find . -okdir ksh -c 'echo {}' \\;",
    "find . -exec sh -c {} \\;",
    "find . -exec {} \\;",
    "find . -exec awk {} \\;",
    "find . -exec sed {} src/a.ts \\;",
    "find . -exec jq {} src/a.json \\;",
    "find . -fprint /tmp/x",
    "find . -fprintf /tmp/out %p",
    "find . -fls /tmp/x",
    "find . -delete",
    "find . -frobnicate",
  ];
  it.each(attacks)("%s is never safe", (line) => expectNeverSafe([line]));

  it("the files -exec reads are content reads of the start directory", () => {
    const ctx = context();
    a.analyze("find src -name '*.ts' -exec cat {} +", ctx);
    expect(ctx.paths).toMatchObject({ calls: expect.arrayContaining([{ path: "src", cwd: WS, access: "read" }]) });
    // `.` holds `.env` and `secrets/`, which the ignore file excludes; `src` holds neither.
    expect(a.analyze("find . -exec cat {} +", context()).verdict).toBe("unsafe");
    expect(a.analyze("find src -exec cat {} +", context()).verdict).toBe("safe");
    expect(a.analyze("find . -name '*.ts'", context()).verdict).toBe("safe");
    expect(a.analyze("find src -name '*.ts' -exec grep -l foo {} +", context()).verdict).toBe("safe");
  });
});

describe("git beyond the workspace's own repository", () => {
  it.each([
    "git --git-dir=planted status",
    "git --git-dir planted status",
    "git --work-tree=x status",
    "git --bare log",
    "git --frobnicate status",
    "git config --edit",
    "git config -e",
    "git config --file=x.cfg --includes --list",
    "git config --file=.env --list",
    "git config --file .env --list",
    "git config --blob=HEAD:.env --list",
    "git config --blob HEAD:secrets/k --list",
    "git config --frob user.name",
  ])("%s is never safe", (line) => expectNeverSafe([line]));

  it("configuration reads do not ask; writes do", () => {
    for (const line of [
      "git config user.name",
      "git config --get user.name",
      "git config --get-all remote.origin.url",
      "git config --list",
      "git config -l",
      "git config list",
      "git config get user.email",
      "git config --file=x.cfg --list",
      "git config --type=bool core.bare",
      "git config --show-origin --list",
    ])
      expect({ line, v: a.analyze(line, context()).verdict }).toEqual({ line, v: "safe" });
    for (const line of [
      "git config user.name x",
      "git config set user.name x",
      "git config --unset user.name",
      "git config --add a.b c",
    ])
      expect({ line, v: a.analyze(line, context()).verdict }).toEqual({ line, v: "unsafe" });
    // An allowed `git config` may write the workspace file it names, never .git/config.
    expect(a.analyze("git config user.name x", context({ allow: ["git"] })).verdict).toBe("unsafe");
    expect(a.analyze("git config --file=x.cfg a.b c", context({ allow: ["git"] })).verdict).toBe("safe");
  });

  it("everyday lines stay safe", () => {
    for (const line of ["git log --oneline -5", "git diff --stat", "git status", "git show HEAD --stat"])
      expect({ line, v: a.analyze(line, context()).verdict }).toEqual({ line, v: "safe" });
  });
});

describe("project commands: flags that change what runs leave the allow entry", () => {
  const allow = ["npm test", "npm run", "node", "make", "pnpm", "yarn", "npx"];
  const v = (line: string): string => a.analyze(line, context({ allow })).verdict;
  it.each([
    "npm test --script-shell=/tmp/x",
    "npm test --script-shell /tmp/x",
    "npm --prefix /tmp test",
    "npm test -C /tmp",
    "npm test --userconfig=/tmp/rc",
    "npm test --globalconfig=/tmp/rc",
    "npm test --node-options=--require=/tmp/x.js",
    "npm run build --prefix=/tmp",
    "npm test -g",
    "cd /tmp && npm test",
    'cd "$d" && npm test',
    "node -e 'process.exit()'",
    "node --eval 1",
    "node -p 1",
    "node --require ./evil.js scripts/check.js",
    "node -r ./evil.js scripts/check.js",
    "node --import ./evil.mjs scripts/check.js",
    "node --loader ./l.mjs scripts/check.js",
    "node --experimental-loader ./l.mjs scripts/check.js",
    "node --inspect scripts/check.js",
    "node /tmp/x.js",
    "node .env",
    "node",
    "make -C /tmp",
    "make --directory=/tmp",
    "make --dir=/tmp",
    "make -f /tmp/Makefile",
    "make --file=x.mk",
    "make --eval='x:=1'",
    "make -I /tmp",
    "make CC=rm",
    "make SHELL=/tmp/x",
    "pnpm -C /tmp test",
    "pnpm --dir /tmp test",
    "pnpm test --config.script-shell=/tmp/x",
    "yarn --cwd /tmp test",
    "yarn test --use-yarnrc /tmp/rc",
    "npx -c 'rm -rf x'",
    "npx --call 'id'",
  ])("%s leaves the allow entry", (line) => expect(v(line)).not.toBe("safe"));

  it("the allow entry still runs the plain commands", () => {
    for (const line of [
      "npm test",
      "npm test -- --watch",
      "npm run build --silent",
      "cd src && npm test",
      "node scripts/check.js --fast",
      "make",
      "make test -j4",
      "make V=1 test",
      "pnpm -r test",
      "yarn test",
    ])
      expect({ line, v: v(line) }).toEqual({ line, v: "safe" });
  });
});

describe("directory reads and unknown options", () => {
  it.each([
    ["grep -d recurse SECRET", ".env"],
    ["grep --directories=recurse SECRET", ".env"],
    ["grep --dir=recurse SECRET", ".env"],
    ["grep -r SECRET", ".env"],
    ["rg SECRET", ".env"],
  ])("%s reads the working directory for content", (line) => {
    const ctx = context();
    a.analyze(line, ctx);
    expect(ctx.paths).toMatchObject({ calls: expect.arrayContaining([{ path: ".", cwd: WS, access: "read" }]) });
  });

  it.each([
    "tar -tf x.tar --volno-file=/tmp/v",
    "tar -tf x.tar --volno=/tmp/v",
    "tar -tf x.tar --to-command=sh",
    "tar -tf x.tar --use-compress-program=sh",
    "tar -tf x.tar -I sh",
    "tar -tf x.tar --checkpoint-action=exec=sh",
    "tar -tf x.tar --info-script=x",
    "tar -tf x.tar -F x",
    "tar -tf x.tar --rsh-command=x",
    "tar -tf x.tar --frobnicate",
    "tar -tf x.tar -g snap",
    "tar -xPf x.tar",
    "cat --frobnicate f",
    "grep --frobnicate x f",
    "ls --frobnicate",
    "head --frobnicate f",
  ])("%s is never safe", (line) => expectNeverSafe([line]));

  it("everyday listings stay safe", () => {
    for (const line of ["tar -tzf x.tgz", "tar tvf x.tar", "tar --list --file=x.tar", "grep -rn TODO src"])
      expect({ line, v: a.analyze(line, context()).verdict }).toEqual({ line, v: "safe" });
  });
});
