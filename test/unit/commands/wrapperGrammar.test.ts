/**
 * The wrappers' option grammars (catalogue/wrapperGrammars.ts) against the real programs installed here.
 * For every option of a grammar, in every spelling (short, clustered, attached and separate values, long
 * with `=` or a separate value, every GNU abbreviation, ambiguous ones included), two differential checks:
 * - the command starts where the real program starts it: `PROG OPTIONS /bin/echo RAN` prints RAN exactly
 *   when the catalogue check hands `/bin/echo RAN` on as the command and finds nothing unknown;
 * - the options end where the real program's do: `PROG OPTIONS --zzbogus` is rejected by the real program
 *   exactly when the grammar reads `--zzbogus` as an option it does not know (not as a value).
 * A grammar that gives a flag a value, or a valued option none, or resolves an abbreviation otherwise than
 * getopt_long, fails both.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { OptionSpec } from "../../../src/core/commands/catalogue/options";
import {
  ENV,
  IONICE,
  NICE,
  NOHUP,
  SETSID,
  STDBUF,
  TIME,
  TIMEOUT,
  WATCH,
} from "../../../src/core/commands/catalogue/wrapperGrammars";
import { WRAPPERS } from "../../../src/core/commands/catalogue/wrappers";
import { recordingEffects, words } from "./recordingEffects";

const dir = mkdtempSync(join(tmpdir(), "toolgate-wrappers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const has = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;

interface Program {
  readonly name: string;
  /** The executable to run (GNU time is not bash's keyword). */
  readonly path: string;
  readonly spec: OptionSpec;
  /** A value each valued option accepts. */
  readonly values: Readonly<Record<string, string>>;
  /** Words between the options and the command (timeout's DURATION). */
  readonly leading?: readonly string[];
  /** Options left out: they exit at once (help), need a terminal, or act on other processes. */
  readonly skip?: readonly string[];
  /** Words before the options (stdbuf does nothing without a buffering mode). */
  readonly before?: readonly string[];
  /** Runs the command forever (watch): only the option-end check is made. */
  readonly noRun?: boolean;
}

/** The grammar's options that `PROG --help` does not list (an older version than the grammar's). */
function notInHelp(program: string, spec: OptionSpec): string[] {
  if (!has(program)) return [];
  const help = spawnSync(program, ["--help"], { encoding: "utf8", env: { ...process.env, LC_ALL: "C" } });
  const text = help.stdout + help.stderr;
  const shorts = [...(spec.flags ?? "")].map((c) => `-${c}`);
  const longs = (spec.long ?? []).map((n) => `--${n}`);
  return [...shorts, ...longs].filter((o) => !new RegExp(`(^|[\\s,])${o}([\\s,=[]|$)`, "m").test(text));
}

const COMMON_SKIP = ["-h", "--help", "-V", "--version"];

const PROGRAMS: readonly Program[] = [
  {
    name: "env",
    path: "env",
    spec: ENV,
    values: {
      u: "X",
      C: "/",
      unset: "X",
      chdir: "/",
      "block-signal": "INT",
      "default-signal": "INT",
      "ignore-signal": "INT",
    },
    // `-S` is re-read in place (its own tests below); `-0` refuses a command; `-v` debug prints to stderr.
    skip: ["-S", "--split-string", "-0", "--null", "--list-signal-handling"],
  },
  {
    name: "timeout",
    path: "timeout",
    spec: TIMEOUT,
    values: { k: "1", s: "TERM", "kill-after": "1", signal: "TERM" },
    leading: ["5"],
  },
  { name: "nice", path: "nice", spec: NICE, values: { n: "1", adjustment: "1" } },
  { name: "nohup", path: "nohup", spec: NOHUP, values: {} },
  {
    name: "stdbuf",
    path: "stdbuf",
    spec: STDBUF,
    before: ["-o0"],
    values: { i: "0", o: "0", e: "0", input: "0", output: "0", error: "0" },
  },
  { name: "setsid", path: "setsid", spec: SETSID, values: {}, skip: ["-c", "--ctty", "-f", "--fork"] },
  {
    name: "ionice",
    path: "ionice",
    spec: IONICE,
    values: { c: "2", n: "4", class: "2", classdata: "4", p: "1", P: "1", u: "1", pid: "1", pgid: "1", uid: "1" },
    skip: ["-p", "--pid", "-P", "--pgid", "-u", "--uid"],
  },
  {
    name: "time",
    path: "/usr/bin/time",
    spec: TIME,
    values: { o: "out.txt", f: "%e", output: "out.txt", format: "%e" },
  },
  {
    name: "watch",
    path: "watch",
    spec: WATCH,
    values: { n: "1", q: "1", interval: "1", equexit: "1", d: "1", differences: "1" },
    // Options newer than the installed watch (procps-ng 4.0.4 added `-r` and `-C`) are left out.
    skip: ["-v", ...notInHelp("watch", WATCH)],
    noRun: true,
  },
];

