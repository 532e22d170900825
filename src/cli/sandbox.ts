import { spawn } from "node:child_process";
import { appendFileSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import { constants } from "node:os";
import { grantOf, parseGrantKind, describeGrant, type SandboxGrant } from "../core/sandbox/grant";
import { parseSandboxSettings, type SandboxSettings } from "../core/sandbox/sandboxSettings";
import { finishSandboxed } from "../agent/node/commandSandbox";
import { commandSpawnSpec } from "../agent/node/nodeCommandRunner";
import { undoProtectedChanges } from "../agent/sandbox/protectedUndo";
import { availabilityOf, probeSandbox } from "../agent/sandbox/sandboxProbe";
import { SandboxSession, SandboxUnavailableError, type PreparedSpawn } from "../agent/sandbox/sandboxedSpawn";
import { parseFlags, SETTINGS_FLAGS, SETTINGS_USAGE, settingsArgs, UsageError, type ParsedFlags } from "./args";
import {
  checkDecidedByHook,
  HOOK_SANDBOX_FLAGS,
  HOOK_SANDBOX_USAGE,
  hookInvocation,
  nestedHint,
  type HookInvocation,
} from "./sandboxHook";
import { ConfigError, loadPolicy, strictPolicy } from "./policy";

/**
 * `toolgate sandbox [--grant G] [--network HOST]... [--cwd DIR] [settings flags] -- LINE`: runs one command
 * line exactly as the runtime runs a command whose decision carried that grant (same policy files as
 * `check`, the same `SandboxSession`, `bash --noprofile --norc -c LINE`), without the gate: the second layer
 * alone. stdout, stderr and the exit code pass through. Protected paths the line changed are undone and
 * reported (as headless runs do), and the exit status says so. When no sandbox can start it runs nothing.
 */

export const SANDBOX_USAGE = `usage: toolgate sandbox [options] -- LINE
       toolgate sandbox --status
  runs LINE in the OS sandbox as the runtime runs a command with that grant (the gate is not asked).
  --grant G             read-only | workspace-write (default: workspace-write)
  --network HOST        a host the grant may reach (repeatable); only hosts that toolgate.sandbox.network
                        also lists are reachable, through the allow-list proxy; none: no network at all
  --cwd DIR             the working directory (default: the first workspace)
${SETTINGS_USAGE}
  --status              print the sandbox probe as one JSON line
${HOOK_SANDBOX_USAGE}
exit codes: LINE's own status; 2 usage or configuration error; 4 LINE changed protected paths or files that
            run code later (undone); 125 no sandbox could start, or (--decided-by-hook) the decision changed:
            nothing ran`;

/** Exit status when no sandbox could be started (nothing ran), as `env`/`timeout` use 125. */
export const NO_SANDBOX_EXIT = 125;
/** Exit status when the line changed protected paths (they were undone). */
export const PROTECTED_EXIT = 4;

const FLAGS = {
  ...SETTINGS_FLAGS,
  "--grant": "value",
  "--network": "list",
  "--cwd": "value",
  "--status": "bool",
  ...HOOK_SANDBOX_FLAGS,
} as const;

interface Invocation {
  readonly status: boolean;
  readonly help: boolean;
  readonly grant: SandboxGrant;
  readonly line?: string;
  readonly cwd?: string;
  readonly roots: readonly string[];
  readonly ignoreFileName: string;
  readonly sandbox: SandboxSettings;
  /** `--decided-by-hook`: the agent's call to decide again before anything runs. */
  readonly hook?: HookInvocation;
  readonly flags?: ParsedFlags;
}

function parse(argv: readonly string[]): Invocation {
  const dash = argv.indexOf("--");
  const flags = parseFlags(dash >= 0 ? argv.slice(0, dash) : argv, FLAGS);
  const rest = dash >= 0 ? argv.slice(dash + 1) : undefined;
  const status = flags.bools.has("--status");
  if (flags.help)
    return {
      status,
      help: true,
      grant: grantOf("workspace-write"),
      roots: [],
      ignoreFileName: "",
      sandbox: { mode: "auto", network: { kind: "off" } },
    };
  if (status && rest !== undefined) throw new UsageError("--status takes no command line");
  if (!status && rest === undefined) throw new UsageError("no command line: `-- LINE` is missing");
  if (rest !== undefined && rest.length !== 1) throw new UsageError("exactly one command line must follow `--`");
  const kindText = flags.values["--grant"] ?? "workspace-write";
  const kind = parseGrantKind(kindText);
  if (kind === undefined) throw new UsageError(`unknown grant \`${kindText}\` (read-only or workspace-write)`);
  const policy = strictPolicy(loadPolicy(settingsArgs(flags)));
  const parsed = parseSandboxSettings(policy.loaded.values);
  if (!parsed.ok) throw new ConfigError(parsed.error);
  let cwd: string | undefined;
  const cwdFlag = flags.values["--cwd"];
  if (cwdFlag !== undefined) {
    cwd = nodePath.resolve(cwdFlag);
    if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`--cwd ${cwdFlag} is not a directory`);
  }
  const hook = rest !== undefined ? hookInvocation(flags, rest[0]!, cwd) : undefined;
  return {
    status,
    help: false,
    ...(hook !== undefined ? { hook, flags } : {}),
    grant: grantOf(kind, flags.lists["--network"] ?? []),
    ...(rest !== undefined ? { line: rest[0]! } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    roots: policy.roots,
    ignoreFileName: policy.loaded.settings.ignoreFile,
    sandbox: parsed.value,
  };
}

export async function runSandboxCli(argv: readonly string[]): Promise<number> {
  let inv: Invocation;
  try {
    inv = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError || e instanceof ConfigError)) throw e;
    process.stderr.write(`toolgate sandbox: ${e.message}\n${SANDBOX_USAGE}\n`);
    return 2;
  }
  if (inv.help) {
    process.stdout.write(SANDBOX_USAGE + "\n");
    return 0;
  }
  if (inv.hook !== undefined && inv.flags !== undefined) {
    // Decided again with the same policy: a changed decision, grant or directory runs nothing.
    const changed = await checkDecidedByHook(inv.hook, inv.flags, inv.grant, inv.cwd ?? "", process.env);
    if (changed !== undefined) {
      process.stderr.write(`toolgate sandbox: not run: ${changed}\n`);
      return NO_SANDBOX_EXIT;
    }
  }
  const hint = inv.hook !== undefined ? nestedHint(inv.hook.agent) : "";
  const probe = probeSandbox();
  if (inv.status) {
    process.stdout.write(JSON.stringify(availabilityOf(probe)) + "\n");
    return 0;
  }
  let prepared: PreparedSpawn;
  let session: SandboxSession | undefined;
  try {
    session = new SandboxSession(
      { roots: inv.roots, ignoreFileName: inv.ignoreFileName, network: inv.sandbox.network },
      probe,
    );
    await session.ready(inv.grant);
    prepared = session.prepare(commandSpawnSpec(inv.line!, inv.cwd ?? inv.roots[0]!), {
      grant: inv.grant,
      taskKey: `cli-${process.pid}`,
    });
  } catch (e) {
    session?.dispose();
    if (!(e instanceof SandboxUnavailableError)) throw e;
    process.stderr.write(`toolgate sandbox: no sandbox: ${e.message}${hint}\n`);
    return NO_SANDBOX_EXIT;
  }
  const log = inv.hook !== undefined ? process.env.TOOLGATE_SANDBOX_LOG : undefined;
  if (log !== undefined && log !== "") {
    // One JSON line per command a hook's rewrite ran here (the real-agent suite's sentinel; an audit trail).
    try {
      const entry = {
        agent: inv.hook?.agent,
        tool: inv.hook?.call.toolName,
        grant: inv.grant,
        cwd: prepared.cwd,
        line: inv.line,
      };
      appendFileSync(log, JSON.stringify(entry) + "\n", { mode: 0o600 });
    } catch (e) {
      prepared.cleanup();
      session?.dispose();
      process.stderr.write(`toolgate sandbox: cannot write TOOLGATE_SANDBOX_LOG (${(e as Error).message}): not run\n`);
      return NO_SANDBOX_EXIT;
    }
  }
  const s = session;
  const p = prepared;
  if (p.notice) process.stderr.write(`toolgate sandbox: ${p.notice}\n`);
  if (process.env.TOOLGATE_SANDBOX_VERBOSE === "1")
    process.stderr.write(`toolgate sandbox: grant: ${describeGrant(inv.grant)}\n`);
  // The allow-list proxy (when the grant has hosts) lives in this process until the command ended.
  return new Promise<number>((resolve) => {
    const child = spawn(p.file, p.args, { cwd: p.cwd, env: p.env, stdio: ["inherit", "inherit", "pipe"] });
    // A signal to `toolgate sandbox` goes to the command (bubblewrap runs it with --die-with-parent) and this
    // process waits for it to end, so the clean-up below and the exit handlers run: without these handlers
    // Node would die at once and leave the session's folders behind. A second signal kills it outright.
    let signalled = 0;
    const forward = (signal: NodeJS.Signals): void => {
      signalled++;
      child.kill(signalled > 1 ? "SIGKILL" : signal);
    };
    const signals: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
    for (const sig of signals) process.on(sig, forward);
    const settle = (code: number): void => {
      for (const sig of signals) process.removeListener(sig, forward);
      resolve(code);
    };
    // stderr passes through; its head is kept to tell bubblewrap's own start failure from the command's.
    let head = "";
    child.stderr.on("data", (b: Buffer) => {
      if (head.length < 4096) head += b.toString("utf8");
      process.stderr.write(b);
    });
    child.on("error", (e) => {
      p.cleanup();
      s.dispose();
      process.stderr.write(`toolgate sandbox: cannot start ${p.file}: ${e.message}${hint}\n`);
      settle(NO_SANDBOX_EXIT);
    });
    child.on("close", (code, signal) => {
      const exit = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      const report = finishSandboxed(p, { exitCode: exit, output: head }, undefined);
      s.dispose();
      if (report.notRun !== undefined) {
        process.stderr.write(`toolgate sandbox: ${report.notRun}${hint}\n`);
        settle(NO_SANDBOX_EXIT);
        return;
      }
      const found = report.protectedChanges ?? [];
      if (found.length === 0) return settle(exit);
      // Nobody to ask: undone, as a headless run does; each is reported with what was done.
      for (const v of undoProtectedChanges(found))
        process.stderr.write(
          `toolgate sandbox: ${v.runsCode === true ? "file that runs code later" : "protected path"} ${v.kind}: ${v.path} (${v.what}) — ${v.outcome === "failed" ? "could NOT be undone" : "undone"}\n`,
        );
      settle(PROTECTED_EXIT);
    });
  });
}
