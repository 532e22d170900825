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
import { literalWord, UNKNOWN, type Word } from "../model";
import type { Effects, ProgramCheck } from "./effects";
import { longName, mayBeOption, sliceWord } from "./options";

interface ProjectSpec {
  /** Long options without a value. */
  readonly long: readonly string[];
  /** Long options with a value (`--name=v` or `--name v`). */
  readonly longArgs: readonly string[];
  /** Short flags without a value. */
  readonly flags: string;
  /** Short options with a value. */
  readonly shortArgs: string;
  /** Options ending at the first positional (node, npx): the rest belongs to what runs. */
  readonly stopAtPositional: boolean;
  /** GNU-style abbreviations of long options are accepted (make). */
  readonly abbreviations: boolean;
  /**
   * Options whose value is optional (make's `-j`, `--debug`): a long one takes only `=value`, a short one the
   * rest of its word; listed in `numericNext`, the next word too when it starts with a digit (`-j 4`; a load
   * average also with `.`), as make reads them. Any other next word is not theirs (`make -j SHELL=x` overrides SHELL).
   */
  readonly optional?: {
    readonly long: readonly string[];
    readonly short: string;
    readonly numericNext: readonly string[];
  };
  /**
   * Options whose value is a directory the program runs a project from or a file it runs (`make -C DIR`,
   * `make -f FILE`, `npm --prefix DIR`, `yarn --cwd DIR`): read through the path gate, so one outside the
   * workspace is a boundary (the sandboxed tier asks), and still changes what runs (never under an allow entry).
   */
  readonly paths?: {
    readonly short: Readonly<Record<string, PathKind>>;
    readonly long: Readonly<Record<string, PathKind>>;
  };
}

type PathKind = "dir" | "file";

/** The path an option names, read as the project it runs from (`names`) or the file it runs (`file-content`). */
function readPathOption(program: string, option: string, kind: PathKind, value: Word | undefined, fx: Effects): void {
  if (value === undefined) return fx.dangerous(`\`${program} ${option}\` needs a value`);
  fx.read(value, kind === "dir" ? "names" : "file-content");
  fx.dangerous(
    `\`${program} ${option}\` ${kind === "dir" ? "runs the project of another directory" : "runs another file"}`,
  );
}

/** Reads argv against `spec`; returns the positionals seen before the options ended. */
function projectArgs(argv: readonly Word[], program: string, spec: ProjectSpec, fx: Effects): Word[] {
  const positionals: Word[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (w.literal && v === "--") break;
    if (!mayBeOption(w)) {
      positionals.push(w);
      if (spec.stopAtPositional) break;
      continue;
    }
    if (!w.literal || v.includes(UNKNOWN)) {
      fx.dangerous(`\`${program}\` gets an argument computed at run time that could be any option`);
      continue;
    }
    if (v === "-") {
      positionals.push(w);
      if (spec.stopAtPositional) break;
      continue;
    }
    const numericNext = (option: string): void => {
      if (!spec.optional?.numericNext.includes(option)) return;
      const next = argv[i + 1]?.value ?? "";
      if (/^[0-9]/.test(next) || (/^\./.test(next) && /^-(l|-load-average|-max-load)$/.test(option))) i++;
    };
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const written = v.slice(2, eq >= 0 ? eq : undefined);
      const pathLong = spec.paths?.long ?? {};
      const all = [...spec.long, ...spec.longArgs, ...(spec.optional?.long ?? []), ...Object.keys(pathLong)];
      const name = spec.abbreviations ? longName(written, all) : all.includes(written) ? written : undefined;
      const pathKind =
        name !== undefined && Object.prototype.hasOwnProperty.call(pathLong, name) ? pathLong[name] : undefined;
      if (pathKind !== undefined) {
        readPathOption(program, `--${name}`, pathKind, eq >= 0 ? sliceWord(w, eq + 1) : argv[++i], fx);
        continue;
      }
      if (name === undefined) {
        fx.dangerous(`\`${program} --${written}\` is not an option Toolgate knows; it could change what runs`);
        continue;
      }
      if (spec.longArgs.includes(name) && eq < 0) i++;
      else if (eq < 0) numericNext(`--${name}`);
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j]!;
      if (spec.flags.includes(c)) continue;
      const shortKind =
        spec.paths && Object.prototype.hasOwnProperty.call(spec.paths.short, c) ? spec.paths.short[c] : undefined;
      if (shortKind !== undefined) {
        readPathOption(program, `-${c}`, shortKind, j < v.length - 1 ? sliceWord(w, j + 1) : argv[++i], fx);
        break;
      }
      if (spec.optional?.short.includes(c)) {
        if (j === v.length - 1) numericNext(`-${c}`);
        break;
      }
      if (spec.shortArgs.includes(c)) {
        if (j === v.length - 1) i++;
        break;
      }
      fx.dangerous(`\`${program} -${c}\` is not an option Toolgate knows; it could change what runs`);
      break;
    }
  }
  return positionals;
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

