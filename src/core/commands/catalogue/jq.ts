/**
 * jq: `jq [options] FILTER [FILES...]`. It writes nothing and runs nothing; options that name files
 * (`-f`, `--slurpfile`, `--rawfile`, `-L`) are reads. After `--args`/`--jsonargs` positionals are values.
 */
import type { ProgramCheck } from "./effects";
import { mayBeOption } from "./options";

const FLAGS = new Set(["c", "n", "r", "j", "a", "s", "S", "C", "M", "e", "h", "V", "0", "R"]);
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
]);

export const jq: ProgramCheck = (argv, fx) => {
  fx.label("jq");
  let filterSeen = false;
  let valuesMode = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (mayBeOption(w) && v !== "-" && !valuesMode) {
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
      if (v === "-f" || v === "--from-file" || v === "-L") {
        const f = argv[++i];
        if (f) fx.read(f, "content");
        if (v !== "-L") filterSeen = true;
        continue;
      }
      if (v.startsWith("-L") && v.length > 2) continue;
      if (v.startsWith("--") ? LONG.has(v.slice(2)) : [...v.slice(1)].every((c) => FLAGS.has(c))) continue;
      fx.notReadOnly(`\`${v}\` is not a \`jq\` option Toolgate knows`);
      continue;
    }
    if (!filterSeen) {
      filterSeen = true;
      if (w.splits) fx.notReadOnly("the `jq` filter may expand into several words");
      continue;
    }
    if (valuesMode) continue;
    if (!(w.literal && v === "-")) fx.read(w, "content");
  }
};
