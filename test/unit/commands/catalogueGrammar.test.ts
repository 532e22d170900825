/**
 * The catalogue's option grammar (catalogue/options.ts) against the real programs installed here, and the
 * spellings it must read as the programs do: abbreviations, clusters, attached values, `--`, old-style
 * bundles. A grammar that thinks an option takes a value when it does not hides the next word (a file the
 * command really reads or archives) from the path gate.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import type { OptionSpec } from "../../../src/core/commands/catalogue/options";
import { SED } from "../../../src/core/commands/catalogue/sed";
import { TAR } from "../../../src/core/commands/catalogue/tar";
import { context, loadedAnalyzer } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

const analyze = (line: string, allow: string[] = []) => a.analyze(line, context({ allow }));
const has = (program: string) => spawnSync("bash", ["-c", `command -v ${program}`]).status === 0;

const dir = mkdtempSync(join(tmpdir(), "toolgate-grammar-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `program args` in the scratch folder, C locale, no input; returns what it printed on stderr. */
function stderrOf(program: string, args: readonly string[]): string {
  const r = spawnSync(program, args, {
    cwd: dir,
    encoding: "utf8",
    input: "",
    timeout: 10_000,
    env: { ...process.env, LC_ALL: "C", TAR_OPTIONS: "" },
  });
  return r.stderr;
}

describe.skipIf(!has("tar"))("tar's grammar is the real tar's", () => {
  beforeAll(() => {
    writeFileSync(join(dir, "m"), "x\n");
    spawnSync("tar", ["-cf", "a.tar", "m"], { cwd: dir });
  });
  const NEEDS = "requires an argument";
  const REFUSES = "doesn't allow an argument";

  it("every long option `tar --help` lists is in the grammar, and the grammar lists no other", () => {
    const help = spawnSync("tar", ["--help"], { encoding: "utf8", env: { ...process.env, LC_ALL: "C" } }).stdout;
    const listed = new Set([...help.matchAll(/(?:^|[\s,])--([a-z][a-z0-9-]+)/gm)].map((m) => m[1]!));
    const grammar = new Set([
      ...(TAR.long ?? []),
      ...Object.keys(TAR.longArgs ?? {}),
      ...Object.keys(TAR.longOptional ?? {}),
    ]);
    // Words of the help's prose that look like options but only refer to them.
    expect([...grammar].filter((n) => !listed.has(n))).toEqual([]);
    expect([...listed].filter((n) => !grammar.has(n))).toEqual([]);
  });

  const longs = [
    ...(TAR.long ?? []).map((n) => [n, "none"] as const),
    ...Object.keys(TAR.longArgs ?? {}).map((n) => [n, "required"] as const),
    ...Object.keys(TAR.longOptional ?? {}).map((n) => [n, "optional"] as const),
  ];
  // Only spellings that make tar stop at its option parser are run: a value given to an option that takes
  // none, and an option that needs a value given none (last on the line).
  it.each(longs)("--%s takes %s value", (name, value) => {
    if (value === "none") expect(stderrOf("tar", ["-tf", "a.tar", `--${name}=1`])).toContain(REFUSES);
    if (value === "required") expect(stderrOf("tar", ["-tf", "a.tar", `--${name}`])).toContain(NEEDS);
    if (value === "optional") {
      expect(stderrOf("tar", ["-tf", "a.tar", `--${name}`])).not.toContain(NEEDS);
      expect(stderrOf("tar", ["-tf", "a.tar", `--${name}=1`])).not.toContain(REFUSES);
    }
  });

  it.each([...Object.keys(TAR.shortArgs ?? {})])("-%s takes a value", (c) => {
    expect(stderrOf("tar", ["-tf", "a.tar", `-${c}`])).toContain(`option ${NEEDS} -- '${c}'`);
  });

  it.each([...(TAR.flags ?? "")].filter((c) => c !== "w"))("-%s is an option without a value", (c) => {
    const err = stderrOf("tar", ["-tf", "a.tar", `-${c}`]);
    expect(err).not.toContain(NEEDS);
    expect(err).not.toContain("invalid option");
  });
});

/** The grammar's long options with how each takes a value. */
function longTable(spec: OptionSpec): (readonly [string, "none" | "required" | "optional"])[] {
  return [
    ...(spec.long ?? []).map((n) => [n, "none"] as const),
    ...Object.keys(spec.longArgs ?? {}).map((n) => [n, "required"] as const),
    ...Object.keys(spec.longOptional ?? {}).map((n) => [n, "optional"] as const),
  ];
}

