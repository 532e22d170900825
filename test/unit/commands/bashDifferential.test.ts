/**
 * The parsers against bash itself. Generated lines run in a real `bash -c` whose PATH holds only stub
 * programs that log their argv; every command bash actually ran must be in the model the analyzer built
 * (same program, same literal arguments). This checks the parsers' agreement with the shell, not just
 * with each other. Skipped where bash is missing.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { UNKNOWN, type Script, type Word } from "../../../src/core/commands/model";
import { resolveTildes } from "../../../src/core/commands/tildes";
import { loadedAnalyzer } from "./helpers";

/** bash's absolute path: the runs below get a PATH with only the stubs. */
const bashPath = spawnSync("sh", ["-c", "command -v bash"], { encoding: "utf8" }).stdout.trim();
const bash = bashPath.startsWith("/");
const PROGRAMS = ["ls", "git", "npm", "cat", "grep", "rm", "sed", "find", "curl", "wc", "head", "tee", "xargs", "a.sh"];

let root: string;
let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
  root = mkdtempSync(join(tmpdir(), "toolgate-bash-"));
  mkdirSync(join(root, "bin"));
  // `bash` and `sh` are the real bash (with the same stub-only PATH), so payloads run too.
  for (const sh of ["bash", "sh"]) {
    writeFileSync(join(root, "bin", sh), `#!/bin/sh\nexec ${bashPath} --norc --noprofile "$@"\n`);
    chmodSync(join(root, "bin", sh), 0o755);
  }
  for (const p of PROGRAMS) {
    const stub = join(root, "bin", p);
    // One record per run, written in one append (pipeline members run at once): fields end in \x1f, the
    // record in \x1e. Reads nothing, prints one line.
    writeFileSync(
      stub,
      `#!/bin/sh\nrec=$(printf '%s\\037' "\${0##*/}" "$@")\nprintf '%s\\036' "$rec" >> "$LOG"\necho out\n`,
    );
    chmodSync(stub, 0o755);
  }
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function runInBash(line: string): string[][] {
  const work = mkdtempSync(join(root, "w-"));
  const log = join(work, ".log");
  writeFileSync(log, "");
  const r = spawnSync(bashPath, ["--norc", "--noprofile", "-c", line], {
    cwd: work,
    env: { PATH: join(root, "bin"), HOME: join(work, "home"), LOG: log },
    // Generous: a generated line runs a dozen stub processes, and on a loaded machine that has taken over 3 s.
    timeout: 15_000,
    stdio: "ignore",
  });
  if (r.error) throw r.error;
  const records = readFileSync(log, "utf8")
    .split("\x1e")
    .filter((r) => r.length > 0);
  return records.map((r) => r.split("\x1f").slice(0, -1));
}

