/**
 * The built-in catalogue: program name → check. A Map, so that names like `constructor` or `__proto__`
 * never reach an object prototype.
 */
import { awk } from "./awk";
import { BASIC } from "./basic";
import { COMPRESS } from "./compress";
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

export function catalogueEntry(program: string): ProgramCheck | undefined {
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
