/**
 * git's option tables (catalogue/git/grammars.ts) against the real git on this machine: every option a
 * subcommand's `git SUB -h` lists is in its grammar, read with the same arity (no value, a value attached or
 * in the next word, an optional value attached only), and every long option `--git-completion-helper` lists
 * is known. A table that missed one would misread the words after it, or ask needlessly.
 */
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { CONFIG } from "../../../src/core/commands/catalogue/git/config";
import { READER_GRAMMARS, TABLES, WRITER_GRAMMARS } from "../../../src/core/commands/catalogue/git/grammars";
import type { OptionSpec } from "../../../src/core/commands/catalogue/options";
import { tempTree } from "../../support/workspace";
import { context, loadedAnalyzer } from "./helpers";

const repo = tempTree({ "f.txt": "a\n" });
spawnSync("git", ["init", "-q"], { cwd: repo.dir });
afterAll(() => repo.cleanup());

function gitOutput(args: readonly string[]): string {
  const r = spawnSync("git", args, { cwd: repo.dir, encoding: "utf8", env: { ...process.env, LC_ALL: "C" } });
  return `${r.stdout}${r.stderr}`;
}

type Arity = "flag" | "value" | "optional";

/** The options `git SUB -h` lists: `-x, --name <arg>`, `--name[=<arg>]`, `-x[<arg>]`. */
function helpOptions(sub: readonly string[]): { short?: string; long?: string; arity: Arity }[] {
  const out: { short?: string; long?: string; arity: Arity }[] = [];
  for (const line of gitOutput([...sub, "-h"]).split("\n")) {
    const m = /^ {4}(-\S.*?)(?: {2,}|$)/.exec(line);
    if (!m) continue;
    let short: string | undefined;
    let long: string | undefined;
    let arity: Arity = "flag";
    for (const part of m[1]!.split(/,\s*/)) {
      const l = /^--(?:\[no-\])?([a-z0-9][a-z0-9-]*)(.*)$/.exec(part.trim());
      const s = /^-([A-Za-z0-9])(.*)$/.exec(part.trim());
      const rest = (l ?? s)?.[2] ?? "";
      if (l) long = l[1];
      else if (s) short = s[1];
      if (rest.startsWith("[")) arity = "optional";
      else if (rest.trim()) arity = "value";
    }
    if (short === "N" && long === undefined) continue; // `-NUM`
    out.push({ short, long, arity });
  }
  return out;
}

function longArity(spec: OptionSpec, name: string): Arity | undefined {
  if (spec.longArgs?.[name] !== undefined) return "value";
  if (spec.longOptional?.[name] !== undefined) return "optional";
  if (spec.long?.includes(name)) return "flag";
  return undefined;
}
function shortArity(spec: OptionSpec, c: string): Arity | undefined {
  if (spec.shortArgs?.[c] !== undefined) return "value";
  if (spec.shortOptional?.[c] !== undefined) return "optional";
  if (spec.flags?.includes(c)) return "flag";
  return undefined;
}

/** Table name → the git command whose `-h` is its authority (`stash-pop` is `git stash pop`). */
function helpArgv(key: string): string[] {
  const paired = ["stash", "worktree", "remote", "notes"].find((p) => key.startsWith(`${p}-`));
  return paired ? [paired, key.slice(paired.length + 1)] : [key];
}
/** Hand-parsed (revision.c, rev-parse; `stash create` takes `-h` for its message): no `-h` table to compare. */
const BY_HAND = new Set([
  "stash-create",
  "log",
  "show",
  "whatchanged",
  "rev-list",
  "reflog",
  "stash-list",
  "rev-parse",
  "var",
  "version",
]);

/**
 * Where the grammar reads an option differently from what `-h` prints, and why (checked with the real git):
 * `diff`'s family takes the diff options, whose `-h` section is not parse-options notation.
 */
const DIFF_FAMILY = new Set(["diff", "diff-tree", "diff-files", "diff-index"]);

/**
 * Short spellings read apart from their long one, and why: `archive -o F` writes F (the path gate checks it),
 * while `--output`, harmful in every subcommand, stays dangerous as it was.
 */
const APART = new Set(["archive -o"]);