function matches(argv: string[], words: readonly Word[]): boolean {
  const program = words[0];
  if (!program) return false;
  if (program.literal && program.value.replace(/^.*\//, "") !== argv[0]) return false;
  for (let i = 1; i < argv.length; i++) {
    const w = words[i];
    if (!w) return words.some((x) => x.splits);
    if (w.splits) return true; // from here on the shell may have split or expanded words
    if (w.literal && w.value !== argv[i]) return false;
    if (!w.literal && w.tilde === undefined && !w.value.includes(UNKNOWN) && w.value !== argv[i]) return false;
  }
  return words.length === argv.length || words.slice(argv.length).some((x) => x.splits);
}

/**
 * The commands of a script, with the payloads of `bash -c`/`sh -c`/`eval` parsed in (as the analyzer does);
 * undefined when a payload is unparseable (the analyzer then refuses the whole line).
 */
function allCommands(script: Script, depth = 0): (readonly Word[])[] | undefined {
  if (script.unparseable) return undefined;
  const out: (readonly Word[])[] = [];
  for (const c of script.commands) {
    if (c.words.length === 0) continue;
    out.push(c.words);
    const [p, flag, payload] = c.words;
    let text: string | undefined;
    if ((p?.value === "bash" || p?.value === "sh") && flag?.value === "-c" && payload?.literal) text = payload.value;
    if (p?.value === "eval" && c.words.slice(1).every((w) => w.literal))
      text = c.words
        .slice(1)
        .map((w) => w.value)
        .join(" ");
    if (text !== undefined && depth < 4) {
      const nested = allCommands(a.parse(text), depth + 1);
      if (!nested) return undefined;
      out.push(...nested);
    }
  }
  return out;
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

const word = fc.constantFrom(
  "-la",
  "src",
  "a.txt",
  "--",
  "x=y",
  "'a b'",
  '"c d"',
  "\\rm",
  "r\\m",
  "'rm'",
  '"$HOME"',
  "$HOME",
  "a\\ b",
  "$'\\x41'",
  "''",
  "é",
  "{}",
  "%s",
  "~",
  "~/x",
  "*.none",
  "a,b",
  "a\\\nb",
  "$'a\\nb'",
  '"x\ny"',
  "{a,b}",
  "#c",
  "a#b",
  "${HOME}",
  '"$(ls)"',
  "$(cat a.txt)",
  "`ls`",
  "${X:-d}",
  "$((1+2))",
  "[x]",
);
const program = fc.constantFrom(
  ...PROGRAMS.filter((p) => p !== "a.sh"),
  "\\rm",
  "'rm'",
  '"cat"',
  "r\\m",
  "c''at",
  "$'\\x72m'",
);
const simple = fc
  .tuple(
    fc.constantFrom("", "", "A=1 ", "B='x y' "),
    program,
    fc.array(word, { maxLength: 3 }),
    fc.constantFrom("", "", " > o.txt", " 2>/dev/null", " 2>&1", " < /dev/null", " >> o.txt"),
  )
  .map(([p, prog, ws, r]) => `${p}${[prog, ...ws].join(" ")}${r}`);
const { statement } = fc.letrec<{ statement: string; list: string }>((tie) => ({
  statement: fc.oneof(
    { arbitrary: simple, weight: 5 },
    { arbitrary: tie("list").map((l) => `( ${l} )`), weight: 1 },
    { arbitrary: tie("list").map((l) => `{ ${l}; }`), weight: 1 },
    { arbitrary: fc.tuple(tie("list"), tie("list")).map(([c, t]) => `if ${c}; then ${t}; fi`), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.array(word, { minLength: 1, maxLength: 2 }), tie("list"))
        .map(([ws, b]) => `for f in ${ws.join(" ")}; do ${b}; done`),
      weight: 1,
    },
    { arbitrary: fc.tuple(program, tie("list")).map(([p, l]) => `${p} "$(${l})"`), weight: 1 },
    { arbitrary: fc.tuple(program, tie("list")).map(([p, l]) => `${p} $(${l})`), weight: 1 },
    { arbitrary: fc.tuple(program, tie("list")).map(([p, l]) => `${p} <(${l})`), weight: 1 },
    {
      arbitrary: fc
        .tuple(
          program,
          fc.constantFrom("'EOF'", "EOF", "-EOF"),
          fc.constantFrom("body", "$HOME", "a $(git x) b", "\tx"),
        )
        .map(([p, d, b]) => `${p} <<${d}\n${b}\n${d.startsWith("-") ? "\t" : ""}EOF`),
      weight: 1,
    },
    { arbitrary: fc.tuple(program, word).map(([p, w]) => `${p} <<< ${w}`), weight: 1 },
    { arbitrary: fc.tuple(tie("list"), tie("list")).map(([c, b]) => `while ${c}; do ${b}; break; done`), weight: 1 },
    { arbitrary: tie("statement").map((s) => `! ${s}`), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom("bash -c ", "sh -c ", "eval "), tie("list"))
        .map(([w, l]) => w + shellQuote(l)),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom("bash -c ", "eval "), tie("list"))
        .map(([w, l]) => `${w}"${l.replace(/[\\"$`]/g, "\\$&")}"`),
      weight: 1,
    },
  ),
  list: fc
    .tuple(
      fc.array(
        fc.tuple(
          tie("statement"),
          fc.constantFrom(" ; ", " && ", " | ", "\n", " & ", " || ", " |& ", "\n\n", " &&\n", ";\n", " # note\n"),
        ),
        { maxLength: 3 },
      ),
      tie("statement"),
    )
    .map(([pairs, last]) => pairs.map(([s, o]) => s + o).join("") + last),
}));

describe.skipIf(!bash)("against bash", () => {
  it("the harness sees what bash runs", () => {
    const ran = runInBash("ls -la && \\rm 'a b' | cat $(git x)");
    expect(ran).toHaveLength(4);
    expect(ran).toEqual(
      expect.arrayContaining([
        ["git", "x"],
        ["ls", "-la"],
        ["rm", "a b"],
        ["cat", "out"],
      ]),
    );
    // A model that lacks a command is caught.
    const commands = allCommands(a.parse("ls -la && bash -c 'cat a'"))!;
    expect(commands.some((w) => matches(["rm", "-rf", "x"], w))).toBe(false);
    expect(commands.some((w) => matches(["ls", "-la"], w))).toBe(true);
    expect(commands.some((w) => matches(["cat", "a"], w))).toBe(true);
  });

  it("every command bash runs is in the model (fast parser and tree-sitter walker)", () => {
    const runs = Number(process.env.BASH_RUNS ?? 200);
    let compared = 0;
    fc.assert(
      fc.property(statement, (line) => {
        const commands = allCommands(a.parse(line));
        if (!commands) return;
        compared++;
        for (const argv of runInBash(line))
          expect(
            commands.some((words) => matches(argv, words)),
            `${JSON.stringify(line)} ran ${JSON.stringify(argv)}`,
          ).toBe(true);
      }),
      { numRuns: runs },
    );
    // A generator that made every line unparseable would pass vacuously: most lines must reach bash.
    if (process.env.BASH_RUNS) console.log(`compared ${compared} of ${runs}`);
    expect(compared).toBeGreaterThan(0.5 * runs);
  }, 600_000);
});

