/**
 * Shell builtins and shells: directory changes (tracked), variable declarations (checked like
 * assignments), `set`, `read`, and everything that runs a string as shell code (`bash -c`, `eval`) or a
 * script file (`source`, `bash script.sh`).
 */
import { literalWord, UNKNOWN, type Word } from "../model";
import { WordBuilder } from "../words";
import type { ProgramCheck } from "./effects";
import { mayBeOption, sliceWord } from "./options";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INDEXED_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[(\d+|@|\*)\])?$/;

function unknownWord(): Word {
  const b = new WordBuilder();
  b.expansion(true);
  return b.build();
}

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
            fx.dangerous(
              `\`${name} -${c}\` makes later values evaluate as ${c === "i" ? "arithmetic" : "variable names"}, which can run commands`,
            );
          else if (!"aAfFgGlprtuxIp".includes(c))
            fx.notReadOnly(`\`-${c}\` is not a \`${name}\` option Toolgate knows`);
        }
        continue;
      }
      const eq = v.indexOf("=");
      const rawName = eq >= 0 ? v.slice(0, v[eq - 1] === "+" ? eq - 1 : eq) : v;
      if (rawName.includes(UNKNOWN) || (w.splits && eq < 0)) {
        fx.dangerous(`\`${name}\` gets a variable name computed at run time`);
        continue;
      }
      if (!INDEXED_NAME.test(rawName)) {
        fx.dangerous(`\`${name} ${rawName}\` names a variable with an index evaluated as arithmetic`);
        continue;
      }
      fx.assign(rawName.replace(/\[.*$/, ""), eq >= 0 ? sliceWord(w, eq + 1) : unknownWord());
    }
  };

const unset: ProgramCheck = (argv, fx) => {
  fx.label("unset");
  for (const w of argv.slice(1)) {
    if (w.literal && /^-[fvn]+$/.test(w.value)) continue;
    if (!w.literal || !INDEXED_NAME.test(w.value))
      fx.dangerous("`unset` of an array element evaluates its index, which can run commands");
  }
};

const READ_ARGS = new Set(["a", "d", "i", "n", "N", "p", "t", "u"]);

const read: ProgramCheck = (argv, fx) => {
  fx.label("read");
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    if (!w.literal) {
      fx.dangerous("`read` gets a variable name computed at run time");
      continue;
    }
    if (w.value.startsWith("-") && w.value.length > 1) {
      for (let j = 1; j < w.value.length; j++) {
        const c = w.value[j]!;
        if (READ_ARGS.has(c)) {
          const arg = j < w.value.length - 1 ? w.value.slice(j + 1) : argv[++i]?.value;
          if (c === "a" && arg !== undefined) fx.assign(arg, unknownWord());
          break;
        }
        if (!"ers".includes(c)) fx.notReadOnly(`\`-${c}\` is not a \`read\` option Toolgate knows`);
      }
      continue;
    }
    if (!NAME.test(w.value)) fx.dangerous("`read` into an array element evaluates its index, which can run commands");
    else fx.assign(w.value, unknownWord());
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

const set: ProgramCheck = (argv, fx) => {
  fx.label("set");
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (!w.literal) return fx.dangerous("`set` gets an option computed at run time");
    if (v === "--" || v === "-") return; // the rest are positional parameters (data)
    if (!/^[-+]/.test(v)) return;
    for (const c of v.slice(1)) {
      if (c === "o") {
        // `-o NAME` (also inside a cluster: `set -euo pipefail`).
        const opt = argv[++i];
        if (opt && !(opt.literal && SET_LONG.has(opt.value)))
          fx.notReadOnly(`\`set -o ${opt.value}\` is not an option Toolgate knows`);
      } else if (!SET_SHORT.has(c)) fx.notReadOnly(`\`set -${c}\` is not an option Toolgate knows`);
    }
  }
};

/** Builtins that only print or control the current script. */
const plain =
  (name: string): ProgramCheck =>
  (_argv, fx) =>
    fx.label(name);

const eval_: ProgramCheck = (argv, fx) => {
  fx.label("eval");
  const args = argv.slice(1);
  if (args.length === 0) return;
  const text = args.map((a) => a.value).join(" ");
  fx.payload(args.every((a) => a.literal) ? literalWord(text) : { ...literalWord(text), literal: false }, "`eval`");
};