const tables = { ...TABLES.readers, ...TABLES.writers };
const grammarOf = (key: string): OptionSpec =>
  key === "config" ? CONFIG : (READER_GRAMMARS.get(key) ?? WRITER_GRAMMARS.get(key))!;

describe("each table knows every option `git SUB -h` lists, with its arity", () => {
  const keys = [...Object.keys(tables), "config"].filter((k) => !BY_HAND.has(k) && !DIFF_FAMILY.has(k));
  it.each(keys)("%s", (key) => {
    const spec = grammarOf(key);
    expect(gitOutput([...helpArgv(key), "-h"])).toMatch(/usage: git /);
    const listed = helpOptions(helpArgv(key));
    expect(listed.length > 0 || tables[key] === "").toBe(true);
    const wrong: string[] = [];
    for (const o of listed) {
      if (o.long !== undefined && longArity(spec, o.long) !== o.arity)
        wrong.push(`--${o.long}: git ${o.arity}, grammar ${longArity(spec, o.long) ?? "unknown"}`);
      // A short spelling of a long option takes the long one's arity; a short one alone has its own.
      if (o.short !== undefined && shortArity(spec, o.short) !== o.arity)
        wrong.push(`-${o.short}: git ${o.arity}, grammar ${shortArity(spec, o.short) ?? "unknown"}`);
      if (
        o.short !== undefined &&
        o.long !== undefined &&
        !APART.has(`${key} -${o.short}`) &&
        spec.same?.[`-${o.short}`] !== `--${o.long}`
      )
        wrong.push(`-${o.short} is not read as --${o.long}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("each table knows every long option `--git-completion-helper` lists", () => {
  const keys = ["diff", "diff-tree", "diff-files", "diff-index", "log", "show", "grep", "blame", "range-diff"];
  it.each(keys)("%s", (key) => {
    const spec = grammarOf(key);
    const names = gitOutput([key, "--git-completion-helper"])
      .split(/\s+/)
      .filter((w) => w.startsWith("--") && w !== "--")
      .map((w) => w.slice(2).replace(/=$/, ""));
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => longArity(spec, n) === undefined && !spec.runs?.[`--${n}`])).toEqual([]);
  });
});

describe("spellings the real git runs a program for are hard asks", () => {
  // A program that records that git ran it, then fails (so git stops).
  const marks = tempTree({ "mark.sh": '#!/bin/sh\necho ran >> "$(dirname "$0")/ran"\nexit 1\n' });
  spawnSync("chmod", ["+x", marks.path("mark.sh")]);
  spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x", "--allow-empty"], {
    cwd: repo.dir,
  });
  spawnSync("git", ["add", "f.txt"], { cwd: repo.dir });
  afterAll(() => marks.cleanup());
  const MARK = marks.path("mark.sh");

  it.each([
    ["ls-remote", "--upl=MARK", "."],
    ["ls-remote", "--upload-p", "MARK", "."],
    ["fetch", "--upl=MARK", "."],
    ["pull", "--upload-pa=MARK", "."],
    ["push", "--exec=MARK", ".", "HEAD:refs/heads/x"],
    ["grep", "--op=MARK", "-e", "a"],
    ["grep", "--open-files=MARK", "-e", "a"],
    ["grep", "-OMARK", "-e", "a"],
    ["clone", "-u", "MARK", ".", "DEST"],
    ["clone", "--upl=MARK", ".", "DEST"],
    ["archive", "--remote=.", "--exec=MARK", "HEAD"],
  ])("git %s %s …", async (...words) => {
    const dest = `${marks.dir}/dest-${words.join("").replace(/\W/g, "").slice(0, 40)}`;
    const argv = words.map((w) => w.replace("MARK", MARK).replace("DEST", dest));
    spawnSync("rm", ["-f", marks.path("ran")]);
    spawnSync("git", argv, { cwd: repo.dir, env: { ...process.env, GIT_PAGER: "cat" }, timeout: 10_000 });
    // The real git accepted the spelling and ran the program…
    expect(spawnSync("cat", [marks.path("ran")], { encoding: "utf8" }).stdout).toContain("ran");
    // …and Toolgate asks, whatever the mode and rules.
    const a = await loadedAnalyzer();
    const line = ["git", ...argv].map((w) => `'${w}'`).join(" ");
    expect(a.analyze(line, context({ allow: ["git"] })).verdict).toBe("unparseable");
  });
});
