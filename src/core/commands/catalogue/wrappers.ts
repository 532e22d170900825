/**
 * Programs that run another command given in their arguments. Known wrappers are unwrapped: their own
 * options are checked and the command they run is checked on its own (an allow rule for the wrapper is no
 * licence for what it runs). An option a wrapper's table does not know, or one computed at run time, could
 * take a value and so move where the command starts: the line is then unknown (a hard ask in every mode).
 * Other programs that run their arguments (`strace`, `npx`...) are not vouched for, and every plausible
 * start of their command, and every argument that looks like shell text, is still searched for denied
 * programs; an argument computed at run time could be the program, so it makes the line unknown.
 */
import { literalWord, UNKNOWN, unknownWord, type Word } from "../model";
import type { PathList, ProgramCheck } from "./effects";
import { readFoundFiles, readsFoundFiles } from "./find";
import { mayBeOption, parseArgs, sliceWord, type OptionSpec, type Seen } from "./options";
import {
  COMMAND,
  DOAS,
  ENV,
  EXEC,
  IONICE,
  NICE,
  NO_OPTIONS,
  NOHUP,
  SETSID,
  STDBUF,
  SUDO,
  TIME,
  TIMEOUT,
  WATCH,
} from "./wrapperGrammars";

type Fx = Parameters<ProgramCheck>[1];

/** The command's boundary or program is known only at run time. */
export function unknown(fx: Fx, reason: string): void {
  fx.unknown(reason);
}

interface Unwrapped {
  /** Index of the command's first word (argv.length when there is none). */
  readonly start: number;
  readonly seen: Seen;
}

/**
 * Reads a wrapper's own options with its grammar; `leading` positionals are its own arguments (timeout's
 * DURATION). When a word computed at run time stands where an option could, the command could start at any
 * later word (the line is already unknown): each is searched for denied programs.
 */
function unwrap(program: string, argv: readonly Word[], spec: OptionSpec, fx: Fx, leading = 0): Unwrapped {
  const { seen, firstPositional } = parseArgs(argv, 1, spec, fx, program);
  const first = firstPositional ?? argv.length;
  const start = Math.min(first + leading, argv.length);
  const w = argv[first];
  if (w && !w.literal && mayBeOption(w)) guessStarts(argv, first + 1, fx);
  return { start, seen };
}

/** The command could start at any word from `from` on: each start is searched for denied programs. */
function guessStarts(argv: readonly Word[], from: number, fx: Fx): void {
  for (let j = from; j < argv.length && j <= from + GUESS_WINDOW; j++)
    fx.nested(argv.slice(j, j + GUESS_WINDOW), { prefix: j, guess: true });
}

interface WrapperShape {
  readonly spec: OptionSpec;
  /** Positionals that are the wrapper's own arguments before the command (timeout's DURATION). */
  readonly leading?: number;
  /** The wrapper is not transparent (privilege change): it needs an allow rule of its own. */
  readonly privileged?: string;
  /** Without a command it does something besides printing (`timeout`, `sudo`). */
  readonly emptyNotReadOnly?: boolean;
}

function wrapper(program: string, shape: WrapperShape): ProgramCheck {
  return (argv, fx) => {
    fx.label(program);
    if (shape.privileged) fx.notReadOnly(shape.privileged);
    const { start } = unwrap(program, argv, shape.spec, fx, shape.leading);
    if (start >= argv.length) {
      if (shape.emptyNotReadOnly) fx.notReadOnly(`\`${program}\` without a command`);
      return;
    }
    fx.nested(argv.slice(start), { prefix: start });
  };
}

/**
 * `env [OPTION]... [-] [NAME=VALUE]... [CMD [ARG]...]`: with no command it prints the environment. `-S STRING`
 * splits STRING at blanks into words that take its place, and env goes on reading options from the first of
 * them (the options before it stay read). Its own quoting, escapes and `${VAR}` are not modelled: a string
 * with them is unknown.
 */
