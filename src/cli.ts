/**
 * Headless entry: `toolgate <command>`. Each command is one line of the table below (a new one is one line
 * more). Exit codes: 0 done, 1 error, 2 usage or configuration error; `run` adds 3 (see src/cli/runTask.ts).
 */
import { version } from "../package.json";
import { UsageError } from "./cli/args";
import { checkCommand, explainCommand } from "./cli/check";
import type { CliCommand, CliIo } from "./cli/command";
import { hookCommand } from "./cli/hook";
import { ConfigError } from "./cli/loadGate";
import { RUN_SUMMARY } from "./cli/runSummary";

interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<CliCommand>;
}

const now = (c: CliCommand): CommandEntry => ({ summary: c.summary, load: () => Promise.resolve(c) });

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

// `run` is loaded on use: the agent runtime and the MCP SDK would add start-up time to every other command,
// and `hook` runs once per Claude Code tool call. `hook` itself is loaded with the entry point, so nothing
// can stop it from answering.
const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  check: now(checkCommand),
  explain: now(explainCommand),
  run: { summary: RUN_SUMMARY, load: async () => (await import("./cli/runTask")).runCommand },
  hook: now(hookCommand),
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
  try {
    command = await entry.load();
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

const io: CliIo = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
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
