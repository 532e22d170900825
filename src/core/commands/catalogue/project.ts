/**
 * Project commands (`npm test`, `node scripts/x.js`, `make`, `pnpm`, `yarn`, `npx`): never read-only (they
 * run the project's own code), so only an allow rule lets them run. The allow rule names what runs; these
 * checks make sure no flag changes *what* runs or *where*: another directory or configuration (`--prefix`,
 * `-C`, `--userconfig`, `--cwd`), another shell or interpreter options (`--script-shell`,
 * `--node-options`), code given on the line or preloaded (`node -e`, `--require`, `--import`, `--loader`),
 * another makefile or overridden variables (`make -f`, `make CC=...`). Options are whitelisted: any other is
 * dangerous. The working directory itself must lie in the workspace (a `cd` elsewhere before `npm test`
 * runs another project): it is checked as a read.
 */
import { literalWord, type Word } from "../model";
import type { Effects, ProgramCheck } from "./effects";
import { parseArgs, type ArgKind, type OptionSpec } from "./options";

/** Why an option that names a directory or file to run from changes what runs (never under an allow entry). */
const ANOTHER_DIR = "runs the project of another directory";
const ANOTHER_FILE = "runs another file";

/**
 * Options whose value is a directory the program runs a project from or a file it runs (`make -C DIR`,
 * `make -f FILE`, `npm --prefix DIR`, `yarn --cwd DIR`): the value is read through the path gate (one outside
 * the workspace is a boundary the sandboxed tier asks at), and the option is dangerous.
 */
function runsFrom(
  short: Readonly<Record<string, "dir" | "file">>,
  long: Readonly<Record<string, "dir" | "file">>,
): Pick<OptionSpec, "shortArgs" | "longArgs" | "dangerous"> {
  const kind = (k: "dir" | "file"): ArgKind => (k === "dir" ? "names" : "content");
  const why = (k: "dir" | "file"): string => (k === "dir" ? ANOTHER_DIR : ANOTHER_FILE);
  return {
    shortArgs: Object.fromEntries(Object.entries(short).map(([c, k]) => [c, kind(k)])),
    longArgs: Object.fromEntries(Object.entries(long).map(([n, k]) => [n, kind(k)])),
    dangerous: Object.fromEntries([
      ...Object.entries(short).map(([c, k]) => [`-${c}`, why(k)]),
      ...Object.entries(long).map(([n, k]) => [`--${n}`, why(k)]),
    ]),
  };
}

/**
 * A project program's grammar: `flags` and `long` take no value, `shortArgs`/`longArgs` take data, `paths`
 * name where it runs from. Options are whitelisted (any other is dangerous); `exact`: no abbreviations.
 */
function projectSpec(o: {
  flags: string;
  shortArgs?: readonly string[];
  long: readonly string[];
  longArgs: readonly string[];
  paths?: ReturnType<typeof runsFrom>;
  posix?: boolean;
  exact?: boolean;
  extra?: Partial<OptionSpec>;
}): OptionSpec {
  const data = (names: readonly string[]): Record<string, ArgKind> =>
    Object.fromEntries(names.map((n) => [n, "data" as ArgKind]));
  return {
    flags: o.flags,
    shortArgs: { ...data(o.shortArgs ?? []), ...o.paths?.shortArgs },
    long: o.long,
    longArgs: { ...data(o.longArgs), ...o.paths?.longArgs },
    dangerous: { ...o.paths?.dangerous },
    posix: o.posix === true,
    exact: o.exact !== false,
    ...o.extra,
  };
}

/** Reads argv against `spec`; returns the positionals (with `posix`, the first one ends the options). */
function projectArgs(argv: readonly Word[], program: string, spec: OptionSpec, fx: Effects): Word[] {
  return parseArgs(argv, 1, spec, fx, program).positionals;
}

function projectCommand(program: string, fx: Effects): void {
  fx.label(program);
  fx.notReadOnly(`\`${program}\` runs the project's code`);
  // The project is the working directory's: it must be in the workspace.
  fx.read(literalWord("."), "names");
}

const NPM_LONG = [
  "silent",
  "quiet",
  "verbose",
  "json",
  "color",
  "no-color",
  "if-present",
  "ignore-scripts",
  "foreground-scripts",
  "workspaces",
  "ws",
  "include-workspace-root",
  "no-workspaces",
  "offline",
  "prefer-offline",
  "prefer-online",
  "no-audit",
  "no-fund",
  "no-progress",
  "progress",
  "parseable",
  "long",
  "yes",
  "no",
  "help",
  "version",
  "dry-run",
  "save-dev",
  "save-exact",
  "no-save",
  "legacy-peer-deps",
  "global-style",
];
const NPM_LONG_ARGS = ["workspace", "loglevel", "tag", "omit", "include"];

/** npm's options that name another project or configuration file (`-C` is `--prefix`). */
const NPM_PATHS = runsFrom({ C: "dir" }, { prefix: "dir", userconfig: "file", globalconfig: "file" });

