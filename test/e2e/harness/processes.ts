/**
 * Every process the e2e run starts goes through here, each in its own process group, so that stopping it
 * also stops what it spawned (code-server's extension host, pty host, the MCP servers the extension starts).
 *
 * Invariant: when the run ends — normally, by an exception, or by SIGINT/SIGTERM/SIGHUP — every group
 * started here has been sent SIGKILL at the latest, and the registered cleanups (temp folders, browser)
 * have run.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

export interface Started {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the exit code (or signal name) when the group leader exits. */
  readonly exited: Promise<number | string>;
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves when the leader is gone. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<number>();
const cleanups: Array<() => Promise<void> | void> = [];

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // group already gone
  }
}

export function startGroup(command: string, args: readonly string[], options: SpawnOptions = {}): Started {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  live.add(pid);
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
    child.once("error", (e) => resolve(String(e)));
  });
  const stop = async (graceMs = 5000): Promise<void> => {
    if (!live.has(pid)) return;
    killGroup(pid, "SIGTERM");
    const timer = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), graceMs).unref());
    if ((await Promise.race([exited, timer])) === "timeout") killGroup(pid, "SIGKILL");
    await exited;
    // Children that outlived the leader (an orphaned MCP server, say) still carry the group id.
    killGroup(pid, "SIGKILL");
    live.delete(pid);
  };
  return { child, pid, exited, stop };
}

/** Runs at the end of the run and on signals, last registered first. */
export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

let cleaning: Promise<void> | undefined;

export function cleanupAll(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const fn = cleanups.pop()!;
      try {
        await fn();
      } catch (e) {
        console.error(`[e2e] cleanup failed: ${String(e)}`);
      }
    }
    for (const pid of live) killGroup(pid, "SIGKILL");
    live.clear();
  })();
  return cleaning;
}

export function liveGroups(): number[] {
  return [...live];
}

/** Installs the signal and exit handlers once. */
export function installSignalHandlers(): void {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    process.once(signal, () => {
      console.error(`\n[e2e] ${signal}: stopping everything the run started`);
      void cleanupAll().finally(() => process.exit(code));
    });
  }
  // Last resort (synchronous): a crash or process.exit() elsewhere still takes the groups down.
  process.once("exit", () => {
    for (const pid of live) killGroup(pid, "SIGKILL");
  });
}
