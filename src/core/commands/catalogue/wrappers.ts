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
import { mayBeOption, parseArgs, sliceWord, type OptionSpec } from "./options";

/** Options of a wrapper: flags, options taking a value, and those that stop it being transparent. */
interface WrapperSpec {
  readonly flags?: readonly string[];
  readonly withValue?: readonly string[];
  /** Option → reason it cannot be vouched for. */
  readonly blocked?: Readonly<Record<string, string>>;
  /** The first positional is an argument of the wrapper (timeout's duration). */
  readonly leadingArgs?: number;
  /** Old-style `-NUM` option (nice -10). */
  readonly numeric?: boolean;
  /** The wrapper is not transparent (privilege change): it needs an allow rule of its own. */
  readonly privileged?: string;
}

type Fx = Parameters<ProgramCheck>[1];

/** The command's boundary or program is known only at run time. */
export function unknown(fx: Fx, reason: string): void {
  fx.unknown(reason);
}

/** Splits a wrapper's argv into its own options and the command it runs. Returns the command's start index. */
function unwrap(program: string, argv: readonly Word[], spec: WrapperSpec, fx: Fx): number {
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    if (!mayBeOption(w)) break;
    if (!w.literal) {
      unknown(fx, `\`${program}\` gets an argument computed at run time that could be any option`);
      continue;
    }
    const v = w.value;
    if (v === "--") {
      i++;
      break;
    }
    const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    if (spec.blocked?.[name]) {
      fx.dangerous(`\`${program} ${name}\` ${spec.blocked[name]}`);
      if (spec.withValue?.includes(name) && !v.includes("=")) i++;
      continue;
    }
    if (spec.flags?.includes(v)) continue;
    if (spec.withValue?.includes(name)) {
      if (!v.includes("=")) i++;
      continue;
    }
    // Attached value of a short option (`-n10`, `-s9`).
    if (/^-[A-Za-z]./.test(v) && spec.withValue?.includes(v.slice(0, 2))) continue;
    if (spec.numeric && /^-\d+$/.test(v)) continue;
    // Clustered short flags (`setsid -fw`).
    if (/^-[A-Za-z]{2,}$/.test(v) && [...v.slice(1)].every((c) => spec.flags?.includes(`-${c}`))) continue;
    unknown(fx, `\`${v}\` is not a \`${program}\` option Toolgate knows`);
  }
  for (let n = 0; n < (spec.leadingArgs ?? 0) && i < argv.length; n++) i++;
  return i;
}

function wrapper(program: string, spec: WrapperSpec, onEmpty: "ok" | "not-read-only" = "ok"): ProgramCheck {
  return (argv, fx) => {
    fx.label(program);
    if (spec.privileged) fx.notReadOnly(spec.privileged);
    const start = unwrap(program, argv, spec, fx);
    if (start >= argv.length) {
      if (onEmpty === "not-read-only") fx.notReadOnly(`\`${program}\` without a command`);
      return;
    }
    fx.nested(argv.slice(start), { prefix: start });
  };
}