describe.skipIf(!has("sed"))("sed's grammar is the real sed's", () => {
  beforeAll(() => writeFileSync(join(dir, "m"), "x\n"));
  // `sed -n p m --OPT`: getopt complains before any script runs.
  const run = (option: string) => stderrOf("sed", ["-n", "p", "m", option]);
  it.each(longTable(SED))("--%s takes %s value", (name, value) => {
    if (value === "none") expect(run(`--${name}=1`)).toContain("doesn't allow an argument");
    if (value === "required") expect(run(`--${name}`)).toContain("requires an argument");
    if (value === "optional") expect(run(`--${name}=1`)).not.toContain("doesn't allow an argument");
  });
  it.each(Object.keys(SED.shortArgs ?? {}))("-%s takes a value", (c) => {
    expect(run(`-${c}`)).toContain(`option requires an argument -- '${c}'`);
  });
  it.each([...(SED.flags ?? "")])("-%s takes none", (c) => {
    expect(run(`-${c}`)).not.toMatch(/requires an argument|invalid option/);
  });
});

describe("sed spellings", () => {
  it.each([
    ["sed -n p f", "safe"],
    ["sed --expr=p f", "safe"],
    ["sed --quiet --expression p f", "safe"],
    ["sed -ne p f", "safe"],
    ["sed -nep f", "safe"],
    ["sed -n -e p -- -f", "safe"],
    ["sed -i.bak s/a/b/ f", "unsafe"],
    ["sed --in-pl=.bak s/a/b/ f", "unsafe"],
    ["sed --in s/a/b/ f", "unsafe"],
    ["sed --expression='e id' f", "unparseable"],
    ["sed --ex='w /tmp/x' f", "unparseable"],
    ["sed -ne 'e id' f", "unparseable"],
    ["sed -n -es/a/b/e f", "unparseable"],
    ["sed -f x.sed f", "unparseable"],
    ["sed -fx.sed f", "unparseable"],
    ["sed --fi=x.sed f", "unparseable"],
    // Real sed: `--f` is ambiguous (`--file`, `--follow-symlinks`): the harmful reading wins.
    ["sed --f x.sed f", "unparseable"],
    ["sed --frobnicate p f", "unsafe"],
    ["sed -n p -- .env", "unsafe"],
  ])("%j → %s", (line, verdict) => {
    const r = analyze(line);
    expect(r.verdict, `${r.reason} [${r.rule}]`).toBe(verdict);
  });
  it("`sed -f .env` still reads the script file (an ignored file is refused, not merely asked)", () => {
    const ctx = context();
    a.analyze("sed -f .env f", ctx);
    expect(ctx.paths).toMatchObject({ calls: expect.arrayContaining([expect.objectContaining({ path: ".env" })]) });
  });
});

describe("jq spellings", () => {
  it.each([
    ["jq . f.json", "safe"],
    ["jq -rc .a f.json", "safe"],
    ["jq -n --arg x y '$x'", "safe"],
    ["jq -n --arg x .env '$x'", "safe"],
    ["jq -n '$ARGS' --args a .env", "safe"],
    ["jq -n '$ARGS' --jsonargs 1 2", "safe"],
    ["jq . -- -f", "safe"],
    ["jq -n '$x' --rawfile x .env", "unsafe"],
    ["jq -n '$x' --args --rawfile x .env", "unsafe"],
    ["jq -n '$x' --slurpfile x /etc/passwd", "unsafe"],
    ["jq -f prog.jq f.json", "unsafe"],
    ["jq -fprog.jq f.json", "unsafe"],
    ["jq -nf prog.jq", "unsafe"],
    ["jq -Lmods . f.json", "unsafe"],
    ["jq --library-path=mods . f.json", "unsafe"],
    // jq reads long options by exact name: `--ta` is not `--tab`.
    ["jq --ta . f.json", "unsafe"],
    ["jq . .env", "unsafe"],
    ["jq env f.json", "unsafe"],
  ])("%j → %s", (line, verdict) => {
    const r = analyze(line);
    expect(r.verdict, `${r.reason} [${r.rule}]`).toBe(verdict);
  });
});

describe("awk spellings", () => {
  it.each([
    ["awk '{print $1}' f", "safe"],
    ["awk -F, '{print $1}' f", "safe"],
    ["awk -F: -vx=1 '{print x}' f", "safe"],
    ["awk --field-sep=: '{print}' f", "safe"],
    ["awk -- '{print}' f", "safe"],
    // After the program text, words are operands: `-f` here is an input file.
    ["awk '{print}' -f", "safe"],
    ["awk -f x.awk f", "unparseable"],
    ["awk -nf x.awk f", "unparseable"],
    ["awk -fx.awk f", "unparseable"],
    ["awk --fi=x.awk f", "unparseable"],
    ["awk --so='BEGIN{system(\"id\")}'", "unparseable"],
    ["awk -e 'BEGIN{system(\"id\")}'", "unparseable"],
    ["awk -v 'x=1' -- 'BEGIN{system(\"id\")}'", "unparseable"],
    ["awk -o out.awk '{print}' f", "unsafe"],
    ["awk --frob '{print}' f", "unsafe"],
    ["awk '{print}' .env", "unsafe"],
  ])("%j → %s", (line, verdict) => {
    const r = analyze(line);
    expect(r.verdict, `${r.reason} [${r.rule}]`).toBe(verdict);
  });
});

