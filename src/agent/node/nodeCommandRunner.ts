/**
 * CommandRunner over child_process, for the host and the CLI alike. Each command is its own
 * `bash --noprofile --norc -c LINE` (the shell the analysis modelled; never a reused interactive shell), with
 * `commandEnvironment`. The shell runs in its own process group (detached), so a cancel or a timeout kills
 * everything the command started (SIGTERM, then SIGKILL after a grace period), not only the shell.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { CommandResult, CommandRunner, CommandRunOptions, CommandSandboxReport } from "../env";
import { bashArgv, commandEnvironment } from "./commandEnv";
import type { SandboxGrant } from "../../core/sandbox/grant";
import type { SandboxOutlook } from "../../shared/messages";
import { finishSandboxed, planCommandSpawn, sandboxOutlook, type CommandSandboxSource } from "./commandSandbox";
import { endTaskTmp } from "../sandbox/taskTmp";
import { RunControl } from "./runControl";

const KILL_GRACE_MS = 2000;

export interface SpawnSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/**
 * The one place a command process starts (an OS sandbox wraps this: it receives exactly what would run).
 * Detached: the child leads its own process group, so the group can be killed.
 */
export function spawnCommand(spec: SpawnSpec): ChildProcessWithoutNullStreams {
  return spawn(spec.file, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** What runs for one decided line: bash, its argv, the cleaned environment, the decided cwd. */
export function commandSpawnSpec(line: string, cwd: string, base: NodeJS.ProcessEnv = process.env): SpawnSpec {
  return { ...bashArgv(line), env: commandEnvironment(base), cwd };
}

/**
 * Without a `sandbox` source the runner never sandboxes (unit tests, callers that confine commands otherwise);
 * the host and the CLI always pass one, read per command.
 */
export class NodeCommandRunner implements CommandRunner {
  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly sandbox?: CommandSandboxSource,
  ) {}

  sandboxOutlook(autoApproved: boolean, grant?: SandboxGrant): SandboxOutlook | undefined {
    return this.sandbox ? sandboxOutlook(this.sandbox, autoApproved, grant) : undefined;
  }

  endTask(taskKey: string): void {
    endTaskTmp(taskKey);
  }

  run(o: CommandRunOptions): Promise<CommandResult> {
    const windows = process.platform === "win32";
    if (windows || !this.sandbox) return this.spawnAndWait(o, undefined);
    const step = planCommandSpawn(this.sandbox, o, commandSpawnSpec(o.command, o.cwd, this.env));
    const notice = step.notice !== undefined ? { notice: step.notice } : {};
    if (step.kind === "notRun")
      return Promise.resolve({
        exitCode: undefined,
        timedOut: false,
        output: "",
        truncatedBytes: 0,
        sandbox: { sandboxed: false, notRun: step.reason, ...notice },
      });
    if (step.kind === "plain")
      return this.spawnAndWait(o, { spec: step.spec, after: () => ({ sandboxed: false, ...notice }) });
    const prepared = step.prepared;
    return this.spawnAndWait(o, {
      spec: step.spec,
      after: (run) => finishSandboxed(prepared, run, step.notice),
    });
  }

  private spawnAndWait(
    o: CommandRunOptions,
    sandboxed:
      | {
          readonly spec: SpawnSpec;
          readonly after: (run: {
            exitCode: number | undefined;
            output: string;
            spawnError?: string;
          }) => CommandSandboxReport;
        }
      | undefined,
  ): Promise<CommandResult> {
    return new Promise<CommandResult>((resolve) => {
      const windows = process.platform === "win32";
      let spawnError: string | undefined;
      const child = sandboxed
        ? spawnCommand(sandboxed.spec)
        : windows
          ? spawn(o.command, {
              cwd: o.cwd,
              shell: true,
              env: this.env,
              windowsHide: true,
              stdio: ["ignore", "pipe", "pipe"],
            })
          : spawnCommand(commandSpawnSpec(o.command, o.cwd, this.env));
      if (!windows) child.stdin?.end();
      let settled = false;
      let forceTimer: ReturnType<typeof setTimeout> | undefined;

      const killTree = (signal: NodeJS.Signals): void => {
        if (child.pid === undefined) return;
        try {
          if (windows) spawn("taskkill", ["/pid", String(child.pid), "/T", "/F"], { stdio: "ignore" });
          else process.kill(-child.pid, signal);
        } catch {
          // already gone
        }
      };
      const control = new RunControl(
        o,
        () => {
          killTree("SIGTERM");
          forceTimer = setTimeout(() => killTree("SIGKILL"), KILL_GRACE_MS);
        },
        () => settled,
      );

      for (const stream of [child.stdout, child.stderr]) {
        const decoder = new TextDecoder();
        stream.on("data", (b: Buffer) => control.output(decoder.decode(b, { stream: true })));
      }
      const finish = (exitCode: number | undefined, signal: string | undefined): void => {
        if (settled) return;
        settled = true;
        control.release();
        const { killed, timedOut, capture } = control;
        // The shell is gone; make sure nothing it started outlives a kill.
        if (killed) killTree("SIGKILL");
        if (forceTimer) clearTimeout(forceTimer);
        const output = capture.text();
        const sandbox = sandboxed?.after({ exitCode, output, ...(spawnError !== undefined ? { spawnError } : {}) });
        resolve({
          exitCode,
          ...(killed ? { killed } : signal ? { killed: signal } : {}),
          timedOut,
          output,
          truncatedBytes: capture.truncated,
          ...(child.pid !== undefined ? { pid: child.pid } : {}),
          ...(sandbox ? { sandbox } : {}),
        });
      };
      child.on("error", (e) => {
        spawnError = e.message;
        control.capture.push(`could not start the command: ${e.message}`);
        finish(undefined, undefined);
      });
      // 'close' waits for stdio; a background process holding the pipes open must not hang the task, so the
      // shell's own exit also settles after a short grace.
      child.on("close", (code, signal) => finish(code ?? undefined, signal ?? undefined));
      child.on("exit", (code, signal) => {
        setTimeout(() => finish(code ?? undefined, signal ?? undefined), 500).unref();
      });
      if (o.signal.aborted) control.stop("cancelled");
    });
  }
}