const env: ProgramCheck = (argv, fx) => {
  fx.label("env");
  const { seen, firstPositional, stoppedAt } = parseArgs(argv, 1, ENV, fx, "env");
  if (stoppedAt !== undefined) {
    const s = seen.valueOf("--split-string");
    if (!s) return;
    if (!s.literal || !/^[A-Za-z0-9_@%+=:,./ \t-]*$/.test(s.value))
      return unknown(fx, "`env -S` splits a string with quotes, escapes or variables Toolgate does not model");
    const split = s.value
      .split(/[ \t]+/)
      .filter((x) => x !== "")
      .map(literalWord);
    return env([argv[0]!, ...split, ...argv.slice(stoppedAt)], fx);
  }
  let i = firstPositional ?? argv.length;
  const w0 = argv[i];
  if (w0 && !w0.literal && mayBeOption(w0)) return guessStarts(argv, i + 1, fx); // already unknown
  if (w0?.literal && w0.value === "-") i++; // `-` is `-i`
  // env takes any word with `=` before the command as NAME=VALUE, even names the shell would not
  // (`BASH_FUNC_ls%%=...`, `-a=b` after `--`).
  const assignments: { name: string; value: Word }[] = [];
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    const eq = w.value.indexOf("=");
    if (eq <= 0) break;
    if (assignments.length >= GUESS_WINDOW * 4) return unknown(fx, "`env` sets more variables than Toolgate checks");
    if (w.value.slice(0, eq).includes(UNKNOWN))
      fx.dangerous("`env` sets a variable whose name is computed at run time");
    assignments.push({ name: w.value.slice(0, eq), value: sliceWord(w, eq + 1) });
  }
  if (i >= argv.length) {
    for (const a of assignments) fx.assign(a.name, a.value);
    return;
  }
  fx.nested(argv.slice(i), { prefix: i, assignments });
};

/** `command -v/-V NAME` prints; `command [-p] CMD` runs CMD bypassing functions. */
const command: ProgramCheck = (argv, fx) => {
  fx.label("command");
  const { start, seen } = unwrap("command", argv, COMMAND, fx);
  if (seen.has("-v") || seen.has("-V") || start >= argv.length) return;
  fx.nested(argv.slice(start), { prefix: start });
};

/**
 * GNU xargs (findutils 4.9). POSIX order: options end at the command. `-i`, `-e`, `-l` take only an attached
 * value, and so do `--replace`, `--eof`, `--max-lines` (`--max-lines cmd` leaves `cmd` the command, checked
 * against the real xargs).
 */
const XARGS: OptionSpec = {
  posix: true,
  flags: "0rtxpo",
  shortArgs: { a: "content", d: "data", E: "data", I: "data", L: "data", n: "data", P: "data", s: "data" },
  shortOptional: { i: "data", e: "data", l: "data" },
  long: ["null", "no-run-if-empty", "verbose", "exit", "interactive", "open-tty", "show-limits", "help", "version"],
  longArgs: {
    "arg-file": "content",
    delimiter: "data",
    "max-args": "data",
    "max-procs": "data",
    "max-chars": "data",
    "process-slot-var": "data",
  },
  longOptional: { replace: "data", eof: "data", "max-lines": "data" },
  same: { "-i": "--replace", "-I": "--replace" },
  unknownOptions: "unknown",
};

/**
 * xargs options that change only how many paths go to each run, and how runs are started: with `-0` and
 * nothing else, the words xargs appends are exactly the NUL-terminated names it reads. (`-a` reads another
 * file, `-d`, `-E`, `-L`, `-I` change how the input is cut or used.)
 */
const KEEPS_NAMES = new Set([
  "-0",
  "--null",
  "-r",
  "--no-run-if-empty",
  "-t",
  "--verbose",
  "-x",
  "--exit",
  "-n",
  "--max-args",
  "-P",
  "--max-procs",
  "-s",
  "--max-chars",
]);