/** `env [-i] [-u NAME] [NAME=VALUE...] [CMD...]`: with no command it prints the environment. */
const env: ProgramCheck = (argv, fx) => {
  fx.label("env");
  const assignments: { name: string; value: Word }[] = [];
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (
      w.literal &&
      (v === "-i" ||
        v === "-" ||
        v === "--ignore-environment" ||
        v === "-0" ||
        v === "--null" ||
        v === "-v" ||
        v === "--debug" ||
        /^--(default|ignore|block)-signal(=|$)/.test(v) ||
        v === "--list-signal-handling")
    )
      continue;
    if (w.literal && (v === "-u" || v === "--unset")) {
      i++;
      continue;
    }
    if (w.literal && (/^-u./.test(v) || v.startsWith("--unset="))) continue;
    if (w.literal && (v === "-C" || v === "--chdir" || /^-C./.test(v) || v.startsWith("--chdir="))) {
      if (v === "-C" || v === "--chdir") i++;
      fx.dangerous("`env -C` runs the command in another directory");
      continue;
    }
    if (w.literal && (v === "-S" || v === "--split-string" || /^-S./.test(v) || v.startsWith("--split-string="))) {
      const at = i;
      const s =
        v === "-S" || v === "--split-string" ? argv[++i] : sliceWord(w, v.startsWith("-S") ? 2 : v.indexOf("=") + 1);
      if (!s) return;
      // env splits the string at blanks into words that stand in its place, then goes on with the rest.
      // Its own quoting, escapes and `${VAR}` are not modelled: such a string is unknown.
      if (!s.literal || !/^[A-Za-z0-9_@%+=:,./ \t-]*$/.test(s.value))
        return unknown(fx, "`env -S` splits a string with quotes, escapes or variables Toolgate does not model");
      const split = s.value
        .split(/[ \t]+/)
        .filter((x) => x !== "")
        .map(literalWord);
      return env([...argv.slice(0, at), ...split, ...argv.slice(i + 1)], fx);
    }
    if (v === "--") {
      i++;
      break;
    }
    // env takes any NAME=VALUE before the command, even names the shell would not (`BASH_FUNC_ls%%=...`).
    const eq = v.indexOf("=");
    if (eq > 0 && !v.startsWith("-")) {
      if (assignments.length >= GUESS_WINDOW * 4) return unknown(fx, "`env` sets more variables than Toolgate checks");
      if (v.slice(0, eq).includes(UNKNOWN)) fx.dangerous("`env` sets a variable whose name is computed at run time");
      assignments.push({ name: v.slice(0, eq), value: sliceWord(w, eq + 1) });
      continue;
    }
    if (mayBeOption(w)) {
      if (!w.literal) unknown(fx, "`env` gets an argument computed at run time that could be any option");
      else unknown(fx, `\`${v}\` is not an \`env\` option Toolgate knows`);
      continue;
    }
    break;
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
  let i = 1;
  let prints = false;
  for (; i < argv.length && argv[i]!.literal && /^-[pvV]+$/.test(argv[i]!.value); i++)
    prints ||= /[vV]/.test(argv[i]!.value);
  if (argv[i]?.literal && argv[i]!.value === "--") i++;
  else if (argv[i] && mayBeOption(argv[i]!))
    return unknown(fx, `\`${argv[i]!.value.replaceAll(UNKNOWN, "…")}\` is not a \`command\` option Toolgate knows`);
  if (prints || i >= argv.length) return;
  fx.nested(argv.slice(i), { prefix: i });
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

const WATCH_LONG_FLAGS = [
  "--no-title",
  "--beep",
  "--errexit",
  "--chgexit",
  "--color",
  "--no-color",
  "--precise",
  "--no-wrap",
  "--no-rerun",
];

/** `watch [options] CMD...` joins its words and runs them with `sh -c`; with `-x` it runs them directly. */
const watch: ProgramCheck = (argv, fx) => {
  fx.label("watch");
  let exec = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    if (!mayBeOption(w)) break;
    if (!w.literal) {
      unknown(fx, "`watch` gets an argument computed at run time that could be any option");
      continue;
    }
    const v = w.value;
    if (v === "--") {
      i++;
      break;
    }
    if (v.startsWith("--")) {
      const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
      if (v === "--exec") exec = true;
      else if (v === "--interval" || v === "--equexit") i++;
      else if (name === "--interval" || name === "--equexit" || name === "--differences") continue;
      else if (!WATCH_LONG_FLAGS.includes(v)) unknown(fx, `\`${v}\` is not a \`watch\` option Toolgate knows`);
      continue;
    }
    // A bundle of short options, as getopt reads it (`-tx` is `-t -x`): `-d` takes the rest of the word as its
    // value, `-n`/`-q` the rest or the next word.
    for (let j = 1; j < v.length; j++) {
      const c = v[j]!;
      if (c === "x") exec = true;
      else if (c === "d") break;
      else if (c === "n" || c === "q") {
        if (j === v.length - 1) i++;
        break;
      } else if (!"bcegptwrC".includes(c)) {
        unknown(fx, `\`${v}\` is not a \`watch\` option Toolgate knows`);
        break;
      }
    }
  }
  const rest = argv.slice(i);
  if (rest.length === 0) return;
  if (exec) return fx.nested(rest, { prefix: i });
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

/** `/usr/bin/time` writes to a file with `-o`; bash's `time` keyword takes `-p`. */
const time: ProgramCheck = (argv, fx) => {
  fx.label("time");
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i]!;
    if (!mayBeOption(w)) break;
    const v = w.value;
    if (!w.literal) {
      unknown(fx, "`time` gets an argument computed at run time that could be any option");
      continue;
    }
    if (v === "--") {
      i++;
      break;
    }
    if (v === "-o" || v === "--output") {
      const f = argv[++i];
      if (f) fx.write(f);
    } else if (v.startsWith("--output=")) fx.write(sliceWord(w, 9));
    else if (v === "-f" || v === "--format") i++;
    else if (
      !["-p", "-a", "--append", "-v", "--verbose", "-q", "--quiet", "--portability"].includes(v) &&
      !v.startsWith("--format=")
    )
      unknown(fx, `\`${v}\` is not a \`time\` option Toolgate knows`);
  }
  if (i < argv.length) fx.nested(argv.slice(i), { prefix: i });
};

