/**
 * Whether a command line could print the environment it runs with (`CommandAnalysis.readsEnvironment`). A
 * command that is not wrapped in the OS sandbox (another agent's hook allows it, and the agent runs it) runs
 * with the agent's own environment, API keys included, and what it prints goes to the model. So the hooks ask
 * before a line that could print it: a program that prints variables (`env`, `printenv`, `set`, `declare -p`,
 * `export -p`), an expansion of a credential-looking name (`$ANTHROPIC_API_KEY`, `${AWS_SECRET_ACCESS_KEY}`),
 * `/proc/<pid>/environ`, a filter that reads it (awk `ENVIRON`, jq `env`), or code text an interpreter runs
 * (`node -e`, `python -c`, code on an interpreter's input).
 *
 * Invariant: this over-approximates. Every test here is a text test that may say "could" for a line that does
 * not (`echo '$GH_TOKEN'` is judged as if it expanded, since a nested shell would expand it); it never says
 * "cannot" for a line that could, among the constructs it names. What it cannot see (a script file that reads
 * the environment) is bounded by the sandbox, not by this judgement.
 */
import { isCredentialVariable } from "../sandbox/credentialEnv";
import { UNKNOWN, type Word } from "./model";

/** Model-provider variables an agent holds (`ANTHROPIC_BASE_URL` is no secret, but `ANTHROPIC_AUTH_TOKEN` is). */
const AGENT_PREFIX = /^(ANTHROPIC_|OPENAI_|GEMINI_|GOOGLE_|MISTRAL_|GROQ_|XAI_|COHERE_|DEEPSEEK_|OPENROUTER_)/i;

/** Whether a variable name looks like it holds a credential (`*_KEY`, `*_TOKEN`, `AWS_*`, `ANTHROPIC_*`…). */
export function credentialLooking(name: string): boolean {
  return isCredentialVariable(name) || AGENT_PREFIX.test(name);
}

/** `$NAME`, `${NAME…}`, `${#NAME}`: names bash (or a nested shell) may expand anywhere in the text. */
const EXPANSION = /\$\{?#?([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * The lexical part, over the whole line text (quotes, here-documents and nested payloads included, since a
 * nested shell expands what the outer one quoted): the first reason the line could print a secret, if any.
 */
export function lineReadsEnvironment(line: string): string | undefined {
  for (const m of line.matchAll(EXPANSION)) {
    const name = m[1]!;
    if (credentialLooking(name)) return `the line expands \`$${name}\`, which looks like a credential`;
  }
  // `${!x}` expands the variable `x` names, `${!PREFIX*}` lists names: either may reach any variable.
  if (/\$\{!/.test(line)) return "the line expands `${!…}`, which may reach any variable";
  if (/environ/.test(line) && /\/proc\b|\/dev\/fd/.test(line))
    return "the line names a process's environment (`/proc/…/environ`)";
  return undefined;
}

/** Interpreters and the options that make their next argument (or the rest) code text. */
const CODE_FLAGS: readonly [RegExp, ReadonlySet<string>][] = [
  [/^(node|nodejs|bun|deno)$/, new Set(["-e", "--eval", "-p", "--print", "eval"])],
  [/^(python|pypy)[0-9.]*$/, new Set(["-c"])],
  [/^perl[0-9.]*$/, new Set(["-e", "-E"])],
  [/^ruby[0-9.]*$/, new Set(["-e"])],
  [/^php[0-9.]*$/, new Set(["-r"])],
  [/^(lua|luajit)[0-9.]*$/, new Set(["-e"])],
  [/^(Rscript|osascript)$/, new Set(["-e"])],
  [/^(pwsh|powershell)$/, new Set(["-c", "-command", "-Command", "-encodedcommand", "-EncodedCommand"])],
];

const VERSION_ONLY = new Set(["--version", "-v", "-V", "--help", "-h"]);

/** A cluster of short options (`-Bc`, `-ecode`) that holds one of the code flags' letters. */
function inShortCluster(value: string, flags: ReadonlySet<string>): boolean {
  if (!/^-[^-]/.test(value)) return false;
  for (const f of flags) if (/^-[a-zA-Z]$/.test(f) && value.slice(1).includes(f[1]!)) return true;
  return false;
}

/** Programs that print shell variables with no operand (or with `-p`). */
const DECLARATIONS = new Set(["declare", "typeset", "export", "readonly", "local"]);

const show = (w: Word): string => w.value.replaceAll(UNKNOWN, "…");

/** A word that may expand to nothing at all (`$x`, `"$@"`), so the program may see fewer operands than written. */
const mayVanish = (w: Word): boolean => !w.literal && (w.splits || w.value === UNKNOWN);

/**
 * The program part, for one simple command (`base` is the program's name without its directory): why it
 * could print the environment, or undefined. `stdin` is the text a here-document or here-string gives it.
 */
export function programReadsEnvironment(
  base: string,
  argv: readonly Word[],
  stdin: Word | undefined,
): string | undefined {
  const args = argv.slice(1);
  if (base === "printenv") return "`printenv` prints the environment";
  if (base === "env") {
    // `env [-i] [-u NAME] [NAME=VALUE]…` with no command left prints the environment.
    for (let i = 0; i < args.length; i++) {
      const w = args[i]!;
      if (mayVanish(w)) continue;
      if (w.value === "-u" || w.value === "--unset" || w.value === "-C" || w.value === "--chdir") {
        i++;
        continue;
      }
      if (w.value.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value)) continue;
      return undefined;
    }
    return "`env` without a command prints the environment";
  }
  if (base === "set") {
    if (args.every(mayVanish)) return "`set` without arguments prints every shell variable";
    return undefined;
  }
  if (DECLARATIONS.has(base)) {
    const options = args.filter((w) => w.value.startsWith("-") || w.value.startsWith("+"));
    if (options.some((w) => /^-[a-zA-Z]*p/.test(w.value))) return `\`${base} -p\` prints variables`;
    if (args.every((w) => mayVanish(w) || w.value.startsWith("-") || w.value.startsWith("+")))
      return `\`${base}\` without a name prints variables`;
    return undefined;
  }
  if (base === "compgen" && args.some((w) => /^-[a-zA-Z]*[ve]/.test(w.value) || w.value === "-A"))
    return "`compgen -v`/`-e` lists the shell's variables";
  if (/^(awk|gawk|mawk|nawk|busybox)$/.test(base) && args.some((w) => w.value.includes("ENVIRON")))
    return `the \`${base}\` program reads \`ENVIRON\``;
  if (/^(jq|gojq|yq)$/.test(base) && args.some((w) => /\benv\b|\$ENV\b/.test(w.value)))
    return `the \`${base}\` filter reads the environment`;
  if (base === "ps" && args.some((w) => /^[^-]*e/.test(w.value) || w.value === "-E"))
    return "`ps e` prints the environment of processes";
  for (const [program, flags] of CODE_FLAGS) {
    if (!program.test(base)) continue;
    const flag = args.find((w) => flags.has(w.value) || inShortCluster(w.value, flags));
    if (flag) return `\`${base} ${show(flag)}\` runs code text, which can print the environment`;
    if (args.length > 0 && args.every((w) => VERSION_ONLY.has(w.value))) return undefined;
    // No script operand (or `-`): the code is what the input gives it.
    const operand = args.find((w) => !w.value.startsWith("-") || w.value === "-");
    if (stdin !== undefined || operand === undefined || operand.value === "-")
      return `\`${base}\` runs the code on its input, which can print the environment`;
    return undefined;
  }
  return undefined;
}
