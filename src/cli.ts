import { parseArgs, USAGE, UsageError } from "./cli/args";
import { checkpointsCli } from "./cli/checkpoints";
import { ConfigError, loadGate } from "./cli/loadGate";
import { runLines } from "./cli/run";

/** Headless entry: `toolgate check` and `toolgate explain`. Exit 2 on bad usage or configuration. */
async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "--help" || argv[0] === "-h") {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (argv[0] === "checkpoints" || argv[0] === "restore") return checkpointsCli(argv, process.stdout, process.stderr);
  try {
    const args = parseArgs(argv);
    const gate = await loadGate(args);
    await runLines(args, gate, process.stdin, process.stdout);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`toolgate: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    if (e instanceof ConfigError) {
      process.stderr.write(`toolgate: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`toolgate: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`toolgate: ${String(e)}\n`);
    process.exitCode = 1;
  },
);