const source =
  (name: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(name);
    const file = argv[1];
    if (file?.literal && (file.value === "/dev/stdin" || file.value === "/dev/fd/0") && fx.stdin)
      return fx.payload(fx.stdin, `\`${name}\` reading its input`);
    fx.notReadOnly(
      `\`${name}\` runs the script ${file ? `\`${file.value.replaceAll(UNKNOWN, "…")}\`` : "named at run time"}`,
    );
  };

const SHELL_FLAGS = new Set([
  "e",
  "u",
  "x",
  "v",
  "l",
  "f",
  "h",
  "B",
  "E",
  "T",
  "n",
  "C",
  "a",
  "b",
  "m",
  "p",
  "t",
  "k",
  "P",
]);

/** `bash [options] -c STRING [argv0 args...]` runs STRING; `bash FILE` runs a script; plain `bash` reads commands. */
const shell =
  (name: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(name);
    let command = false;
    let stdinScript = false;
    let i = 1;
    for (; i < argv.length; i++) {
      const w = argv[i]!;
      const v = w.value;
      if (!mayBeOption(w) || v === "-") break;
      if (!w.literal) {
        fx.dangerous(`\`${name}\` gets an option computed at run time`);
        continue;
      }
      if (v === "--") {
        i++;
        break;
      }
      if (v.startsWith("--")) {
        if (
          [
            "--norc",
            "--noprofile",
            "--posix",
            "--login",
            "--noediting",
            "--restricted",
            "--verbose",
            "--version",
            "--help",
          ].includes(v)
        )
          continue;
        if (v === "--rcfile" || v === "--init-file") i++;
        fx.notReadOnly(`\`${name} ${v}\` is not an option Toolgate knows`);
        continue;
      }
      if (v === "-o" || v === "+o" || v === "-O" || v === "+O") {
        i++;
        continue;
      }
      for (const c of v.slice(1)) {
        if (c === "c") command = true;
        else if (c === "i")
          fx.notReadOnly(`\`${name} -i\` starts an interactive shell (it reads startup files and expands aliases)`);
        else if (c === "s") stdinScript = true;
        else if (!SHELL_FLAGS.has(c)) fx.notReadOnly(`\`-${c}\` is not a \`${name}\` option Toolgate knows`);
      }
    }
    const first = argv[i];
    if (command) {
      if (!first) return fx.notReadOnly(`\`${name} -c\` without a command`);
      return fx.payload(first, `\`${name} -c\``);
    }
    if (!first || stdinScript) {
      // Commands from standard input: known when it is a here-document or here-string of this line.
      if (fx.stdin) return fx.payload(fx.stdin, `\`${name}\` reading its input`);
      return fx.notReadOnly(`\`${name}\` runs the commands it reads from its input`);
    }
    fx.notReadOnly(`\`${name}\` runs the script \`${first.value.replaceAll(UNKNOWN, "…")}\``);
  };

/** `su [user] -c CMD`: runs CMD through the user's shell. */
const su: ProgramCheck = (argv, fx) => {
  fx.label("su");
  fx.notReadOnly("`su` runs commands as another user");
  argv.forEach((w, i) => {
    if (["-c", "--command", "--session-command"].includes(w.value)) {
      const cmd = argv[i + 1];
      if (cmd) fx.payload(cmd, "`su -c`");
    } else if (/^--(command|session-command)=/.test(w.value))
      fx.payload(sliceWord(w, w.value.indexOf("=") + 1), "`su -c`");
  });
};

/** `trap ACTION SIGNAL...` runs ACTION later; `trap -p`/`trap -l`/`trap` print. */
const trap: ProgramCheck = (argv, fx) => {
  fx.label("trap");
  const action = argv[1];
  if (!action || (action.literal && /^-[lp]$/.test(action.value))) return;
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

export const SHELL: Readonly<Record<string, ProgramCheck>> = {
  trap,
  alias,
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
  wait: plain("wait"),
  times: plain("times"),
  jobs: plain("jobs"),
  eval: eval_,
  source: source("source"),
  ".": source("."),
  bash: shell("bash"),
  sh: shell("sh"),
  zsh: shell("zsh"),
  dash: shell("dash"),
  ksh: shell("ksh"),
  mksh: shell("mksh"),
  ash: shell("ash"),
  yash: shell("yash"),
  posh: shell("posh"),
  su,
};
