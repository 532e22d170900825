/**
 * Headless entry: `toolgate <command>`. Each command is one line of the table below (a new one is one line
 * more). Exit codes: 0 done, 1 error, 2 usage or configuration error; `run` adds 3 (see src/cli/runTask.ts).
 *
 * Invariant: this module imports nothing but the error classes, the code cache and the table; every command's
 * module is loaded when that command runs (in dist/ each is a bundle of its own, see esbuild.mjs), so `hook` —
 * started once per Claude Code tool call — loads the gate and nothing else, and `sandbox` loads no gate at all.
 * The bundles are compiled with V8's code cache (cli/codeCache.ts).
 */
import { setFlagsFromString } from "node:v8";
import { version } from "../package.json";
import { cliCodeCache } from "./cli/codeCache";
import type { CliCommand, CliIo } from "./cli/command";
import { ConfigError, UsageError } from "./cli/errors";
import { RUN_SUMMARY } from "./cli/runSummary";

interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<CliCommand>;
}

/** `checkpoints` and `restore` share one module, which reads the command name as its first argument. */
function checkpointsEntry(command: "checkpoints" | "restore", summary: string): CommandEntry {
  return {
    summary,
    load: async () => {
      const { checkpointsCli, CHECKPOINTS_USAGE } = await import("./cli/checkpoints");
      return {
        summary,
        usage: CHECKPOINTS_USAGE,
        main: (argv, io) => checkpointsCli([command, ...argv], io.stdout, io.stderr),
      };
    },
  };
}

// Summaries are written here so `toolgate --help` loads no command.
const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  check: {
    summary: "decide tool calls (JSON Lines on stdin) and print each decision",
    load: async () => (await import("./cli/check")).checkCommand,
  },
  explain: {
    summary: "like check, with the decision trace of each call",
    load: async () => (await import("./cli/check")).explainCommand,
  },
  run: { summary: RUN_SUMMARY, load: async () => (await import("./cli/runTask")).runCommand },
  hook: {
    summary: "Claude Code PreToolUse hook: the same policy gates Claude Code's tool calls",
    load: async () => (await import("./cli/hook")).hookCommand,
  },
  checkpoints: checkpointsEntry("checkpoints", "list the checkpoints recorded for a task"),
  restore: checkpointsEntry("restore", "restore the files of a task to before one of its steps"),
  sandbox: {
    summary: "run one command line inside the OS sandbox, or print its status (--status)",
    load: async () => {
      const { runSandboxCli, SANDBOX_USAGE } = await import("./cli/sandbox");
      return { summary: "", usage: SANDBOX_USAGE, main: (argv) => runSandboxCli(argv) };
    },
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: toolgate <command> [options]   (toolgate <command> --help for its options)\n${lines.join("\n")}`;
}

async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout).write(usage() + "\n");
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    io.stdout.write(`toolgate ${version}\n`);
    return 0;
  }
  const entry = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    io.stderr.write(`toolgate: unknown command \`${name}\`\n${usage()}\n`);
    return 2;
  }
  let command: CliCommand | undefined;
  // In dist/ the command bundles sit beside this entry; from source there are none, and nothing is cached.
  if (typeof __dirname === "string") cliCodeCache(__dirname, io.env);
  try {
    try {
      command = await entry.load();
    } catch (e) {
      if (name === "hook") return hookLoadFailure(rest, e, io);
      throw e;
    }
    return await command.main(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`toolgate ${name}: ${e.message}\n${command?.usage ?? ""}\n`);
      return 2;
    }
    if (e instanceof ConfigError) {
      io.stderr.write(`toolgate ${name}: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`toolgate ${name}: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}

/**
 * The hook's module could not be loaded (a damaged install): still a refusal in the agent's terms and exit 0,
 * since agents take a crash or an unknown exit code for "go on". Claude Code's shape; for any other agent,
 * exit 2 with the reason on stderr, which blocks the call where the agent knows that convention.
 */
function hookLoadFailure(argv: readonly string[], e: unknown, io: CliIo): number {
  const reason = `Toolgate: the hook could not be loaded, so the call is refused: ${String(e)}`;
  if (argv[0] !== "claude-code") {
    io.stderr.write(reason + "\n");
    return 2;
  }
  const answer = { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason };
  io.stdout.write(JSON.stringify({ hookSpecificOutput: answer }) + "\n");
  return 0;
}

// A CLI process is short: compile the grammar's WebAssembly functions when first called rather than all up
// front (the bash grammar is 1.3 MB; a hook decides one line). Only when code runs changes, not what it does.
setFlagsFromString("--wasm-lazy-compilation");

// The streams are set up when a command first uses one (a hook reads its input from the descriptor).
const io: CliIo = {
  get stdin() {
    return process.stdin;
  },
  stdinFd: 0,
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  env: process.env,
  cwd: process.cwd(),
};
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`toolgate: ${String(e)}\n`);
    process.exitCode = 1;
  },
);