/** `xargs [options] [CMD [ARGS]]`: CMD runs with words read from the input (unknown here). */
const xargs: ProgramCheck = (argv, fx) => {
  fx.label("xargs");
  const { seen, firstPositional } = parseArgs(argv, 1, XARGS, fx, "xargs");
  if (seen.has("--process-slot-var")) fx.notReadOnly("`xargs --process-slot-var` sets a variable");
  if (firstPositional === undefined) return; // runs echo
  const replacing = seen.has("--replace");
  // `-i`/`--replace` without a value replace `{}`; `-I R` replaces R.
  const r = seen.valueOf("--replace")?.value ?? (replacing ? "{}" : undefined);
  let inner = argv.slice(firstPositional);
  if (r === undefined && fx.piped && foundFiles(fx.piped, seen.all(), inner)) {
    // `find START -print0 | xargs -0 CMD ARGS`: CMD gets paths below START, checked as START itself, and the
    // files found are read below START (links followed, with find's selection by name), as for `find -exec`.
    for (const start of fx.piped.starts) {
      readFoundFiles(inner, start, fx.piped.only, fx);
      fx.nested([...inner, start], { prefix: firstPositional, foundBelow: true });
    }
    return;
  }
  if (r !== undefined) inner = inner.map((w) => (w.value.includes(r) ? unknownWord(true) : w));
  fx.nested(inner, { prefix: firstPositional, extraArgs: r === undefined });
};

/**
 * The words xargs appends are the paths `list` printed, whole: the names end with NUL on both sides (without
 * `-0`, xargs cuts names at blanks and quotes, and a newline-ended list at the newlines inside names, so the
 * pieces could be any path), no option changes how the input is cut, and CMD reads each as a file.
 */
function foundFiles(list: PathList, options: readonly string[], inner: readonly Word[]): boolean {
  return (
    list.terminator === "nul" &&
    (options.includes("-0") || options.includes("--null")) &&
    options.every((o) => KEEPS_NAMES.has(o)) &&
    readsFoundFiles(inner)
  );
}

/** `watch [options] CMD...` joins its words and runs them with `sh -c`; with `-x` it runs them directly. */
const watch: ProgramCheck = (argv, fx) => {
  fx.label("watch");
  const { start: i, seen } = unwrap("watch", argv, WATCH, fx);
  const rest = argv.slice(i);
  if (rest.length === 0) return;
  if (seen.has("--exec")) return fx.nested(rest, { prefix: i });
  const text = rest.map((w) => w.value).join(" ");
  fx.payload(rest.every((w) => w.literal) ? literalWord(text) : { ...literalWord(text), literal: false }, "`watch`");
};

/** `busybox APPLET ARGS` is `APPLET ARGS`. */
const busybox: ProgramCheck = (argv, fx) => {
  fx.label("busybox");
  const applet = argv[1];
  if (!applet) return;
  if (applet.literal && applet.value.startsWith("-")) {
    // `--list` prints; `--install` makes links, anything else is not modelled.
    if (!["--list", "--list-full", "--help"].includes(applet.value))
      unknown(fx, `\`busybox ${applet.value}\` is not an option Toolgate knows`);
    return;
  }
  fx.nested(argv.slice(1), { prefix: 1 });
};

/** `nohup CMD` appends to `nohup.out` when its output is a terminal. */
const nohup: ProgramCheck = (argv, fx) => {
  fx.label("nohup");
  const { start } = unwrap("nohup", argv, NOHUP, fx);
  if (start >= argv.length) return;
  fx.write(literalWord("nohup.out"));
  fx.nested(argv.slice(start), { prefix: start });
};

