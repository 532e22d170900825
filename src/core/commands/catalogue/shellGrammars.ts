/**
 * The shells' own options, read by the one option interpreter (options.ts), as bash 5.2 and dash 0.5 read
 * them (checked against the real shells in test/unit/commands/shellGrammar.test.ts):
 * - options end at the first word that is not one (the command string of `-c`, or the script);
 * - `+x` is read like `-x`, and `+c`/`+s` start command and input mode as `-c`/`-s` do; a lone `+` is nothing;
 * - `-o NAME` and `-O NAME` take the NEXT word even inside a cluster, which goes on (`-cox errexit` is
 *   `-c -o errexit -x`);
 * - a lone `-` ends the options as `--` does;
 * - bash's long options come before any short one, by exact name, with one dash or two (`-norc`, `--norc`),
 *   and `--rcfile`/`--init-file` take the next word. After a short option, bash rejects `--name` and reads
 *   `-name` as a cluster.
 */
import type { OptionSpec } from "./options";

/** Letters every modelled shell reads as plain settings, and `c`, `s`, `i` whose effect the caller reads. */
const LETTERS = "euxvlfhBETnCabmptkPcsi";

const SHORT: OptionSpec = {
  posix: true,
  plus: true,
  dashEnds: true,
  unknownOptions: "unknown",
  flags: LETTERS,
  shortNext: { o: "data", O: "data" },
};

const LONG = ["norc", "noprofile", "posix", "login", "noediting", "restricted", "verbose", "version", "help"];

/** bash. */
export const BASH_OPTIONS: OptionSpec = {
  ...SHORT,
  long: LONG,
  longArgs: { rcfile: "content", "init-file": "content" },
  exact: true,
  longFirst: true,
  singleDashLong: true,
};

/**
 * `sh`, which is bash on some systems and dash on others: bash's `--name` options are read (dash rejects
 * them, so nothing runs), but `-name` is a cluster as dash reads it; the caller refuses a `-name` that bash
 * would read as a long option, where the two shells part.
 */
export const SH_OPTIONS: OptionSpec = {
  ...SHORT,
  long: LONG,
  longArgs: { rcfile: "content", "init-file": "content" },
  exact: true,
  longFirst: true,
};

/** dash, ash and the shells whose grammar Toolgate does not model (no long options). */
export const DASH_OPTIONS: OptionSpec = SHORT;

/** Bash's long option names, as `-name` spellings (for `sh`, where bash and dash read them apart). */
export const BASH_SINGLE_DASH = new Set([...LONG, "rcfile", "init-file"].map((n) => `-${n}`));
