/**
 * Lines that could show the agent's environment to the model (src/cli/hooks/envExposure.ts): every spelling
 * asks, everyday lines do not.
 */
import { describe, expect, it } from "vitest";
import { environmentExposure } from "../../../src/cli/hooks/envExposure";

const env = { OPENAI_API_KEY: "sk-x", HOME: "/home/u", GH_TOKEN: "ghp", PATH: "/usr/bin" };

describe("environmentExposure", () => {
  const leaks = [
    "printenv OPENAI_API_KEY",
    "env",
    "/usr/bin/env | grep KEY",
    "ls; printenv",
    "echo $(printenv)",
    "echo `env`",
    '"printenv"',
    "export -p",
    "declare -px",
    "typeset -x",
    "set",
    "compgen -v",
    "ps eww",
    "cat /proc/self/environ",
    "tr '\\0' '\\n' < /proc/$$/environ",
    "awk 'BEGIN{print ENVIRON[\"HOME\"]}'",
    "jq -n env",
    "jq -n '$ENV.PATH'",
    "echo $OPENAI_API_KEY",
    "echo ${GH_TOKEN:0:4}",
    "echo ${!OPENAI*}",
    "echo $MY_SECRET_VALUE",
    "node -p process.env.OPENAI_API_KEY",
  ];
  for (const line of leaks)
    it(`asks: ${line}`, () => {
      expect(environmentExposure(line, env)).toBeDefined();
    });
  const benign = [
    "ls",
    "git status && git diff",
    "cat .env.example",
    "grep -rn TODO src",
    'echo "$HOME"',
    "ls src/env/",
    "npm test",
  ];
  for (const line of benign)
    it(`passes: ${line}`, () => {
      expect(environmentExposure(line, env)).toBeUndefined();
    });
});
