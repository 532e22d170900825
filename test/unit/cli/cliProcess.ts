/**
 * Runs the bundled CLI as a child process with a hermetic environment: VS Code's user settings directory
 * and the extra managed file point where the test says (by default nowhere), so the machine's own
 * settings never leak into a test.
 */
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import * as path from "node:path";

export interface ToolgateRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout as JSON Lines (empty when it is not). */
  readonly lines: Record<string, unknown>[];
}

export function toolgate(
  cli: string,
  args: readonly string[],
  o: { input?: readonly unknown[] | string; env?: Record<string, string>; cwd?: string } = {},
): ToolgateRun {
  const input = o.input ?? "";
  const stdin = typeof input === "string" ? input : input.map((l) => JSON.stringify(l)).join("\n") + "\n";
  const env: Record<string, string | undefined> = {
    ...process.env,
    VSCODE_APPDATA: path.join(tmpdir(), "toolgate-no-vscode-settings"),
    TOOLGATE_MANAGED_SETTINGS: undefined,
    TOOLGATE_API_KEY: undefined,
    OPENAI_API_KEY: undefined,
    ANTHROPIC_API_KEY: undefined,
    ...o.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const r = spawnSync(process.execPath, [cli, ...args], {
    input: stdin,
    encoding: "utf8",
    cwd: o.cwd,
    env: env as NodeJS.ProcessEnv,
    timeout: 60_000,
  });
  let lines: Record<string, unknown>[] = [];
  try {
    lines = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    lines = [];
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, lines };
}