/** npm: subcommand and script come from the allow rule; options anywhere are npm's. */
const NPM_SPEC = projectSpec({
  long: NPM_LONG,
  longArgs: NPM_LONG_ARGS,
  flags: "sqydDSEOBl",
  shortArgs: ["w"],
  paths: NPM_PATHS,
});

const NPX_SPEC = projectSpec({
  long: [...NPM_LONG, "no-install", "ignore-existing"],
  longArgs: [...NPM_LONG_ARGS, "package"],
  flags: "sqy",
  shortArgs: ["w", "p"],
  posix: true,
  paths: NPM_PATHS,
});

/** npx: options, then the package's command and its own arguments. `-c` runs a shell string. */
const npx: ProgramCheck = (argv, fx) => {
  projectCommand("npx", fx);
  projectArgs(argv, "npx", NPX_SPEC, fx);
  // What it runs is a program of a package: look for denied commands in it, as for any runner.
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    if (w.literal && !w.value.startsWith("-") && !w.value.includes("="))
      fx.nested(argv.slice(i), { prefix: i, guess: true });
  }
};

const PNPM = projectSpec({
  long: [
    "silent",
    "recursive",
    "workspace-root",
    "if-present",
    "parallel",
    "stream",
    "aggregate-output",
    "no-bail",
    "bail",
    "sort",
    "no-sort",
    "reverse",
    "color",
    "no-color",
    "offline",
    "prefer-offline",
    "frozen-lockfile",
    "help",
    "version",
    "report-summary",
  ],
  longArgs: ["filter", "filter-prod", "reporter", "loglevel", "workspace-concurrency", "test-pattern", "resume-from"],
  flags: "srw",
  shortArgs: ["F"],
  paths: runsFrom({ C: "dir" }, { dir: "dir" }),
});

const YARN = projectSpec({
  long: [
    "silent",
    "verbose",
    "json",
    "offline",
    "prefer-offline",
    "frozen-lockfile",
    "immutable",
    "ignore-engines",
    "no-progress",
    "non-interactive",
    "help",
    "version",
    "top-level",
    "all",
    "parallel",
    "topological",
    "topological-dev",
    "interlaced",
  ],
  longArgs: ["include", "exclude", "jobs"],
  flags: "sApti",
  shortArgs: ["j"],
  paths: runsFrom({}, { cwd: "dir" }),
});

export const NODE = projectSpec({
  long: [
    "test",
    "watch",
    "check",
    "enable-source-maps",
    "no-warnings",
    "no-deprecation",
    "trace-warnings",
    "trace-deprecation",
    "trace-uncaught",
    "throw-deprecation",
    "pending-deprecation",
    "expose-gc",
    "preserve-symlinks",
    "preserve-symlinks-main",
    "abort-on-uncaught-exception",
    "experimental-vm-modules",
    "experimental-strip-types",
    "experimental-transform-types",
    "experimental-detect-module",
    "no-experimental-detect-module",
    "experimental-require-module",
    "experimental-test-coverage",
    "test-only",
    "frozen-intrinsics",
    "disallow-code-generation-from-strings",
    "version",
    "help",
    "zero-fill-buffers",
  ],
  longArgs: [
    "max-old-space-size",
    "stack-size",
    "unhandled-rejections",
    "title",
    "conditions",
    "test-reporter",
    "test-name-pattern",
    "test-skip-pattern",
    "test-concurrency",
    "test-timeout",
    "watch-path",
    "input-type",
    "run",
    "stack-trace-limit",
  ],
  flags: "cvh",
  shortArgs: ["C"],
  posix: true,
});

/** The test reporters node has built in; any other `--test-reporter` value is a module node loads and runs. */
const NODE_REPORTERS = new Set(["spec", "tap", "dot", "junit", "lcov"]);

/** node: options, then a script (read through the path gate) and its arguments. */
const node: ProgramCheck = (argv, fx) => {
  projectCommand("node", fx);
  const { positionals, seen } = parseArgs(argv, 1, NODE, fx, "node");
  const script = positionals[0];
  for (const reporter of seen.valuesOf("--test-reporter"))
    if (!(reporter.literal && NODE_REPORTERS.has(reporter.value)))
      fx.dangerous("`node --test-reporter` loads a reporter module, which runs its code");
  const run = seen.has("--run");
  const test = seen.has("--test");
  const info = ["-v", "--version", "-h", "--help"].some((o) => seen.has(o));
  if (script && !(script.literal && script.value === "-")) fx.read(script, "content");
  else if (!run && !test && !info) fx.dangerous("`node` without a script runs code from its standard input");
};

/**
 * GNU make (getopt_long: abbreviations). `-j`, `-l`, `-O`, `--jobs`, `--debug`… take an optional value,
 * attached only here: a separate `4` in `make -j 4` is read as a target, which is data (an override such as
 * `make -j SHELL=x` is still seen as one).
 */