/**
 * Brace and tilde expansion of one word, ours against bash's own (`set -f`, so globs print as written; fixed
 * HOME, PWD and OLDPWD; an empty folder). Words are made of pieces that stress bash's brace scanner: lists,
 * nesting, sequences, quoted and escaped braces and commas, `${`, tildes in every position, assignment shapes.
 * A word we call known only at run time (an unresolved tilde, an expansion we cannot place) is not compared,
 * but enough words must be compared for the test to mean something.
 */
const PIECES = [
  "{",
  "}",
  ",",
  ",",
  "..",
  "a",
  "b",
  "x",
  "1",
  "3",
  "01",
  "-2",
  "Z",
  "/",
  ":",
  "=",
  "~",
  "~",
  "~+",
  "~-",
  "'x,y'",
  "','",
  '"a b"',
  "'{'",
  "'}'",
  "\\,",
  "\\{",
  "\\}",
  "\\ x",
  "''",
  "$X/",
  "${X}",
  '"$X"',
  "$'\\x2c'",
  "{a,b}",
  "{1..3}",
  "{a..c..2}",
  "{01..3}",
  "{,}",
  "{x}",
  "{}",
  "a=",
  "v[1]=",
  "x+=",
  "-o=",
];
const expansionWord = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 7 }).map((p) => p.join(""));
const EXPAND_HOME = "/h/u";

describe.skipIf(!bash)("brace and tilde expansion against bash", () => {
  let slow: BashAnalyzer;
  beforeAll(async () => {
    const { BashAnalyzer: Analyzer } = await import("../../../src/core/commands/analyzer");
    const { GRAMMAR } = await import("./helpers");
    slow = new Analyzer({ grammarFiles: GRAMMAR, homeDir: EXPAND_HOME, fastPath: false });
    await slow.ready();
  });

  /** bash's words for each line of `set -- WORD` (argument) or `A=WORD` (assignment value). */
  function bashWords(lines: readonly string[], cwd: string): string[][] {
    // `$#` first: printf with no arguments would still print one empty field.
    const script = lines.map((l) => `${l}; printf '%s\\0' "$#" "$@"; printf '\\1\\0'`).join("\n");
    const r = spawnSync(bashPath, ["--noprofile", "--norc", "-c", `set -f\n${script}`], {
      cwd,
      env: { PATH: "/usr/bin:/bin", HOME: EXPAND_HOME, PWD: cwd, OLDPWD: "/o", X: "v" },
      encoding: "utf8",
      timeout: 60_000,
    });
    const out: string[][] = [[]];
    for (const field of r.stdout.split("\0").slice(0, -1)) {
      if (field === "\x01") out.push([]);
      else out[out.length - 1]!.push(field);
    }
    out.pop();
    for (const words of out) expect(words.shift()).toBe(String(words.length));
    return out;
  }

  /** Ours, with `$X` standing for `v` and tildes replaced; undefined when a word is known only at run time. */
  function ourWords(words: readonly Word[], cwd: string): string[] | undefined {
    const out: string[] = [];
    for (const w of words) {
      const r = resolveTildes(w, EXPAND_HOME, cwd);
      if (r.tilde !== undefined || r.value === UNKNOWN) return undefined;
      out.push(r.value.replaceAll(UNKNOWN, "v"));
    }
    return out;
  }

  it("our words are bash's words (both parsers)", () => {
    const cwd = mkdtempSync(join(tmpdir(), "toolgate-expand-"));
    try {
      const words = fc.sample(expansionWord, { numRuns: 600, seed: Number(process.env.EXPAND_SEED ?? 20) });
      const lines = [...words.map((w) => `set -- ${w}`), ...words.map((w) => `A=${w}; set -- "$A"`)];
      const theirs = bashWords(lines, cwd);
      expect(theirs).toHaveLength(lines.length);
      let compared = 0;
      const mismatches: string[] = [];
      lines.forEach((line, i) => {
        for (const analyzer of [a, slow]) {
          const script = analyzer.parse(line.replace(/; set -- "\$A"$/, ""));
          // A line the parser refuses asks anyway; it just cannot be compared.
          if (script.unparseable) continue;
          const c = script.commands[0]!;
          const mine = i < words.length ? c.words.slice(2) : [c.assignments[0]!.value];
          const ours = ourWords(mine, cwd);
          if (!ours) continue;
          compared++;
          if (JSON.stringify(ours) !== JSON.stringify(theirs[i]))
            mismatches.push(`${line}: ours ${JSON.stringify(ours)}, bash ${JSON.stringify(theirs[i])}`);
        }
      });
      if (process.env.EXPAND_SEED) console.log(`compared ${compared} of ${2 * lines.length}`);
      expect(mismatches.slice(0, 10)).toEqual([]);
      // Most generated words reach the comparison (the rest are known only at run time, e.g. `~-`).
      expect(compared).toBeGreaterThan(0.7 * 2 * lines.length);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);
});
