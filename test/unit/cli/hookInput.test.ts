/**
 * How a hook process reads its input (src/cli/hook.ts): straight from descriptor 0, and from the stream for
 * whatever a non-blocking pipe had not delivered yet. The CLI is built with the real build script and fed
 * through real pipes: a large input, an input that arrives in parts, and the same through a pipe set
 * non-blocking (reads that would wait fail with EAGAIN) all reach the gate whole.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { splitCliBuild } from "../../support/cliBuild";

const { out, t } = splitCliBuild();

const env = {
  ...process.env,
  HOME: t.path("home"),
  XDG_CONFIG_HOME: t.path("home"),
  XDG_STATE_HOME: t.path("home"),
  XDG_CACHE_HOME: t.path("home/cache"),
  CLAUDE_PROJECT_DIR: t.path("ws"),
};
const input = (command: string, description = "look") =>
  JSON.stringify({
    session_id: "s1",
    transcript_path: t.path("t.jsonl"),
    cwd: t.path("ws"),
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description },
  });

/** The hook's answer when its input is written in `parts`, `gapMs` apart; `nonBlocking` sets O_NONBLOCK first. */
function answer(parts: readonly string[], gapMs: number, nonBlocking: boolean): Promise<string> {
  const cli = path.join(out, "cli.js");
  // The flag is on the pipe itself (the open file description), so the hook's node inherits it through exec.
  const script = nonBlocking
    ? `python3 -c 'import fcntl, os; fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK)' && exec "$0" "$1" hook claude-code`
    : `exec "$0" "$1" hook claude-code`;
  const child = spawn("/bin/sh", ["-c", script, process.execPath, cli], { env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const write = async () => {
    for (const [i, p] of parts.entries()) {
      if (i > 0) await new Promise((r) => setTimeout(r, gapMs));
      child.stdin.write(p);
    }
    child.stdin.end();
  };
  void write();
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`exit ${code}: ${stderr}`));
      else
        resolve(
          (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput
            .permissionDecision,
        );
    });
  });
}

describe("the hook's input", () => {
  const split = (s: string, n: number) =>
    Array.from({ length: n }, (_, i) => s.slice((i * s.length) / n, ((i + 1) * s.length) / n));
  const allowed = input("ls src && git status");
  const denied = input("rm -rf src");
  // 300 KB, over any pipe's buffer: several reads. A damaged or cut input is refused, so only an allow shows
  // that the input arrived whole.
  const large = input("ls src", "a".repeat(300_000));

  it("reaches the gate whole from a blocking pipe, at once or in parts", async () => {
    expect(await answer([allowed], 0, false)).toBe("allow");
    expect(await answer(split(denied, 3), 150, false)).toBe("deny");
    expect(await answer(split(large, 4), 50, false)).toBe("allow");
  }, 60_000);

  it("reaches the gate whole from a non-blocking pipe whose parts arrive later", async () => {
    // The second part comes well after the hook started reading: its read would block, and fails instead.
    expect(await answer(split(allowed, 2), 2500, true)).toBe("allow");
    expect(await answer(["", allowed], 2500, true)).toBe("allow");
    expect(await answer(split(large, 3), 1500, true)).toBe("allow");
  }, 60_000);
});
