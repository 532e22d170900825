/**
 * Runs the bundled CLI asynchronously (the scripted model server lives in the test's own process, so the
 * event loop must keep serving it), with a hermetic environment as in test/unit/cli/cliProcess.ts.
 */
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import * as path from "node:path";

export interface AsyncRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function toolgateAsync(
  cli: string,
  args: readonly string[],
  o: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Promise<AsyncRun> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    VSCODE_APPDATA: path.join(tmpdir(), "toolgate-no-vscode-settings"),
    TOOLGATE_MANAGED_SETTINGS: undefined,
    // Checkpoints of test runs go to a temp store, never the person's own.
    XDG_STATE_HOME: path.join(tmpdir(), "toolgate-test-state"),
    TOOLGATE_API_KEY: undefined,
    OPENAI_API_KEY: undefined,
    ANTHROPIC_API_KEY: undefined,
    ...o.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: o.cwd, env: env as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end(o.input ?? "");
  });
}
