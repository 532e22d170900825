/** `toolgate check` and `toolgate explain`: decide JSON Lines calls from stdin with the loaded policy. */
import { watchedFacts } from "../agent/node/watchedFacts";
import { assumedSandbox, checkpointsForGate, sandboxForGate } from "../agent/sandbox/gateFacts";
import { parseFlags, SETTINGS_FLAGS, SETTINGS_USAGE, settingsArgs, UsageError } from "./args";
import type { CliCommand } from "./command";
import { decideLines } from "./decideLines";
import { gateFor, loadPolicy, strictPolicy } from "./loadGate";

const FLAGS = {
  ...SETTINGS_FLAGS,
  "--headless": "bool",
  "--untrusted": "bool",
  "--tainted-by": "list",
  "--assume-sandbox": "value",
} as const;

function usage(name: "check" | "explain"): string {
  return `usage: toolgate ${name} [options] < calls.jsonl
  reads JSON Lines {"id": any?, "tool": string, "params": object} on stdin;
  ${name === "check" ? 'prints one {"id", "decision", "reason", "rule"} line per call' : "prints the decision trace of each call"}.
${SETTINGS_USAGE}
  --headless            no one to ask: every ask becomes a deny with its reason
  --untrusted           as in Restricted Mode: nothing is auto-approved
  --tainted-by SOURCE   decide as in a task that read untrusted content from SOURCE (repeatable:
                        \`tracker/fetch_issue\`, \`docs.example.com\`); every way out then asks
  --assume-sandbox available|unavailable
                        decide as if the OS sandbox did (not) work here, instead of probing it once
exit codes: 0 done, 2 usage or configuration error (every settings problem is one)`;
}

function command(name: "check" | "explain", summary: string): CliCommand {
  return {
    summary,
    usage: usage(name),
    async main(argv, io) {
      const flags = parseFlags(argv, FLAGS);
      if (flags.help) {
        io.stdout.write(usage(name) + "\n");
        return 0;
      }
      const assume = flags.values["--assume-sandbox"];
      const assumed = assume === undefined ? undefined : assumedSandbox(assume);
      if (assume !== undefined && !assumed)
        throw new UsageError("--assume-sandbox must be `available` or `unavailable`");
      const policy = strictPolicy(loadPolicy(settingsArgs(flags), { cwd: io.cwd, env: io.env }));
      // Many calls, one process: the file-system facts are kept between them while fs.watch reports no change.
      const watched = watchedFacts(policy.roots);
      try {
        // As the runtime would decide on this machine: the sandbox probed once per run, checkpoints as set.
        const gate = await gateFor(policy, {
          headless: flags.bools.has("--headless"),
          trusted: !flags.bools.has("--untrusted"),
          sandbox: assumed ?? sandboxForGate(policy.loaded.values),
          checkpoints: checkpointsForGate(policy.loaded.values),
          facts: watched.facts,
        });
        const taintedBy = [
          ...new Set((flags.lists["--tainted-by"] ?? []).map((s) => s.trim()).filter((s) => s !== "")),
        ];
        await decideLines(name, gate, io.stdin, io.stdout, taintedBy.sort());
        return 0;
      } finally {
        watched.close();
      }
    },
  };
}

export const checkCommand = command("check", "decide tool calls (JSON Lines on stdin) and print each decision");
export const explainCommand = command("explain", "like check, with the decision trace of each call");