describe("xargs spellings (options end at the command it runs)", () => {
  it.each([
    ["xargs echo", "safe"],
    ["xargs -n1 -P4 echo", "safe"],
    ["xargs -0tr echo", "safe"],
    ["xargs --max-ar=2 echo", "safe"],
    ["xargs -I{} echo {}", "safe"],
    ["xargs -i echo {}", "safe"],
    ["xargs -a list.txt echo", "safe"],
    ["xargs -alist.txt echo", "safe"],
    ["xargs --arg=list.txt echo", "safe"],
    ["xargs -a .env echo", "unsafe"],
    ["xargs --frob echo", "unparseable"],
    ["xargs -Q echo", "unparseable"],
  ])("%j → %s", (line, verdict) => {
    const r = analyze(line);
    expect(r.verdict, `${r.reason} [${r.rule}]`).toBe(verdict);
  });
  // The word after an option whose value is optional or attached-only is the command (real xargs runs it).
  it.each([
    "xargs --max-lines rm",
    "xargs -l rm",
    "xargs --eof rm",
    "xargs --replace rm",
    "xargs -s 100 rm",
    "xargs -- rm",
  ])("%s runs rm", (line) => expect(analyze(line)).toMatchObject({ verdict: "unsafe", deletes: true }));
});

describe("tar spellings", () => {
  it.each([
    ["tar -tvf x.tar", "safe"],
    ["tar -tvfx.tar", "safe"],
    ["tar tvf x.tar", "safe"],
    ["tar --list --verbo --file=x.tar", "safe"],
    ["tar --extract --to-s -f x.tar", "unsafe"],
    // Real tar: `--li` is ambiguous (`--list`, `--listed-incremental`); the harmful reading wins here.
    ["tar --li -f x.tar", "unsafe"],
    ["tar -t --file x.tar --verbose", "safe"],
    // After `--` a word is a member name, never an option.
    ["tar -tf x.tar -- --to-command=sh", "safe"],
    ["tar --version", "safe"],
    ["tar --help", "safe"],
    ["tar -tf x.tar --to-command=sh", "unparseable"],
    ["tar -tf x.tar --to-com=sh", "unparseable"],
    ["tar -tf x.tar --to-c sh", "unparseable"],
    ["tar -tf x.tar --use=sh", "unparseable"],
    ["tar -tf x.tar --checkpoint-ac=exec=sh", "unparseable"],
    ["tar -tf x.tar -Ish", "unparseable"],
    ["tar -tIsh -f x.tar", "unparseable"],
    ["tar tfI x.tar sh", "unparseable"],
    ["tar -tf x.tar --new-vol=x", "unparseable"],
    ["tar -tf x.tar --rmt=x", "unparseable"],
    ["tar -tf x.tar -F x", "unparseable"],
    ["tar -tf x.tar --index=out", "unsafe"],
    ["tar -tf x.tar --frobnicate", "unsafe"],
    ["tar -tf x.tar -Q", "unsafe"],
  ])("%j → %s", (line, verdict) => {
    const r = analyze(line);
    expect(r.verdict, `${r.reason} [${r.rule}]`).toBe(verdict);
  });

  it.each([
    // The next word is a member: a grammar giving the option a value (before: `--occurrence`, whose value is
    // optional) hides an archived ignored file from the path gate.
    "tar -c --verbose .env -f out.tar",
    "tar -c --totals .env -f out.tar",
    "tar -c --occurrence .env -f out.tar",
    "tar -c --checkpoint .env -f out.tar",
    "tar -c --dereference .env -f out.tar",
    "tar -c --sparse .env -f out.tar",
  ])("%s archives .env: the read reaches the path gate, even allowed", (line) => {
    expect(analyze(line, ["tar"]).verdict).toBe("unsafe");
    expect(analyze(line.replace(".env", "src"), ["tar"]).verdict).toBe("safe");
  });

  it.each([
    "tar -cf out.tar --remove-files src",
    "tar -cf out.tar --remove src",
    "tar -cf out.tar --rem src",
    "tar -c --remove-files -f out.tar src",
    "tar cf out.tar src --remove-files",
    "tar -xf x.tar --recursive-unlink",
    "tar -xf x.tar --recursive-u",
  ])("%s deletes, even allowed", (line) => {
    for (const allow of [[], ["tar"]]) expect(analyze(line, allow)).toMatchObject({ verdict: "unsafe", deletes: true });
  });

  it("`-- --remove-files` is a member name, not the option", () => {
    expect(analyze("tar -cf out.tar -- --remove-files", ["tar"]).deletes).toBe(false);
  });
});
