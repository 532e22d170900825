/**
 * Lines that could show a command's environment to the model. A command the agent runs itself (outside
 * Toolgate's sandbox, which scrubs credentials) inherits the agent's whole environment, API keys included, so
 * `printenv OPENAI_API_KEY` is "read-only" to the command analysis and still a leak.
 *
 * Invariant: a lexical over-approximation on the raw line, never on a parse — it may ask about a harmless line
 * (`ls env`), it must not let through a line that prints a variable: every spelling that names a printing
 * builtin or program (`env`, `printenv`, `set`, `export`, `declare`, `typeset`, `compgen`, `ps` with its
 * environment columns), the process environment files (`/proc/<pid>/environ`, awk's `ENVIRON`, jq's `$ENV` and
 * `env`), an expansion of a credential-looking variable (`$X_API_KEY`, `${TOKEN}`, `${!prefix*}` indirection),
 * or the name of a credential-looking variable that is set where the hook runs.
 */

/** Variable names that look like they hold a credential. */
const CREDENTIAL_NAME = /(KEY|TOKEN|SECRET|PASS|PASSWORD|PASSWD|CRED|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE)/i;

/** A word that prints the environment when run as a command (or, for `env`, when given to jq). */
const PRINTERS = ["env", "printenv", "set", "export", "declare", "typeset", "compgen", "ps"];

// A word boundary in shell terms: start, blank, an operator or a quote/substitution opener, and the same after.
const BEFORE = String.raw`(?:^|[\s;&|()<>` + "`" + String.raw`'"{}$\\])`;
// After the word also `.` and `[`: jq's `$ENV.X` and `$ENV["X"]`.
const AFTER = String.raw`(?=$|[\s;&|()<>.[` + "`" + String.raw`'"{}\\])`;
const PRINTER_WORD = new RegExp(`${BEFORE}(?:[\\w./-]*/)?(?:${PRINTERS.join("|")})${AFTER}`, "i");

/** `$NAME`, `${NAME…}` and `${!…}` expansions. */
const EXPANSION = /\$\{?(!?)([A-Za-z_][A-Za-z0-9_]*)/g;

/** Why `line` could print the environment it runs with, or undefined. */
export function environmentExposure(line: string, env: NodeJS.ProcessEnv): string | undefined {
  if (/environ/i.test(line)) return "it could read a process environment (`environ`)";
  const printer = PRINTER_WORD.exec(line);
  if (printer) return `it names \`${printer[0].trim().replace(/^[;&|()<>`'"{}$\\]+/, "")}\`, which can print variables`;
  for (const m of line.matchAll(EXPANSION)) {
    if (m[1] === "!") return "it expands variables indirectly (`${!…}`)";
    const name = m[2] ?? "";
    if (CREDENTIAL_NAME.test(name)) return `it expands \`$${name}\`, a credential-looking variable`;
  }
  for (const name of Object.keys(env)) {
    if (name.length < 3 || !CREDENTIAL_NAME.test(name) || env[name] === undefined || env[name] === "") continue;
    if (line.includes(name)) return `it names \`${name}\`, a credential-looking variable set here`;
  }
  return undefined;
}

/** The hard-ask reason a hook gives for such a line. */
export function environmentAsk(agent: string, line: string, env: NodeJS.ProcessEnv): string | undefined {
  const why = environmentExposure(line, env);
  return why === undefined
    ? undefined
    : `${agent} runs this command with its own environment (API keys included), not in Toolgate's sandbox, and ${why}: you decide`;
}
