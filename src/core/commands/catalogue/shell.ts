/**
 * Shell builtins and shells: directory changes (tracked), variable declarations (checked like
 * assignments), `set`, `read`, and everything that runs a string as shell code (`bash -c`, `eval`) or a
 * script file (`source`, `bash script.sh`).
 */
import { literalWord, UNKNOWN, unknownWord, type Word } from "../model";
import type { ProgramCheck } from "./effects";
import { mayBeOption, parseArgs, sliceWord, type OptionSpec } from "./options";
import {
  BASH_OPTIONS,
  BASH_SINGLE_DASH,
  DASH_OPTIONS,
  JOBS_OPTIONS,
  MAPFILE_OPTIONS,
  READ_OPTIONS,
  SET_O_NAMES,
  SET_OPTIONS,
  SH_OPTIONS,
  SHOPT_NAMES,
  WAIT_OPTIONS,
} from "./shellGrammars";
import { SU } from "./wrapperGrammars";
import { GUESS_WINDOW, unknown } from "./wrappers";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INDEXED_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[(\d+|@|\*)\])?$/;

const cd: ProgramCheck = (argv, fx) => {
  fx.label("cd");
  let i = 1;
  let physical = false;
  while (argv[i]?.literal && /^-[LPe@]+$/.test(argv[i]!.value)) physical ||= argv[i++]!.value.includes("P");
  if (argv[i]?.literal && argv[i]!.value === "--") i++;
  const target = argv[i];
  if (argv.length > i + 1) return fx.chdir("unknown");
  if (!target) return fx.chdir("home");
  // `cd -` goes to $OLDPWD, `cd -P` resolves symbolic links physically: both somewhere not tracked here.
  if (physical || (target.literal && target.value === "-")) return fx.chdir("unknown");
  fx.chdir(target);
};

const pushd: ProgramCheck = (argv, fx) => {
  fx.label("pushd");
  const args = argv.slice(1).filter((a) => !(a.literal && a.value === "-n"));
  if (argv.some((a) => a.literal && a.value === "-n")) return;
  const target = args[0];
  if (!target || args.length > 1 || (target.literal && /^[+-]\d+$/.test(target.value))) return fx.chdir("unknown");
  fx.chdir(target);
};

const popd: ProgramCheck = (argv, fx) => {
  fx.label("popd");
  if (!argv.some((a) => a.literal && a.value === "-n")) fx.chdir("unknown");
};

