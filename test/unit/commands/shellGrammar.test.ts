/**
 * The shells' own option grammars (catalogue/shellGrammars.ts) against the real bash and dash: random
 * sequences of option words (clusters with `-o` inside, `+` spellings, a lone `-` or `+`, `--`, long options
 * with one dash or two, before and after short ones), then three candidate command strings `echo W1`,
 * `echo W2`, `echo W3`. Whichever one the real shell runs as its `-c` string, the catalogue check must hand on
 * as the payload it judges; where the real shell runs none (a script, its input, an error), the check must
 * judge none or find the line unknown (a hard ask). A test that cannot fail if the grammar were wrong would
 * be useless: 400 random lines per shell exercise every word of the pool in many positions.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SHELL } from "../../../src/core/commands/catalogue/shell";
import { recordingEffects, words } from "./recordingEffects";

const dir = mkdtempSync(join(tmpdir(), "toolgate-shells-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const has = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;

const POOL = [
  "-c",
  "+c",
  "-e",
  "+e",
  "-x",
  "+x",
  "-u",
  "-o",
  "+o",
  "errexit",
  "nounset",
  "-O",
  "+O",
  "extglob",
  "-",
  "--",
  "+",
  "-s",
  "+s",
  "-norc",
  "--norc",
  "-noprofile",
  "--noprofile",
  "--posix",
  "-posix",
  "-rcfile",
  "--rcfile",
  "/dev/null",
  "-cox",
  "-ce",
  "-ec",
  "-oc",
  "-co",
  "-cx",
  "-xc",
  "-eo",
  "-ceo",
  "-cs",
  "+ce",
  "-oo",
  "--verbose",
];
const CANDIDATES = ["echo W1", "echo W2", "echo W3"];

/** A fixed-seed generator, so a failure names a line that fails again. */
function lines(seed: number, count: number): string[][] {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s;
  };
  const out: string[][] = [];
  for (let n = 0; n < count; n++) {
    const len = next() % 5;
    const opts = Array.from({ length: len }, () => POOL[next() % POOL.length]!);
    out.push(opts);
  }
  return out;
}

/** Which candidate the real shell ran as its command string (1-3), or 0. */
function realRan(shell: string, opts: readonly string[]): number {
  const r = spawnSync(shell, [...opts, ...CANDIDATES], {
    cwd: dir,
    encoding: "utf8",
    input: "",
    timeout: 10_000,
    env: { PATH: process.env.PATH, HOME: dir, LC_ALL: "C" },
  });
  const m = /^W([123])$/m.exec(r.stdout);
  return m ? Number(m[1]) : 0;
}

function ourReading(shell: string, opts: readonly string[]): { ran: number; unknown: boolean } {
  const rec = recordingEffects();
  SHELL[shell]!(words([shell, ...opts, ...CANDIDATES]), rec.fx);
  const payload = rec.payloads[0];
  return { ran: payload === undefined ? 0 : CANDIDATES.indexOf(payload) + 1, unknown: rec.unknown.length > 0 };
}

const FIXED: readonly (readonly string[])[] = [
  ["-cox", "errexit"],
  ["+c"],
  ["+", "-c"],
  ["-c", "-"],
  ["-c", "--"],
  ["-norc", "-c"],
  ["-c", "-norc"],
  ["-co", "errexit", "nounset"],
  ["-coo", "errexit", "nounset"],
  ["-oerrexit", "-c"],
  ["-s", "-c"],
  ["-x", "-", "-c"],
  ["--", "-c"],
  ["-c", "--norc"],
  ["-l", "--norc", "-c"],
];

for (const shell of ["bash", "dash", "sh"]) {
  describe.skipIf(!has(shell))(`${shell} reads its options as the real ${shell} does`, () => {
    const cases = [...FIXED, ...lines(shell.length * 7919, 400)].map((o) => [o.join(" "), o] as const);
    it.each(cases)("`%s …`", (_, opts) => {
      const real = realRan(shell, opts);
      const ours = ourReading(shell, opts);
      if (real !== 0) expect(ours.ran).toBe(real);
      // `sh` is read as bash or dash may read it: dash rejects bash's long options and `-O`, where the
      // reading judges the string bash would run.
      else if (!ours.unknown && shell !== "sh") expect(ours.ran).toBe(0);
    });
  });
}