/** Every spelling of every option of `p`'s grammar, as option words. */
function spellings(p: Program): string[][] {
  const s = p.spec;
  const skip = new Set([...COMMON_SKIP, ...(p.skip ?? [])]);
  const out: string[][] = [];
  const value = (name: string) => p.values[name] ?? "1";
  const flags = [...(s.flags ?? "")].filter((c) => !skip.has(`-${c}`));
  for (const c of flags) out.push([`-${c}`]);
  for (let i = 0; i + 1 < flags.length; i++) out.push([`-${flags[i]}${flags[i + 1]}`]);
  for (const [c] of Object.entries(s.shortArgs ?? {})) {
    if (skip.has(`-${c}`)) continue;
    out.push([`-${c}`, value(c)], [`-${c}${value(c)}`]);
    if (flags[0]) out.push([`-${flags[0]}${c}`, value(c)], [`-${flags[0]}${c}${value(c)}`]);
  }
  for (const [c] of Object.entries(s.shortOptional ?? {})) out.push([`-${c}`], [`-${c}${value(c)}`]);
  const longs = [
    ...(s.long ?? []).map((n) => [n, "none"] as const),
    ...Object.keys(s.longArgs ?? {}).map((n) => [n, "required"] as const),
    ...Object.keys(s.longOptional ?? {}).map((n) => [n, "optional"] as const),
  ].filter(([n]) => !skip.has(`--${n}`));
  const allNames = [...(s.long ?? []), ...Object.keys(s.longArgs ?? {}), ...Object.keys(s.longOptional ?? {})];
  for (const [name, kind] of longs) {
    // Every prefix, down to one letter: getopt_long takes the unambiguous ones, refuses the others.
    for (let len = name.length; len >= 1; len--) {
      const written = `--${name.slice(0, len)}`;
      const others = allNames.filter((n) => n.startsWith(name.slice(0, len)));
      if (others.some((n) => skip.has(`--${n}`))) continue;
      // A prefix that is another option's whole name is that option.
      if (len < name.length && allNames.includes(name.slice(0, len))) continue;
      if (kind === "none") out.push([written]);
      if (kind === "required") out.push([`${written}=${value(name)}`], [written, value(name)]);
      if (kind === "optional") out.push([written], [`${written}=${value(name)}`]);
      if (kind === "none" && len === name.length) out.push([`${written}=1`]);
    }
  }
  if (s.numeric) out.push(["-5"], ["-12"]);
  out.push(["--"], ["-zq"], ["--zzother"]);
  return out;
}

function realRuns(p: Program, opts: readonly string[]): boolean {
  const r = spawnSync(p.path, [...(p.before ?? []), ...opts, ...(p.leading ?? []), "/bin/echo", "RAN"], {
    cwd: dir,
    encoding: "utf8",
    input: "",
    timeout: 10_000,
    env: { ...process.env, LC_ALL: "C" },
  });
  return r.stdout.split("\n").includes("RAN");
}

function ourRuns(p: Program, opts: readonly string[]): boolean {
  const rec = recordingEffects();
  WRAPPERS[p.name]!(words([p.name, ...(p.before ?? []), ...opts, ...(p.leading ?? []), "/bin/echo", "RAN"]), rec.fx);
  return rec.unknown.length === 0 && rec.nested.some((n) => n.join(" ") === "/bin/echo RAN");
}

function realRejectsSentinel(p: Program, opts: readonly string[]): boolean {
  const r = spawnSync(p.path, [...opts, "--zzbogus"], {
    cwd: dir,
    encoding: "utf8",
    input: "",
    timeout: 3_000,
    env: { ...process.env, LC_ALL: "C" },
  });
  return r.stderr.includes("'--zzbogus'") && /unrecognized option/.test(r.stderr);
}

function ourRejectsSentinel(p: Program, opts: readonly string[]): boolean {
  const rec = recordingEffects();
  WRAPPERS[p.name]!(words([p.name, ...opts, "--zzbogus"]), rec.fx);
  // The first option it does not know is the sentinel (the real program stops at its first error).
  return rec.unknown[0]?.includes("--zzbogus") === true;
}

for (const p of PROGRAMS) {
  describe.skipIf(!has(p.path))(`${p.name}'s grammar is the real ${p.name}'s`, () => {
    const cases = spellings(p).map((opts) => [opts.join(" "), opts] as const);
    it.each(cases)("`%s` ends the options where it does", (_, opts) => {
      expect(ourRejectsSentinel(p, opts)).toBe(realRejectsSentinel(p, opts));
    });
    it.skipIf(p.noRun === true).each(cases)("`%s` starts the command where it does", (_, opts) => {
      expect(ourRuns(p, opts)).toBe(realRuns(p, opts));
    });
  });
}

describe.skipIf(!has("env"))("env -S is re-read in place, as the real env reads it", () => {
  // The string's words take its place; options before it stay read, options after it are read again.
  const cases: readonly (readonly string[])[] = [
    ["-S", "/bin/echo RAN"],
    ["-S/bin/echo RAN"],
    ["--split-string=/bin/echo RAN"],
    ["--split=/bin/echo RAN"],
    ["-iS", "/bin/echo RAN"],
    ["-S", "-i /bin/echo", "RAN"],
    ["-S", "-u X", "/bin/echo", "RAN"],
    ["-S", "A=1 /bin/echo", "RAN"],
    ["-S", "-S /bin/echo", "RAN"],
    ["-S", "/bin/echo", "-x", "RAN"],
  ];
  it.each(cases.map((c) => [c.join(" | "), c] as const))("%s", (_, args) => {
    const real = spawnSync("env", args, { encoding: "utf8", input: "", cwd: dir });
    const rec = recordingEffects();
    WRAPPERS.env!(words(["env", ...args]), rec.fx);
    expect(rec.unknown).toEqual([]);
    const ran = rec.nested[0]!;
    expect(ran[0]).toBe("/bin/echo");
    expect(real.stdout).toBe(`${ran.slice(1).join(" ")}\n`);
  });
});