/** `nohup CMD` appends to `nohup.out` when its output is a terminal. */
const nohup: ProgramCheck = (argv, fx) => {
  fx.label("nohup");
  const start = argv[1]?.literal && argv[1].value === "--" ? 2 : 1;
  if (start >= argv.length) return;
  if (start === 1 && mayBeOption(argv[1]!))
    return unknown(fx, `\`${argv[1]!.value.replaceAll(UNKNOWN, "…")}\` is not a \`nohup\` option Toolgate knows`);
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

const SUDO: WrapperSpec = {
  flags: [
    "-E",
    "-H",
    "-n",
    "-S",
    "-k",
    "-K",
    "-A",
    "-b",
    "-P",
    "--preserve-env",
    "--set-home",
    "--non-interactive",
    "--stdin",
    "--reset-timestamp",
    "--askpass",
    "--background",
    "--preserve-groups",
  ],
  withValue: [
    "-u",
    "-g",
    "-h",
    "-p",
    "-C",
    "-T",
    "-r",
    "-t",
    "-U",
    "-D",
    "--user",
    "--group",
    "--host",
    "--prompt",
    "--close-from",
    "--command-timeout",
    "--role",
    "--type",
    "--other-user",
    "--chdir",
  ],
  blocked: {
    "-s": "starts a shell",
    "-i": "starts a login shell",
    "--shell": "starts a shell",
    "--login": "starts a login shell",
    "-e": "edits files",
    "--edit": "edits files",
    "-D": "runs the command in another directory",
    "--chdir": "runs the command in another directory",
  },
  privileged: "`sudo` runs a command as another user",
};

export const WRAPPERS: Readonly<Record<string, ProgramCheck>> = {
  env,
  command,
  builtin: wrapper("builtin", {}),
  exec: wrapper("exec", { flags: ["-c", "-l", "-cl", "-lc"], withValue: ["-a"] }),
  nohup,
  timeout: wrapper(
    "timeout",
    {
      flags: ["--preserve-status", "--foreground", "-v", "--verbose"],
      withValue: ["-k", "-s", "--kill-after", "--signal"],
      leadingArgs: 1,
    },
    "not-read-only",
  ),
  nice: wrapper("nice", { withValue: ["-n", "--adjustment"], numeric: true }),
  ionice: wrapper("ionice", {
    flags: ["-t", "--ignore"],
    withValue: ["-c", "-n", "--class", "--classdata"],
    blocked: {
      "-p": "changes another process",
      "-P": "changes other processes",
      "-u": "changes other processes",
      "--pid": "changes another process",
      "--pgid": "changes other processes",
      "--uid": "changes other processes",
    },
  }),
  time,
  stdbuf: wrapper("stdbuf", { withValue: ["-i", "-o", "-e", "--input", "--output", "--error"] }, "not-read-only"),
  setsid: wrapper("setsid", { flags: ["-c", "-f", "-w", "--ctty", "--fork", "--wait"] }, "not-read-only"),
  coproc: wrapper("coproc", {}),
  xargs,
  watch,
  busybox,
  sudo: wrapper("sudo", SUDO, "not-read-only"),
  doas: wrapper(
    "doas",
    {
      flags: ["-n", "-L"],
      withValue: ["-u", "-C"],
      blocked: { "-s": "starts a shell" },
      privileged: "`doas` runs a command as another user",
    },
    "not-read-only",
  ),
};
