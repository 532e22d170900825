/**
 * The grammars of find (its leading options and its expression's primaries), the project runners, xxd and the
 * name patterns of grep and rg, all read through catalogue/options.ts: checked against the real programs
 * installed here (their help and how they treat a missing value), and as verdict tables.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { LEADING, PRIMARIES } from "../../../src/core/commands/catalogue/find";
import { XXD } from "../../../src/core/commands/catalogue/inspect";
import { MAKE, NODE } from "../../../src/core/commands/catalogue/project";
import { context, loadedAnalyzer } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});
const verdict = (line: string, allow: string[] = []) => a.analyze(line, context({ allow })).verdict;
const has = (program: string) => spawnSync("bash", ["-c", `command -v ${program}`]).status === 0;

const dir = mkdtempSync(join(tmpdir(), "toolgate-own-parsers-"));
writeFileSync(join(dir, "f"), "x\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(program: string, args: readonly string[]) {
  return spawnSync(program, args, {
    cwd: dir,
    encoding: "utf8",
    input: "",
    timeout: 10_000,
    env: { ...process.env, LC_ALL: "C" },
  });
}

describe.skipIf(!has("find"))("find's table is the real find's", () => {
  const OPERATORS = new Set(["(", ")", "!", ",", "-a", "-and", "-o", "-or", "-not"]);

  it("every primary `find --help` lists is in the table", () => {
    const help = run("find", ["--help"]).stdout.split("Valid arguments for -D")[0]!;
    const body = help.slice(help.indexOf("\n")); // past the usage line of leading options
    const listed = new Set([...body.matchAll(/(?:^|[\s(])(-{1,2}[a-z](?:[a-z0-9_-]*[a-z0-9_])?)/gm)].map((m) => m[1]!));
    expect([...listed].filter((p) => !(p in PRIMARIES))).toEqual([]);
  });

  it("each primary takes as many words as the table says", () => {
    const wrong: string[] = [];
    for (const [primary, { args, role }] of Object.entries(PRIMARIES)) {
      if (OPERATORS.has(primary) || role === "exec" || role === "delete" || (role === "stdout" && args.length === 0))
        continue;
      // One word short: find says the argument is missing (or, with none expected, runs).
      const short = run("find", [
        ".",
        "-maxdepth",
        "0",
        primary,
        ...Array<string>(Math.max(args.length - 1, 0)).fill("f"),
      ]);
      const missing = /(missing|invalid) argument/.test(short.stderr);
      if (missing !== args.length > 0) wrong.push(`${primary}: ${short.stderr.trim() || "ran"}`);
    }
    expect(wrong).toEqual([]);
  });

  it("the leading options are find's own: whole words, -D with a value, -O with an attached level", () => {
    for (const args of [["-H"], ["-L"], ["-P"], ["-D", "stat"], ["-O3"], ["-P", "--"]])
      expect({ args, status: run("find", [...args, ".", "-maxdepth", "0"]).status }).toEqual({ args, status: 0 });
    for (const args of [["-HL"], ["-Dstat"], ["-O", "3"]])
      expect({ args, status: run("find", [...args, ".", "-maxdepth", "0"]).status }).not.toEqual({ args, status: 0 });
    expect(Object.keys(LEADING.words).sort()).toEqual(["-D", "-H", "-L", "-P"]);
  });

  it.each([
    ["find -H -L src -name '*.ts'", "safe"],
    ["find -D stat src", "safe"],
    ["find -O3 src -type f", "safe"],
    ["find -P -- src -type f", "safe"],
    ["find -HL src", "unsafe"],
    ["find src -newermt 2024-01-01", "safe"],
    ["find src -newermm .env", "unsafe"],
    ["find src -newer .env", "unsafe"],
    ["find src -delete", "unsafe"],
    ["find src -frobnicate", "unsafe"],
    ["find src -exec cat {} +", "safe"],
    ["find src -exec rm {} +", "unsafe"],
    ["find src -name .env", "unsafe"],
    ["find src $X", "unsafe"],
  ])("%s → %s", (line, expected) => {
    expect(verdict(line)).toBe(expected);
  });
});

describe("writes", () => {
  it.each(["find src -fprint out", "find src -fprintf out '%p'", "find src -fls out", "xxd -r f.hex out", "xxd f out"])(
    "%s writes",
    (line) => {
      expect(a.analyze(line, context()).readOnly).toBe(false);
    },
  );
});

describe.skipIf(!has("make"))("make's grammar is the real make's", () => {
  /** `make --help`: each option spelling → whether it takes a value ("none", "required", "optional"). */
  function helpArities(): Map<string, string> {
    const out = new Map<string, string>();
    for (const m of run("make", ["--help"]).stdout.matchAll(
      /(?:^|[\s,])(--?[A-Za-z][a-z-]*)(\[=?[A-Z]*\]|=[A-Z]+| [A-Z]+| \[N\])?/gm,
    )) {
      const [, name, value] = m;
      out.set(
        name!,
        value === undefined ? "none" : value.startsWith("[") || value === " [N]" ? "optional" : "required",
      );
    }
    return out;
  }
  const ours = (option: string): string | undefined => {
    if (option.startsWith("--")) {
      const n = option.slice(2);
      if (MAKE.long?.includes(n)) return "none";
      if (MAKE.longArgs?.[n]) return "required";
      if (MAKE.longOptional?.[n]) return "optional";
      return undefined;
    }
    const c = option.slice(1);
    if (MAKE.flags?.includes(c)) return "none";
    if (MAKE.shortArgs?.[c]) return "required";
    if (MAKE.shortOptional?.[c]) return "optional";
    return undefined;
  };

  it("every option `make --help` lists takes a value exactly as in the grammar (only --eval is left out)", () => {
    const wrong: string[] = [];
    for (const [option, arity] of helpArities()) {
      if (option === "-E" || option === "--eval") continue;
      if (ours(option) !== arity) wrong.push(`${option}: make ${arity}, grammar ${ours(option) ?? "missing"}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe.skipIf(!has("node"))("node's grammar agrees with the real node's help", () => {
  it("every option of the grammar that `node --help` lists takes a value exactly when the help says", () => {
    const help = run("node", ["--help"]).stdout;
    const wrong: string[] = [];
    const check = (name: string, takesValue: boolean): void => {
      const m = new RegExp(`^\\s+(?:-[A-Za-z], )?--${name}(=| |$)`, "m").exec(help);
      if (m && (m[1] === "=") !== takesValue)
        wrong.push(`--${name}: help ${m[1] === "=" ? "takes" : "takes no"} value`);
    };
    for (const n of NODE.long ?? []) check(n, false);
    for (const n of Object.keys(NODE.longArgs ?? {})) check(n, true);
    expect(wrong).toEqual([]);
    // The check is not empty: most of the grammar is in the help.
    expect(
      [...(NODE.long ?? []), ...Object.keys(NODE.longArgs ?? {})].filter((n) => help.includes(`--${n}`)).length,
    ).toBeGreaterThan(20);
  });
});

describe("project runners", () => {
  it.each([
    ["npm test", ["npm test"], "safe"],
    ["npm test --silent", ["npm test"], "safe"],
    ["npm test -w pkg", ["npm test"], "safe"],
    ["npm test --workspace=pkg", ["npm test"], "safe"],
    ["npm test --prefix /tmp", ["npm test"], "unsafe"],
    ["npm test -C /tmp", ["npm test"], "unsafe"],
    ["npm test --pre=/tmp", ["npm test"], "unsafe"],
    ["npm test --userconfig=/tmp/rc", ["npm test"], "unsafe"],
    ["npm test --script-shell=/tmp/x", ["npm test"], "unsafe"],
    ["npm test $OPT", ["npm test"], "unsafe"],
    ["npm test -- --watch", ["npm test"], "safe"],
    ["pnpm -r test", ["pnpm"], "safe"],
    ["pnpm --dir /tmp test", ["pnpm"], "unsafe"],
    ["pnpm -C /tmp test", ["pnpm"], "unsafe"],
    ["yarn --cwd /tmp test", ["yarn"], "unsafe"],
    ["yarn -s test", ["yarn"], "safe"],
    ["node --test", ["node"], "safe"],
    ["node --test --test-reporter=spec", ["node"], "safe"],
    ["node --test --test-reporter ./evil.js", ["node"], "unsafe"],
    ["node --test-reporter=./evil.js --test", ["node"], "unsafe"],
    ["node -e 'x'", ["node"], "unsafe"],
    ["node --version", ["node"], "safe"],
    ["node", ["node"], "unsafe"],
    ["node -- src/a.js", ["node"], "safe"],
    ["make -j4 test", ["make"], "safe"],
    ["make -sj4 test", ["make"], "safe"],
    ["make -v", ["make"], "safe"],
    ["make --jobs=4 --debug=b test", ["make"], "safe"],
    ["make --dir=/tmp", ["make"], "unsafe"],
    ["make -f x.mk", ["make"], "unsafe"],
    ["make -Csub", ["make"], "unsafe"],
    ["make -E 'all:;rm x'", ["make"], "unsafe"],
    ["make --ev='all:;rm x'", ["make"], "unsafe"],
    ["make CC=clang", ["make"], "unsafe"],
    ["make -j SHELL=./x test", ["make"], "unsafe"],
    ["npx tsc --noEmit", ["npx tsc"], "safe"],
    ["npx -p typescript tsc", ["npx"], "safe"],
    ["npx --prefix /tmp tsc", ["npx"], "unsafe"],
    ["yarn dlx prettier --check .", ["yarn dlx prettier"], "safe"],
    ["yarn dlx -p x prettier", ["yarn dlx"], "unsafe"],
    ["npm exec -- -x", ["npm"], "unsafe"],
    ["pnpm exec $X", ["pnpm"], "unparseable"],
  ])("%s (allow %j) → %s", (line, allow, expected) => {
    expect(verdict(line, allow)).toBe(expected);
  });
});

describe("xxd, and grep's and rg's name patterns", () => {
  it.skipIf(!has("xxd"))("xxd accepts every option word of the grammar, with its value where it takes one", () => {
    const wrong: string[] = [];
    for (const [option, kinds] of Object.entries(XXD.words)) {
      if (option === "-r" || option === "-revert" || option === "-version" || option === "-h") continue;
      const value = option === "-n" || option === "-name" ? "x" : "1";
      const r = run("xxd", [option, ...kinds.map(() => value), "f"]);
      if (r.status !== 0) wrong.push(`${option}: ${r.stderr.trim()}`);
    }
    expect(wrong).toEqual([]);
    for (const attached of ["-c8", "-g1", "-l4", "-s0", "-o0"]) expect(run("xxd", [attached, "f"]).status).toBe(0);
  });

  it.each([
    ["xxd -c 8 -g 1 f", "safe"],
    ["xxd -cols 8 f", "safe"],
    ["xxd -c8 f", "safe"],
    ["xxd -ps f", "safe"],
    ["xxd -- f", "safe"],
    ["xxd .env", "unsafe"],
    ["xxd -frob f", "unsafe"],
    ["xxd $OPT f", "unsafe"],
    ["grep -r x --include='*.ts' .", "safe"],
    ["grep -r x --include=.env .", "unsafe"],
    ["grep -r x --incl=.env .", "unsafe"],
    ["grep -r x --include .env .", "unsafe"],
    ["rg x -g '*.ts'", "safe"],
    ["rg x -g .env", "unsafe"],
    ["rg x -g.env", "unsafe"],
    ["rg -ig .env x", "unsafe"],
    ["rg x --glob=.env", "unsafe"],
    ["rg x --iglob .env", "unsafe"],
  ])("%s → %s", (line, expected) => {
    expect(verdict(line)).toBe(expected);
  });
});