/** npm: subcommand and script come from the allow rule; options anywhere before `--` are npm's. */
/** npm's options that name another project or configuration file (`-C` is `--prefix`). */
const NPM_PATHS: ProjectSpec["paths"] = {
  short: { C: "dir" },
  long: { prefix: "dir", userconfig: "file", globalconfig: "file" },
};

const NPM_SPEC: ProjectSpec = {
  long: NPM_LONG,
  longArgs: NPM_LONG_ARGS,
  flags: "sqydDSEOBl",
  shortArgs: "w",
  stopAtPositional: false,
  abbreviations: false,
  paths: NPM_PATHS,
};

/** npx: options, then the package's command and its own arguments. `-c` runs a shell string. */
const npx: ProgramCheck = (argv, fx) => {
  projectCommand("npx", fx);
  projectArgs(
    argv,
    "npx",
    {
      long: [...NPM_LONG, "no-install", "ignore-existing"],
      longArgs: [...NPM_LONG_ARGS, "package"],
      flags: "sqy",
      shortArgs: "wp",
      stopAtPositional: true,
      abbreviations: false,
      paths: NPM_PATHS,
    },
    fx,
  );
  // What it runs is a program of a package: look for denied commands in it, as for any runner.
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    if (w.literal && !w.value.startsWith("-") && !w.value.includes("="))
      fx.nested(argv.slice(i), { prefix: i, guess: true });
  }
};

const PNPM: ProjectSpec = {
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
  shortArgs: "F",
  stopAtPositional: false,
  abbreviations: false,
  paths: { short: { C: "dir" }, long: { dir: "dir" } },
};

const YARN: ProjectSpec = {
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
  shortArgs: "j",
  stopAtPositional: false,
  abbreviations: false,
  paths: { short: {}, long: { cwd: "dir" } },
};

const NODE: ProjectSpec = {
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
  shortArgs: "C",
  stopAtPositional: true,
  abbreviations: false,
};

/** The test reporters node has built in; any other `--test-reporter` value is a module node loads and runs. */
const NODE_REPORTERS = new Set(["spec", "tap", "dot", "junit", "lcov"]);

/** node: options, then a script (read through the path gate) and its arguments. */
const node: ProgramCheck = (argv, fx) => {
  projectCommand("node", fx);
  const [script] = projectArgs(argv, "node", NODE, fx);
  const end = script ? argv.indexOf(script) : argv.length;
  for (let i = 1; i < end; i++) {
    const v = argv[i]!.value;
    const reporter =
      v === "--test-reporter" ? argv[i + 1] : v.startsWith("--test-reporter=") ? sliceWord(argv[i]!, 16) : undefined;
    if (reporter && !(reporter.literal && NODE_REPORTERS.has(reporter.value)))
      fx.dangerous("`node --test-reporter` loads a reporter module, which runs its code");
  }
  const run = argv.some((w) => w.literal && (w.value === "--run" || w.value.startsWith("--run=")));
  const test = argv.some((w) => w.literal && w.value === "--test");
  const info = argv.some((w) => w.literal && /^(-v|--version|-h|--help)$/.test(w.value));
  if (script && !(script.literal && script.value === "-")) fx.read(script, "content");
  else if (!run && !test && !info) fx.dangerous("`node` without a script runs code from its standard input");
};

const MAKE: ProjectSpec = {
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
  flags: "BiknqrRsStwLpehd",
  shortArgs: "oW",
  stopAtPositional: false,
  abbreviations: true,
  paths: {
    short: { C: "dir", f: "file", I: "dir" },
    long: { directory: "dir", file: "file", makefile: "file", "include-dir": "dir" },
  },
  optional: {
    long: ["jobs", "load-average", "max-load", "output-sync", "debug"],
    short: "jlO",
    numericNext: ["-j", "-l", "--jobs", "--load-average", "--max-load"],
  },
};

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
function packageManager(program: string, spec: ProjectSpec): ProgramCheck {
  return (argv, fx) => {
    projectCommand(program, fx);
    // The package manager's own options end at the subcommand of a package runner: the rest is the package's.
    const sub = projectArgs(argv, program, { ...spec, stopAtPositional: true }, fx)[0];
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
  const at = argv.indexOf(sub);
  const rest = argv.slice(at + 1);
  const start = rest.findIndex((w) => !(w.literal && (w.value === "--" || w.value.startsWith("-"))));
  if (start < 0) return;
  if (rest.slice(0, start).some((w) => w.value !== "--"))
    fx.dangerous(`\`${program} ${sub.value}\` gets options that choose what it runs`);
  fx.nested(rest.slice(start), { prefix: at + 1 + start });
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
