/**
 * The option grammars of the wrappers (programs that run the command after their options), read by the one
 * option interpreter (options.ts). Each is the program's own getopt string and long-option table: every one
 * stops at the first positional (`+` in the getopt string: the command and its options are not permuted),
 * and an option not listed is unknown (it could take a value and so move where the command starts).
 * Checked against the real programs where installed (test/unit/commands/wrapperGrammar.test.ts).
 */
import type { OptionSpec } from "./options";

const WRAPPER = { posix: true, unknownOptions: "unknown" } as const;

/** GNU coreutils `env` ("+C:iS:u:v0"); `-S` is re-read in place by the caller (`stopAfter`). */
export const ENV: OptionSpec = {
  ...WRAPPER,
  flags: "iv0",
  shortArgs: { C: "data", S: "data", u: "data" },
  long: ["ignore-environment", "null", "debug", "list-signal-handling", "help", "version"],
  longArgs: { unset: "data", chdir: "data", "split-string": "data" },
  longOptional: { "block-signal": "data", "default-signal": "data", "ignore-signal": "data" },
  dangerous: {
    "-C": "runs the command in another directory",
    "--chdir": "runs the command in another directory",
  },
  same: { "-i": "--ignore-environment", "-u": "--unset", "-S": "--split-string", "-0": "--null", "-v": "--debug" },
  stopAfter: ["--split-string"],
};

/** GNU coreutils `timeout` ("+k:s:v"): DURATION comes before the command. */
export const TIMEOUT: OptionSpec = {
  ...WRAPPER,
  flags: "v",
  shortArgs: { k: "data", s: "data" },
  long: ["foreground", "preserve-status", "verbose", "help", "version"],
  longArgs: { "kill-after": "data", signal: "data" },
};

/** GNU coreutils `nice` ("+n:", and `-NUM` read before getopt). */
export const NICE: OptionSpec = {
  ...WRAPPER,
  numeric: true,
  shortArgs: { n: "data" },
  long: ["help", "version"],
  longArgs: { adjustment: "data" },
};

/** GNU coreutils `nohup`: only `--help` and `--version`. */
export const NOHUP: OptionSpec = { ...WRAPPER, long: ["help", "version"] };

/** GNU coreutils `stdbuf` ("+i:o:e:"). */
export const STDBUF: OptionSpec = {
  ...WRAPPER,
  shortArgs: { i: "data", o: "data", e: "data" },
  long: ["help", "version"],
  longArgs: { input: "data", output: "data", error: "data" },
};

/** util-linux `setsid` ("+hcfwV"). */
export const SETSID: OptionSpec = {
  ...WRAPPER,
  flags: "cfwhV",
  long: ["ctty", "fork", "wait", "help", "version"],
};

const OTHERS = "changes other processes";

/** util-linux `ionice` ("+n:c:p:P:u:tVh"): `-p`/`-P`/`-u` act on other processes, not on a command. */
export const IONICE: OptionSpec = {
  ...WRAPPER,
  flags: "tVh",
  shortArgs: { c: "data", n: "data", p: "data", P: "data", u: "data" },
  long: ["ignore", "help", "version"],
  longArgs: { class: "data", classdata: "data", pid: "data", pgid: "data", uid: "data" },
  dangerous: {
    "-p": "changes another process",
    "--pid": "changes another process",
    "-P": OTHERS,
    "--pgid": OTHERS,
    "-u": OTHERS,
    "--uid": OTHERS,
  },
};

/** GNU `time` ("+agqvVo:f:p"): `-o FILE` writes the report to FILE. */
export const TIME: OptionSpec = {
  ...WRAPPER,
  flags: "apqvVh",
  shortArgs: { o: "write", f: "data" },
  long: ["append", "portability", "quiet", "verbose", "help", "version"],
  longArgs: { output: "write", format: "data" },
  same: { "-o": "--output" },
};

/**
 * procps-ng `watch`: `-d` takes only an attached value, `-n`/`-q` a value; `-x` runs the words directly
 * instead of joining them for `sh -c`.
 */
