/**
 * The built-in catalogue: program name → check. A Map, so that names like `constructor` or `__proto__`
 * never reach an object prototype.
 */
import { awk } from "./awk";
import { BASIC } from "./basic";
import { COMPRESS } from "./compress";
import { INSPECT } from "./inspect";
import type { Word } from "../model";
import type { ProgramCheck } from "./effects";
import { find } from "./find";
import { git } from "./git";
import { jq } from "./jq";
import { PROJECT } from "./project";
import { grep, rg } from "./search";
import { sed } from "./sed";
import { SHELL } from "./shell";
import { tar } from "./tar";
import { RUNNERS, runner, WRAPPERS } from "./wrappers";

const entries: [string, ProgramCheck][] = [
  ...Object.entries(BASIC),
  ...Object.entries(COMPRESS),
  ...Object.entries(INSPECT),
  ...Object.entries(SHELL),
  ...Object.entries(WRAPPERS),
  ["grep", grep("grep")],
  ["egrep", grep("egrep")],
  ["fgrep", grep("fgrep")],
  ["rg", rg],
  ["find", find],
  ["git", git],
  ["sed", sed],
  ["awk", awk("awk")],
  ["gawk", awk("gawk")],
  ["mawk", awk("mawk")],
  ["nawk", awk("nawk")],
  ["tar", tar],
  ["jq", jq],
  ...[...RUNNERS].map((r): [string, ProgramCheck] => [r, runner(r)]),
  // Last: project commands replace the generic runner entry (`npx`) with their option checks.
  ...Object.entries(PROJECT),
];

const CATALOGUE = new Map<string, ProgramCheck>(entries);

/**
 * Version queries: the program with one word that makes it print its version and exit before it reads any
 * project file or runs anything (`node --version`, `java -version`). Left out on purpose: `cargo`/`rustc`
 * and `go` (a `rust-toolchain.toml` or go.mod `toolchain` line makes the toolchain proxy download and run
 * another toolchain), `yarn`/`pnpm` (the project's `yarnPath`/`packageManager` picks the program that runs),
 * `ruby -v` (prints, then runs a script read from its input).
 */
const VERSION_WORDS = new Map<string, readonly string[]>([
  ["node", ["--version", "-v"]],
  ["npm", ["--version", "-v"]],
  ["python", ["--version", "-V"]],
  ["python3", ["--version", "-V"]],
  ["pip", ["--version", "-V"]],
  ["pip3", ["--version", "-V"]],
  ["java", ["-version", "--version"]],
  ["javac", ["-version", "--version"]],
  ["ruby", ["--version"]],
  ["perl", ["--version", "-v"]],
  ["gcc", ["--version"]],
  ["g++", ["--version"]],
  ["cc", ["--version"]],
  ["clang", ["--version"]],
  ["make", ["--version", "-v"]],
  ["cmake", ["--version"]],
  ["deno", ["--version", "-V"]],
  ["bun", ["--version", "-v"]],
  ["bash", ["--version"]],
]);

const versionQuery =
  (program: string): ProgramCheck =>
  (_argv, fx) =>
    fx.label(`${program} --version`);

/**
 * The check for `program`; `argv`, when given, lets a version query (nothing on the line but the program and
 * its version word) be vouched for even where the program itself is not.
 */
export function catalogueEntry(program: string, argv?: readonly Word[]): ProgramCheck | undefined {
  const words = VERSION_WORDS.get(program);
  const only = argv?.length === 2 ? argv[1] : undefined;
  if (words && only?.literal && words.includes(only.value)) return versionQuery(program);
  return CATALOGUE.get(program);
}

/** Programs that run other commands: never suggested as a bare allow rule. */
export const RUNS_OTHERS = new Set<string>([
  ...Object.keys(WRAPPERS),
  ...RUNNERS,
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "posh",
  "su",
  "eval",
  "source",
  ".",
  "find",
  "git",
  "npm",
  "npx",
  "yarn",
  "pnpm",
  "bun",
  "node",
  "deno",
  "python",
  "python3",
  "perl",
  "ruby",
  "php",
  "make",
  "cargo",
  "go",
  "docker",
  "kubectl",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "gradle",
  "mvn",
  "dotnet",
  "java",
]);
