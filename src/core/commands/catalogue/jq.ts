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
import { mayBeOption } from "./options";

const FLAGS = new Set(["c", "n", "r", "j", "a", "s", "S", "C", "M", "e", "h", "V", "0", "R", "b"]);
const LONG = new Set([
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
]);

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
  let filterSeen = false;
  let valuesMode = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (mayBeOption(w) && v !== "-") {
      if (!w.literal) {
        fx.dangerous("`jq` gets an argument computed at run time that could be any option");
        continue;
      }
      if (v === "--args" || v === "--jsonargs") {
        valuesMode = true;
        continue;
      }
      if (v === "--arg" || v === "--argjson") {
        i += 2;
        continue;
      }
      if (v === "--slurpfile" || v === "--rawfile") {
        const f = argv[i + 2];
        if (f) fx.read(f, "content");
        i += 2;
        continue;
      }
      if (v === "--indent") {
        i++;
        continue;
      }
      if (v === "-f" || v === "--from-file") {
        const f = argv[++i];
        if (f) fx.read(f, "content");
        filterSeen = true;
        fx.dangerous("`jq -f` runs a filter from a file Toolgate cannot check");
        continue;
      }
      if (v.startsWith("-L") || v === "--library-path" || v.startsWith("--library-path=")) {
        if (v === "-L" || v === "--library-path") i++;
        fx.dangerous("`jq -L` changes where jq loads modules from");
        continue;
      }
      if (v.startsWith("--") ? LONG.has(v.slice(2)) : [...v.slice(1)].every((c) => FLAGS.has(c))) continue;
      fx.dangerous(`\`${v}\` is not a \`jq\` option Toolgate knows`);
      continue;
    }
    if (!filterSeen) {
      filterSeen = true;
      if (w.splits) fx.notReadOnly("the `jq` filter may expand into several words");
      if (!w.literal) fx.dangerous("the `jq` filter is computed at run time");
      else {
        const problem = jqFilterProblem(v);
        if (problem) fx.dangerous(problem);
      }
      continue;
    }
    if (valuesMode) continue;
    if (!(w.literal && v === "-")) fx.read(w, "content");
  }
};
