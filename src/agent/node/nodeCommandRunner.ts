/**
 * CommandRunner over child_process. The shell runs in its own process group (detached), so a cancel or a
 * timeout kills everything the command started (SIGTERM, then SIGKILL after a grace period), not only
 * the shell.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { CommandResult, CommandRunner, CommandRunOptions } from "../env";
import { RunControl } from "./runControl";

const KILL_GRACE_MS = 2000;

function posixShell(): string {
  return existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
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
        : spawn(posixShell(), ["-c", o.command], {
            cwd: o.cwd,
            env: this.env,
            detached: true,
            stdio: ["ignore", "pipe", "pipe"],
          });
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