/** `export/declare/typeset/local/readonly`: `-i` and `-n` make later values evaluate (arithmetic, name references). */
const declaration =
  (name: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(name);
    for (const w of argv.slice(1)) {
      const v = w.value;
      if (w.literal && (v.startsWith("-") || v.startsWith("+")) && v.length > 1) {
        for (const c of v.slice(1)) {
          if (c === "i" || c === "n")
            unknown(
              fx,
              `\`${name} -${c}\` makes later values evaluate as ${c === "i" ? "arithmetic" : "variable names"}, which can run commands`,
            );
          else if (c === "f" && (name === "export" || v.includes("x")))
            // An exported function reaches every bash the line starts, under any program name.
            fx.notReadOnly(`\`${name} ${v}\` exports a shell function`);
          else if (!"aAfFgGlprtuxIp".includes(c))
            fx.notReadOnly(`\`-${c}\` is not a \`${name}\` option Toolgate knows`);
        }
        continue;
      }
      if (!w.literal && mayBeOption(w)) {
        unknown(fx, `\`${name}\` gets an argument computed at run time that could be an option`);
        continue;
      }
      const eq = v.indexOf("=");
      const rawName = eq >= 0 ? v.slice(0, v[eq - 1] === "+" ? eq - 1 : eq) : v;
      if (rawName.includes(UNKNOWN) || (w.splits && eq < 0)) {
        unknown(fx, `\`${name}\` gets a variable name computed at run time`);
        continue;
      }
      if (!INDEXED_NAME.test(rawName)) {
        unknown(fx, `\`${name} ${rawName}\` names a variable with an index evaluated as arithmetic`);
        continue;
      }
      fx.assign(rawName.replace(/\[.*$/, ""), eq >= 0 ? sliceWord(w, eq + 1) : unknownWord(false));
    }
  };

const unset: ProgramCheck = (argv, fx) => {
  fx.label("unset");
  for (const w of argv.slice(1)) {
    if (w.literal && /^-[fvn]+$/.test(w.value)) continue;
    if (!w.literal || !INDEXED_NAME.test(w.value))
      unknown(fx, "`unset` of an array element evaluates its index, which can run commands");
  }
};

const read: ProgramCheck = (argv, fx) => {
  fx.label("read");
  const { seen, positionals } = parseArgs(argv, 1, READ_OPTIONS, fx, "read");
  const array = seen.valueOf("-a");
  if (array) {
    if (!array.literal || !NAME.test(array.value))
      unknown(fx, "`read -a` names an array computed at run time or with an index");
    else fx.assign(array.value, unknownWord(false));
  }
  for (const w of positionals) {
    if (!w.literal) unknown(fx, "`read` gets a variable name computed at run time");
    else if (!NAME.test(w.value))
      unknown(fx, "`read` into an array element evaluates its index, which can run commands");
    else fx.assign(w.value, unknownWord(false));
  }
};

const SET_SHORT = new Set(["e", "u", "x", "v", "f", "C", "h", "B", "E", "T"]);
const SET_LONG = new Set([
  "errexit",
  "nounset",
  "xtrace",
  "verbose",
  "noglob",
  "noclobber",
  "pipefail",
  "errtrace",
  "functrace",
  "hashall",
  "braceexpand",
]);

/** `set [-+]LETTERS [-+]o NAME ... [--|-] [ARG...]`: options a script may change; the args are data. */
const set: ProgramCheck = (argv, fx) => {
  fx.label("set");
  const { seen } = parseArgs(argv, 1, SET_OPTIONS, fx, "set");
  for (const option of new Set(seen.all()))
    if (option[1] !== "o" && !SET_SHORT.has(option[1]!))
      fx.notReadOnly(`\`set ${option}\` is not an option Toolgate knows`);
  for (const opt of [...seen.valuesOf("-o"), ...seen.valuesOf("+o")])
    if (!(opt.literal && SET_LONG.has(opt.value)))
      fx.notReadOnly(`\`set -o ${opt.value.replaceAll(UNKNOWN, "…")}\` is not an option Toolgate knows`);
};

/** Builtins that only print or control the current script. */
const plain =
  (name: string): ProgramCheck =>
  (_argv, fx) =>
    fx.label(name);

/**
 * `jobs` prints jobs, but `jobs -x CMD ARGS…` runs CMD (job specs in ARGS replaced by process group ids), so it
 * is a wrapper once `-x` appears among its options.
 */
const jobs: ProgramCheck = (argv, fx) => {
  fx.label("jobs");
  const { seen, firstPositional } = parseArgs(argv, 1, JOBS_OPTIONS, fx, "jobs");
  if (seen.has("-x") && firstPositional !== undefined)
    fx.nested(argv.slice(firstPositional), { prefix: firstPositional });
};

/** `wait -p NAME` assigns the finished job's id to NAME; an index there is evaluated as arithmetic. */
const wait: ProgramCheck = (argv, fx) => {
  fx.label("wait");
  const { seen } = parseArgs(argv, 1, WAIT_OPTIONS, fx, "wait");
  for (const name of seen.valuesOf("-p"))
    if (!name.literal || !NAME.test(name.value))
      unknown(fx, "`wait -p` names a variable computed at run time or with an index, which can run commands");
    else fx.assign(name.value, unknownWord(false));
};

const eval_: ProgramCheck = (argv, fx) => {
  fx.label("eval");
  const args = argv.slice(argv[1]?.literal && argv[1].value === "--" ? 2 : 1);
  if (args.length === 0) return;
  const text = args.map((a) => a.value).join(" ");
  fx.payload(args.every((a) => a.literal) ? literalWord(text) : { ...literalWord(text), literal: false }, "`eval`");
};

const source =
  (name: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(name);
    const file = argv[argv[1]?.literal && argv[1].value === "--" ? 2 : 1];
    if (file?.literal && (file.value === "/dev/stdin" || file.value === "/dev/fd/0") && fx.stdin)
      return fx.payload(fx.stdin, `\`${name}\` reading its input`);
    if (file && runtimeScript(file))
      return unknown(
        fx,
        `\`${name}\` runs commands that exist only when the line runs (a pipe, a device or a computed name)`,
      );
    fx.notReadOnly(
      `\`${name}\` runs the script ${file ? `\`${file.value.replaceAll(UNKNOWN, "…")}\`` : "named at run time"}`,
    );
  };

/** Options whose value names a shell option (the shell stops at a name it does not know). */
const NAMED: readonly (readonly [string, ReadonlySet<string>])[] = [
  ["-o", SET_O_NAMES],
  ["+o", SET_O_NAMES],
  ["-O", SHOPT_NAMES],
  ["+O", SHOPT_NAMES],
];

/** Shells whose grammar is bash's or a subset of it (POSIX sh): the analysis of their commands holds for them. */
const BASH_GRAMMAR = new Set(["bash", "sh", "dash", "ash"]);

/**
 * `bash [options] -c STRING [argv0 args...]` runs STRING; `bash FILE` runs a script; plain `bash` (or `-s`)
 * reads commands from its input. Options are read by the shell's grammar (shellGrammars.ts).
 */
const shell =
  (name: string, spec: OptionSpec): ProgramCheck =>
  (argv, fx) => {
    fx.label(name);
    // A word computed at run time where an option could stand is already unknown; the words after it may
    // still be options (`bash $x -c 'rm y'`), so they are read on as options too.
    const letters = new Set<string>();
    let from = 1;
    let first: number | undefined;
    for (;;) {
      const parsed = parseArgs(argv, from, spec, fx, name);
      for (const o of parsed.seen.all()) letters.add(o.replace(/^\+/, "-"));
      for (const [option, names] of NAMED)
        for (const v of parsed.seen.valuesOf(option))
          if (!v.literal || !names.has(v.value))
            unknown(
              fx,
              `\`${name} ${option} ${v.value.replaceAll(UNKNOWN, "…")}\` is not a shell option Toolgate knows`,
            );
      first = parsed.firstPositional;
      const w = first === undefined ? undefined : argv[first];
      if (first === undefined || !w || w.literal || !mayBeOption(w)) break;
      from = first + 1;
    }
    if (name === "sh")
      for (const w of argv.slice(1, first))
        if (w.literal && BASH_SINGLE_DASH.has(w.value))
          unknown(fx, `\`sh ${w.value}\` is a long option to bash but a cluster of letters to dash`);
    const command = letters.has("-c");
    const stdinScript = letters.has("-s");
    if (letters.has("-i"))
      fx.notReadOnly(`\`${name} -i\` starts an interactive shell (it reads startup files and expands aliases)`);
    if (letters.has("--rcfile") || letters.has("--init-file"))
      fx.notReadOnly(`\`${name} --rcfile\` names a startup file an interactive shell runs`);
    const i = first ?? argv.length;
    const script = argv[i];
    // zsh, ksh and the like read a line by other rules (`=rm` runs rm in zsh, `*(e:…:)` runs code in a glob):
    // the bash reading of their commands is searched for denied programs, but it proves nothing.
    if (!BASH_GRAMMAR.has(name) && (command || stdinScript || !script))
      unknown(fx, `\`${name}\` reads commands by its own grammar, which Toolgate does not model`);
    if (command) {
      if (!script) return fx.notReadOnly(`\`${name} -c\` without a command`);
      // `bash -c '$0 "$@"' rm x`: the words after the script are its `$0`, `$1`...: any could be run.
      for (let j = i + 1; j < argv.length; j++) {
        if (j > i + GUESS_WINDOW) {
          unknown(fx, `\`${name} -c\` gets more words than Toolgate searches for a program`);
          break;
        }
        fx.nested(argv.slice(j, j + GUESS_WINDOW), { prefix: j, guess: true });
      }
      return fx.payload(script, `\`${name} -c\``);
    }
    if (!script || stdinScript) {
      // Commands from standard input: known when it is a here-document or here-string of this line.
      if (fx.stdin) return fx.payload(fx.stdin, `\`${name}\` reading its input`);
      return unknown(fx, `\`${name}\` runs the commands it reads from its input`);
    }
    if (runtimeScript(script))
      return unknown(
        fx,
        `\`${name}\` runs a script that exists only when the line runs (a pipe, a device or a computed name)`,
      );
    fx.notReadOnly(`\`${name}\` runs the script \`${script.value.replaceAll(UNKNOWN, "…")}\``);
  };

