/**
 * CommandRunner over child_process, for the host and the CLI alike. Each command is its own
 * `bash --noprofile --norc -c LINE` (the shell the analysis modelled; never a reused interactive shell), with
 * `commandEnvironment`. The shell runs in its own process group (detached), so a cancel or a timeout kills
 * everything the command started (SIGTERM, then SIGKILL after a grace period), not only the shell.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { CommandResult, CommandRunner, CommandRunOptions } from "../env";
import { bashArgv, commandEnvironment } from "./commandEnv";
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

export class NodeCommandRunner implements CommandRunner {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  run(o: CommandRunOptions): Promise<CommandResult> {
    return new Promise<CommandResult>((resolve) => {
      const windows = process.platform === "win32";
      const child = windows
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
        resolve({
          exitCode,
          ...(killed ? { killed } : signal ? { killed: signal } : {}),
          timedOut,
          output: capture.text(),
          truncatedBytes: capture.truncated,
          ...(child.pid !== undefined ? { pid: child.pid } : {}),
        });
      };
      child.on("error", (e) => {
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