export const WATCH: OptionSpec = {
  ...WRAPPER,
  flags: "bcegptwxrChv",
  shortArgs: { n: "data", q: "data" },
  shortOptional: { d: "data" },
  long: [
    "beep",
    "color",
    "no-color",
    "errexit",
    "chgexit",
    "precise",
    "no-title",
    "no-wrap",
    "no-rerun",
    "exec",
    "help",
    "version",
  ],
  longArgs: { interval: "data", equexit: "data" },
  longOptional: { differences: "data" },
  same: { "-x": "--exec" },
};

/** bash's `exec [-cl] [-a NAME] [CMD...]` (builtin getopt: clusters and attached values, no long options). */
export const EXEC: OptionSpec = { ...WRAPPER, flags: "cl", shortArgs: { a: "data" } };

/** bash's `command [-pVv] CMD...`: `-v`/`-V` only print how CMD would be found. */
export const COMMAND: OptionSpec = { ...WRAPPER, flags: "pvV" };

/** No options but `--` (bash's `builtin`, `coproc`). */
export const NO_OPTIONS: OptionSpec = { ...WRAPPER };

const SHELL = "starts a shell";

/**
 * sudo 1.9 ("+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv"). A shell (`-s`, `-i`), editing (`-e`), another
 * directory or root (`-D`, `-R`) are not a transparent wrapper.
 */
export const SUDO: OptionSpec = {
  ...WRAPPER,
  flags: "AbBEeHiKklNnPSsVv",
  shortArgs: {
    a: "data",
    C: "data",
    c: "data",
    D: "data",
    g: "data",
    p: "data",
    R: "data",
    r: "data",
    T: "data",
    t: "data",
    U: "data",
    u: "data",
  },
  shortOptional: { h: "data" },
  long: [
    "askpass",
    "background",
    "bell",
    "edit",
    "set-home",
    "help",
    "login",
    "remove-timestamp",
    "reset-timestamp",
    "list",
    "non-interactive",
    "preserve-groups",
    "stdin",
    "shell",
    "validate",
    "version",
  ],
  longArgs: {
    "auth-type": "data",
    "close-from": "data",
    "login-class": "data",
    chdir: "data",
    group: "data",
    host: "data",
    prompt: "data",
    chroot: "data",
    role: "data",
    type: "data",
    "command-timeout": "data",
    "other-user": "data",
    user: "data",
  },
  longOptional: { "preserve-env": "data" },
  dangerous: {
    "-s": SHELL,
    "--shell": SHELL,
    "-i": "starts a login shell",
    "--login": "starts a login shell",
    "-e": "edits files",
    "--edit": "edits files",
    "-D": "runs the command in another directory",
    "--chdir": "runs the command in another directory",
    "-R": "runs the command in another root directory",
    "--chroot": "runs the command in another root directory",
  },
};

/** OpenBSD `doas` ("+C:Lnsu:"): `-C FILE` reads a configuration file. */
export const DOAS: OptionSpec = {
  ...WRAPPER,
  flags: "Lns",
  shortArgs: { C: "content", u: "data" },
  dangerous: { "-s": SHELL },
};

/**
 * util-linux `su` ("c:fg:G:lmpPs:hVw:", GNU order: options may follow the user). `-c`/`--command` and
 * `--session-command` are shell text its user's shell runs; `-s SHELL` runs the program it names.
 */
export const SU: OptionSpec = {
  unknownOptions: "unknown",
  flags: "flmpPhV",
  shortArgs: { c: "data", g: "data", G: "data", s: "data", w: "data" },
  long: ["fast", "login", "preserve-environment", "pty", "help", "version"],
  longArgs: {
    command: "data",
    "session-command": "data",
    group: "data",
    "supp-group": "data",
    shell: "data",
    "whitelist-environment": "data",
  },
  runs: { "-s": "runs the shell it names", "--shell": "runs the shell it names" },
  same: { "-c": "--command" },
};
