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
  // `-r`, the restricted shell, only narrows what runs.
  flags: `${LETTERS}r`,
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
  flags: `${LETTERS}r`,
  long: LONG,
  longArgs: { rcfile: "content", "init-file": "content" },
  exact: true,
  longFirst: true,
};

/** dash, ash and the shells whose grammar Toolgate does not model (no long options, no `-O`). */
export const DASH_OPTIONS: OptionSpec = { ...SHORT, shortNext: { o: "data" } };

/** Bash's long option names, as `-name` spellings (for `sh`, where bash and dash read them apart). */
export const BASH_SINGLE_DASH = new Set([...LONG, "rcfile", "init-file"].map((n) => `-${n}`));

/**
 * The names `-o NAME`/`+o NAME` accept (bash 5.2's `set -o` and dash's): a shell stops with an error at any
 * other, so the caller treats another (or one computed at run time) as unknown.
 */
export const SET_O_NAMES = new Set([
  ..."allexport braceexpand emacs errexit errtrace functrace hashall histexpand history ignoreeof".split(" "),
  ..."interactive-comments keyword monitor noclobber noexec noglob nolog notify nounset onecmd".split(" "),
  ..."physical pipefail posix privileged verbose vi xtrace interactive stdin debug".split(" "),
]);

/**
 * The names `-O NAME`/`+O NAME` accept (bash 5.2's `shopt`), less `extdebug`: set at invocation it runs the
 * debugger's start file, as `--debugger` does.
 */
export const SHOPT_NAMES = new Set([
  ..."autocd assoc_expand_once cdable_vars cdspell checkhash checkjobs checkwinsize cmdhist compat31".split(" "),
  ..."compat32 compat40 compat41 compat42 compat43 compat44 complete_fullquote direxpand dirspell".split(" "),
  ..."dotglob execfail expand_aliases extglob extquote failglob force_fignore globasciiranges".split(" "),
  ..."globskipdots globstar gnu_errfmt histappend histreedit histverify hostcomplete huponexit".split(" "),
  ..."inherit_errexit interactive_comments lastpipe lithist localvar_inherit localvar_unset login_shell".split(" "),
  ..."mailwarn no_empty_cmd_completion nocaseglob nocasematch noexpand_translation nullglob".split(" "),
  ..."patsub_replacement progcomp progcomp_alias promptvars restricted_shell shift_verbose sourcepath".split(" "),
  ..."varredir_close xpg_echo".split(" "),
]);

/** Bash builtins read their options with bash's own getopt: clusters, attached values, `--`, no long options. */
const BUILTIN = { posix: true, unknownOptions: "unknown" } as const;

/** `read [-ers] [-a ARRAY] [-d DELIM] [-i TEXT] [-n N] [-N N] [-p PROMPT] [-t TIMEOUT] [-u FD] [NAME...]`. */
export const READ_OPTIONS: OptionSpec = {
  ...BUILTIN,
  flags: "ers",
  shortArgs: { a: "data", d: "data", i: "data", n: "data", N: "data", p: "data", t: "data", u: "data" },
};

/** `wait [-fn] [-p NAME] [ID...]`. */
export const WAIT_OPTIONS: OptionSpec = { ...BUILTIN, flags: "fn", shortArgs: { p: "data" } };

/** `mapfile [-t] [-d D] [-n N] [-O I] [-s N] [-u FD] [-C CMD] [-c N] [ARRAY]` (also `readarray`). */
export const MAPFILE_OPTIONS: OptionSpec = {
  ...BUILTIN,
  flags: "t",
  shortArgs: { d: "data", n: "data", O: "data", s: "data", u: "data", C: "data", c: "data" },
};

/** `jobs [-lnprs] [JOBSPEC...]`, and `jobs -x CMD ARGS...`, which runs CMD. */
export const JOBS_OPTIONS: OptionSpec = { ...BUILTIN, flags: "lnprsx" };

/**
 * bash's `set`: every letter it accepts (the caller says which it vouches for), `-o`/`+o NAME` inside a
 * cluster too (`set -euo pipefail`); `--` or a lone `-` ends the options and the rest are data.
 */
export const SET_OPTIONS: OptionSpec = {
  ...BUILTIN,
  plus: true,
  dashEnds: true,
  flags: "abefhkmnptuvxBCEHPT",
  shortNext: { o: "data" },
};
