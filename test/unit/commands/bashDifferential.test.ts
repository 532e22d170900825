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
    fc.assert(
      fc.property(statement, (line) => {
        const commands = allCommands(a.parse(line));
        if (!commands) return;
        for (const argv of runInBash(line))
          expect(
            commands.some((words) => matches(argv, words)),
            `${JSON.stringify(line)} ran ${JSON.stringify(argv)}`,
          ).toBe(true);
      }),
      { numRuns: Number(process.env.BASH_RUNS ?? 200) },
    );
  }, 600_000);
});