/** Programs that run a command from their arguments but are not unwrapped: deny rules are still looked for. */
export const RUNNERS = new Set([
  "strace",
  "ltrace",
  "valgrind",
  "gdb",
  "lldb",
  "taskset",
  "chrt",
  "numactl",
  "prlimit",
  "unshare",
  "nsenter",
  "firejail",
  "proxychains",
  "proxychains4",
  "torsocks",
  "faketime",
  "catchsegv",
  "systemd-run",
  "runuser",
  "pkexec",
  "chroot",
  "script",
  "unbuffer",
  "flock",
  "caffeinate",
  "fakeroot",
  "eatmydata",
  "ccache",
  "distcc",
  "npx",
  "bunx",
  "pnpx",
  "dotenv",
  "cross-env",
  "nodemon",
  "entr",
  "parallel",
  "ssh",
  "rlwrap",
  "dbus-run-session",
  "xvfb-run",
  "tini",
  "dumb-init",
  "gosu",
  "su-exec",
  "chpst",
  "sg",
  "scl",
  "unipriv",
  "with-contenv",
  "retry",
  "ts-node",
  "tsx",
  "uvx",
  "pipx",
  "direnv",
  "op",
  "aws-vault",
  "doppler",
  "infisical",
  "chezmoi",
  "nix-shell",
  "devbox",
  "firejail",
  "bwrap",
  "systemd-inhibit",
  "cpulimit",
  "trickle",
  "schedtool",
  "sem",
]);

/** Words a guessed command start is followed with (deny rules and nested wrappers look no further). */
export const GUESS_WINDOW = 64;

export const runner =
  (program: string): ProgramCheck =>
  (argv, fx) => {
    fx.label(program);
    fx.notReadOnly(`\`${program}\` runs other programs`);
    for (let i = 1; i < argv.length; i++) {
      if (i > GUESS_WINDOW * 4) {
        unknown(fx, `\`${program}\` has more arguments than Toolgate searches for the program it runs`);
        break;
      }
      const w = argv[i]!;
      if (!w.literal) {
        unknown(fx, `\`${program}\` gets an argument computed at run time, which could be the program it runs`);
        continue;
      }
      // A window is enough: a denied program further on is itself one of the guessed starts.
      if (!w.value.startsWith("-") && !w.value.includes("="))
        fx.nested(argv.slice(i, i + GUESS_WINDOW), { prefix: i, guess: true });
      // An argument that reads like shell text may be run by a shell (`runuser -c`, `ssh host '...'`).
      if (/[\s;&|`$()<>]/.test(w.value))
        fx.nested([literalWord("sh"), literalWord("-c"), w], { prefix: i, guess: true });
      // `--exec=CMD`-style values.
      const eq = w.value.indexOf("=");
      if (eq > 0 && w.value.startsWith("-")) fx.nested([sliceWord(w, eq + 1)], { prefix: i, guess: true });
    }
  };

export const WRAPPERS: Readonly<Record<string, ProgramCheck>> = {
  env,
  command,
  builtin: wrapper("builtin", { spec: NO_OPTIONS }),
  exec: wrapper("exec", { spec: EXEC }),
  nohup,
  timeout: wrapper("timeout", { spec: TIMEOUT, leading: 1, emptyNotReadOnly: true }),
  nice: wrapper("nice", { spec: NICE }),
  ionice: wrapper("ionice", { spec: IONICE }),
  // `/usr/bin/time -o FILE` writes its report to FILE (bash's `time` keyword takes `-p` only).
  time: wrapper("time", { spec: TIME }),
  stdbuf: wrapper("stdbuf", { spec: STDBUF, emptyNotReadOnly: true }),
  setsid: wrapper("setsid", { spec: SETSID, emptyNotReadOnly: true }),
  coproc: wrapper("coproc", { spec: NO_OPTIONS }),
  xargs,
  watch,
  busybox,
  sudo: wrapper("sudo", {
    spec: SUDO,
    privileged: "`sudo` runs a command as another user",
    emptyNotReadOnly: true,
  }),
  doas: wrapper("doas", {
    spec: DOAS,
    privileged: "`doas` runs a command as another user",
    emptyNotReadOnly: true,
  }),
};