/** A script that is a pipe, a device, or named at run time: its commands cannot be known before it runs. */
function runtimeScript(file: Word): boolean {
  return !file.literal || file.pipe || /^\/(dev|proc)\//.test(file.value);
}

/** `let EXPR...` evaluates each argument as arithmetic: a name in it is a variable whose value is evaluated too. */
const let_: ProgramCheck = (argv, fx) => {
  fx.label("let");
  for (const w of argv.slice(1))
    if (!w.literal || /[A-Za-z_[$`]/.test(w.value))
      return unknown(fx, "`let` evaluates variables as arithmetic, which can run commands");
};

/** `mapfile [OPTIONS] [ARRAY]` (also `readarray`): `-C CMD` runs CMD every `-c` lines. */
const mapfile =
  (name: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(name);
    const { seen, positionals } = parseArgs(argv, 1, MAPFILE_OPTIONS, fx, name);
    for (const cb of seen.valuesOf("-C")) {
      fx.notReadOnly(`\`${name} -C\` runs a command for each line`);
      fx.payload(cb, `\`${name} -C\``);
    }
    const arrays = positionals.length > 0 ? positionals : [literalWord("MAPFILE")];
    for (const array of arrays) {
      if (!array.literal) return unknown(fx, `\`${name}\` gets an argument computed at run time`);
      if (!NAME.test(array.value))
        return unknown(fx, `\`${name} ${array.value}\` names an array with an index evaluated as arithmetic`);
      fx.assign(array.value, unknownWord(false));
    }
  };

/** `getopts OPTSTRING NAME [ARGS]` assigns NAME (and OPTARG, OPTIND). */
const getopts: ProgramCheck = (argv, fx) => {
  fx.label("getopts");
  const target = argv[2];
  if (!target) return;
  if (!target.literal || !NAME.test(target.value))
    return unknown(fx, "`getopts` assigns a variable named at run time or with an index");
  fx.assign(target.value, unknownWord(false));
};

/** `su [user] -c CMD`: runs CMD through the user's shell. */
const su: ProgramCheck = (argv, fx) => {
  fx.label("su");
  fx.notReadOnly("`su` runs commands as another user");
  const { seen } = parseArgs(argv, 1, SU, fx, "su");
  for (const cmd of [...seen.valuesOf("--command"), ...seen.valuesOf("--session-command")]) fx.payload(cmd, "`su -c`");
};

/** `trap [--] ACTION SIGNAL...` runs ACTION later; `trap -p`/`trap -l`/`trap -P`/`trap` print. */
const trap: ProgramCheck = (argv, fx) => {
  fx.label("trap");
  let i = 1;
  if (argv[i]?.literal && /^-[lpP]+$/.test(argv[i]!.value)) return;
  if (argv[i]?.literal && argv[i]!.value === "--") i++;
  const action = argv[i];
  if (!action) return;
  fx.notReadOnly("`trap` sets a command to run later");
  if (!(action.literal && (action.value === "-" || action.value === ""))) fx.payload(action, "`trap`");
};

/** `alias NAME=VALUE` makes NAME run VALUE in later commands; `alias` alone prints. */
const alias: ProgramCheck = (argv, fx) => {
  fx.label("alias");
  for (const w of argv.slice(1)) {
    if (w.literal && w.value === "-p") continue;
    fx.notReadOnly("`alias` changes what later commands run");
    const eq = w.value.indexOf("=");
    if (eq > 0) fx.payload(sliceWord(w, eq + 1), "`alias`");
  }
};

/**
 * `hash -p FILE NAME` makes NAME run FILE in later commands, whatever the analysis looked up; listing
 * (`hash`, `-l`, `-t`) and forgetting (`-r`, `-d`) change nothing that runs.
 */
const hash: ProgramCheck = (argv, fx) => {
  fx.label("hash");
  for (const w of argv.slice(1)) {
    if (!w.literal || (w.value.startsWith("-") && w.value.includes("p")))
      return unknown(fx, "`hash -p` makes a command name run another program");
    if (!w.value.startsWith("-")) fx.notReadOnly("`hash` changes the shell's command table");
  }
};

/** `enable` loads builtins from a shared library (`-f`) or turns them off, so names run other code. */
const enable: ProgramCheck = (argv, fx) => {
  fx.label("enable");
  if (argv.length > 1 && !(argv.length === 2 && argv[1]!.literal && /^-[aps]+$/.test(argv[1]!.value)))
    unknown(fx, "`enable` changes which code a builtin name runs");
};

export const SHELL: Readonly<Record<string, ProgramCheck>> = {
  trap,
  alias,
  hash,
  enable,
  cd,
  pushd,
  popd,
  dirs: plain("dirs"),
  export: declaration("export"),
  declare: declaration("declare"),
  typeset: declaration("typeset"),
  local: declaration("local"),
  readonly: declaration("readonly"),
  unset,
  read,
  set,
  shift: plain("shift"),
  exit: plain("exit"),
  return: plain("return"),
  break: plain("break"),
  continue: plain("continue"),
  wait,
  times: plain("times"),
  jobs,
  eval: eval_,
  source: source("source"),
  ".": source("."),
  bash: shell("bash", BASH_OPTIONS),
  sh: shell("sh", SH_OPTIONS),
  zsh: shell("zsh", DASH_OPTIONS),
  dash: shell("dash", DASH_OPTIONS),
  ksh: shell("ksh", DASH_OPTIONS),
  mksh: shell("mksh", DASH_OPTIONS),
  ash: shell("ash", DASH_OPTIONS),
  yash: shell("yash", DASH_OPTIONS),
  posh: shell("posh", DASH_OPTIONS),
  su,
  let: let_,
  mapfile: mapfile("mapfile"),
  readarray: mapfile("readarray"),
  getopts,
};