export const MAKE = projectSpec({
  long: [
    "always-make",
    "ignore-errors",
    "keep-going",
    "no-keep-going",
    "stop",
    "just-print",
    "dry-run",
    "recon",
    "question",
    "no-builtin-rules",
    "no-builtin-variables",
    "silent",
    "quiet",
    "no-silent",
    "touch",
    "trace",
    "print-directory",
    "no-print-directory",
    "warn-undefined-variables",
    "environment-overrides",
    "check-symlink-times",
    "version",
    "help",
    "print-data-base",
  ],
  longArgs: ["old-file", "assume-old", "what-if", "new-file", "assume-new"],
  // `-b`, `-m` are ignored; `-v` prints the version.
  flags: "BbmiknqrRsStwLpehdv",
  shortArgs: ["o", "W"],
  exact: false,
  paths: runsFrom(
    { C: "dir", f: "file", I: "dir" },
    { directory: "dir", file: "file", makefile: "file", "include-dir": "dir" },
  ),
  extra: {
    shortOptional: { j: "data", l: "data", O: "data" },
    longOptional: { jobs: "data", "load-average": "data", "max-load": "data", "output-sync": "data", debug: "data" },
  },
});

/** make: targets are data; `NAME=value` overrides a makefile variable, which can change what recipes run. */
const make =
  (program: string): ProgramCheck =>
  (argv, fx) => {
    projectCommand(program, fx);
    const positionals = projectArgs(argv, program, MAKE, fx);
    for (const p of positionals) {
      const eq = p.value.indexOf("=");
      if (!p.literal) fx.dangerous(`\`${program}\` gets a target computed at run time (it could override a variable)`);
      else if (eq > 0 && !/^[A-Za-z_][A-Za-z0-9_]*=\d*$/.test(p.value))
        fx.dangerous(`\`${program} ${p.value}\` overrides a makefile variable, which can change what the recipes run`);
      else if (eq > 0 && /^(SHELL|MAKESHELL|MAKEFLAGS|MFLAGS|MAKEFILES|MAKE)=/.test(p.value))
        fx.dangerous(`\`${program} ${p.value}\` changes how make runs recipes`);
    }
  };

/** Subcommands that run a package's program (fetched from the registry or installed): not the project's code. */
const PACKAGE_RUNNERS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set(["exec", "x"]),
  pnpm: new Set(["dlx", "exec"]),
  yarn: new Set(["dlx", "exec"]),
};

/**
 * `yarn dlx prettier`, `npm exec tsc`: the program that runs is named on the line, so it is a nested command
 * that must pass on its own — an allow rule for the package manager licenses it only when it names the
 * package too (`yarn dlx prettier`).
 */
function packageManager(program: string, spec: OptionSpec): ProgramCheck {
  return (argv, fx) => {
    projectCommand(program, fx);
    // The package manager's own options end at the subcommand of a package runner: the rest is the package's.
    const sub = projectArgs(argv, program, { ...spec, posix: true }, fx)[0];
    if (sub?.literal && PACKAGE_RUNNERS[program]?.has(sub.value)) packageRunner(program, argv, sub, fx);
    else projectArgs(argv, program, spec, fx);
    if (program === "npm" && sub?.literal && sub.value === "explore") explore(argv, fx);
  };
}

/**
 * `npm explore PKG -- WORDS...` joins the words after `--` and runs them with a shell in the package's folder;
 * without them it starts an interactive shell. The folder is under the project npm finds (which may be a
 * parent directory), so the script is checked as run after a `cd` to a directory known only at run time:
 * its relative paths then ask.
 */
function explore(argv: readonly Word[], fx: Effects): void {
  const dash = argv.findIndex((w) => w.literal && w.value === "--");
  const words = dash < 0 ? [] : argv.slice(dash + 1);
  if (words.length === 0) return fx.dangerous("`npm explore` without a command starts an interactive shell");
  const text = `cd -- "$npm_explore_folder" && ${words.map((w) => w.value).join(" ")}`;
  fx.payload(
    words.every((w) => w.literal) ? literalWord(text) : { ...literalWord(text), literal: false },
    "`npm explore`",
  );
}

function packageRunner(program: string, argv: readonly Word[], sub: Word, fx: Effects): void {
  // The runner's own options are not vouched for: any of them could choose what it runs (an empty grammar).
  const { firstPositional } = parseArgs(argv, argv.indexOf(sub) + 1, { posix: true }, fx, `${program} ${sub.value}`);
  if (firstPositional === undefined) return;
  fx.nested(argv.slice(firstPositional), { prefix: firstPositional });
}

export const PROJECT: Readonly<Record<string, ProgramCheck>> = {
  npm: packageManager("npm", NPM_SPEC),
  pnpm: packageManager("pnpm", PNPM),
  yarn: packageManager("yarn", YARN),
  npx,
  node,
  make: make("make"),
  gmake: make("gmake"),
};
