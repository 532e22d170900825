/**
 * jq: `jq [options] FILTER [FILES...]`. It writes nothing and runs nothing, but a filter can read files
 * (`import`/`include` with a `search` path of its choosing), the environment (`env`, `$ENV`) and names of
 * files (`input_filename`, `$__loc__`). The filter is judged by a text test that over-approximates: any
 * occurrence of those names, anywhere (in a string or a comment too), makes it dangerous. A filter read
 * from a file (`-f`) cannot be checked, and `-L` changes where modules come from: dangerous. Options that
 * name data files (`--slurpfile`, `--rawfile`) are reads; after `--args`/`--jsonargs` positionals are values, but
 * words that look like options are still jq's options (`jq -n '$x' --args --rawfile x FILE` reads FILE).
 * jq matches long options exactly (no abbreviations); any option the table does not know is dangerous.
 */
import type { ProgramCheck } from "./effects";
import { parseArgs, type OptionSpec } from "./options";

/** jq's own option parser: exact long names, clusters of short flags; `--arg NAME VALUE` takes two words. */
const JQ: OptionSpec = {
  exact: true,
  flags: "cnrjasSCMehV0Rb",
  shortArgs: { f: "content", L: "data" },
  long: [
    "compact-output",
    "null-input",
    "raw-input",
    "raw-output",
    "raw-output0",
    "join-output",
    "ascii-output",
    "slurp",
    "sort-keys",
    "color-output",
    "monochrome-output",
    "exit-status",
    "tab",
    "seq",
    "stream",
    "stream-errors",
    "help",
    "version",
    "build-configuration",
    "unbuffered",
    "binary",
    "args",
    "jsonargs",
  ],
  longArgs: { indent: "data", "from-file": "content", "library-path": "data" },
  longPairs: { arg: "data", argjson: "data", slurpfile: "content", rawfile: "content" },
  dangerous: {
    "-f": "takes its filter from a file Toolgate cannot check",
    "--from-file": "takes its filter from a file Toolgate cannot check",
    "-L": "changes where jq loads modules from",
    "--library-path": "changes where jq loads modules from",
  },
  same: { "-f": "--from-file", "--jsonargs": "--args" },
};

const DANGEROUS_NAMES: readonly [string, string][] = [
  ["import", "imports a module, which reads files"],
  ["include", "includes a module, which reads files"],
  ["modulemeta", "reads module files"],
  ["env", "reads the environment"],
  ["ENV", "reads the environment"],
  ["input_filename", "reads the names of its input files"],
  ["$__", "reads interpreter internals (`$__loc__`, `$__prog_args`)"],
  ["get_search_list", "reads the module search path"],
  ["get_jq_origin", "reads where jq is installed"],
  ["get_prog_origin", "reads where the filter comes from"],
];

/** Why a jq filter could read files or the environment, or undefined. */
export function jqFilterProblem(filter: string): string | undefined {
  for (const [name, why] of DANGEROUS_NAMES) if (filter.includes(name)) return `the jq filter ${why}`;
  return undefined;
}

export const jq: ProgramCheck = (argv, fx) => {
  fx.label("jq");
  const { positionals, positionalIndexes, seen } = parseArgs(argv, 1, JQ, fx, "jq");
  // After `--args`/`--jsonargs`, positionals are values (words that look like options are still options).
  const valuesFrom = seen.indexOf("--args");
  const fromFile = seen.valuesOf("--from-file").length > 0;
  positionals.forEach((w, k) => {
    if (k === 0 && !fromFile) {
      if (w.splits) fx.notReadOnly("the `jq` filter may expand into several words");
      if (!w.literal) fx.dangerous("the `jq` filter is computed at run time");
      else {
        const problem = jqFilterProblem(w.value);
        if (problem) fx.dangerous(problem);
      }
      return;
    }
    if (valuesFrom >= 0 && positionalIndexes[k]! > valuesFrom) return;
    if (!(w.literal && w.value === "-")) fx.read(w, "content");
  });
};
