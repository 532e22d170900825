/**
 * More spellings of "print the environment" (gathered against Cline and Codex, which run commands with their
 * API keys in the environment): each must set `CommandAnalysis.readsEnvironment`; everyday lines must not.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, loadedAnalyzer } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});
const reads = (line: string) => a.analyze(line, context({ allow: ["node", "npm"] })).readsEnvironment;

describe("environment spellings", () => {
  const leaks = [
    "printenv OPENAI_API_KEY",
    "/usr/bin/env | grep KEY",
    "ls; printenv",
    "echo $(printenv)",
    "echo `env`",
    '"printenv"',
    "typeset -x",
    "compgen -v",
    "ps eww",
    "awk 'BEGIN{print ENVIRON[\"HOME\"]}'",
    "jq -n env",
    "jq -n '$ENV.PATH'",
    "echo ${GH_TOKEN:0:4}",
    "echo ${!OPENAI*}",
    "echo $MY_SECRET_VALUE",
    "node -p process.env.OPENAI_API_KEY",
  ];
  for (const line of leaks) it(`could print it: ${line}`, () => expect(reads(line)).toBeDefined());
  const benign = [
    "ls",
    "git status && git diff",
    "cat .env.example",
    "grep -rn TODO src",
    'echo "$HOME"',
    "ls src/env/",
  ];
  for (const line of benign) it(`cannot: ${line}`, () => expect(reads(line)).toBeUndefined());
});
