/**
 * Why `toolgate hook gemini-cli` does not rewrite commands into Toolgate's sandbox (geminiCli.ts has no
 * `commandRewrite`), checked with the real Gemini CLI: it applies a BeforeTool hook's
 * `hookSpecificOutput.tool_input` and only THEN checks its own policy, on the rewritten command. A person's own
 * Gemini rule that denies `rm` refuses `rm victim.txt`; the same call rewritten by a hook into a line that does
 * not start with `rm` runs. A rewrite into `toolgate sandbox … -- LINE` would slip past every such rule, so it
 * waits until the hook matches the original line against Gemini CLI's own rules first (as claudePermissions.ts
 * does for Claude Code). If this test fails, Gemini CLI changed the order: look again.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { geminiCliAdapter } from "../../src/cli/hooks/geminiCli";
import { functionResponses, startGeminiServer } from "./support/geminiServer";
import { installedAgent } from "./support/installed";

const gemini = installedAgent("gemini-cli");
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const DENY_RM = '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 900\n';

/** `rm victim.txt` asked for by the model under a user policy denying `rm`; `rewrite`: a hook's new command. */
async function run(rewrite: string | undefined): Promise<{ deleted: boolean; output: string }> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-gemini-rw-")));
  roots.push(root);
  const ws = path.join(root, "ws");
  const home = path.join(root, "home");
  mkdirSync(ws);
  mkdirSync(path.join(home, ".gemini", "policies"), { recursive: true });
  writeFileSync(path.join(ws, "victim.txt"), "v\n");
  writeFileSync(path.join(home, ".gemini", "policies", "mine.toml"), DENY_RM);
  const answer = {
    decision: "allow",
    hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: rewrite } },
  };
  writeFileSync(path.join(root, "answer.json"), JSON.stringify(answer));
  const hook = { type: "command", command: `cat >/dev/null; cat ${root}/answer.json`, timeout: 30000 };
  writeFileSync(
    path.join(home, ".gemini", "settings.json"),
    JSON.stringify({
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      security: { auth: { selectedType: "gemini-api-key" } },
      hooks: rewrite !== undefined ? { BeforeTool: [{ matcher: "*", hooks: [hook] }] } : {},
    }),
  );
  const server = await startGeminiServer([{ call: { name: "run_shell_command", args: { command: "rm victim.txt" } } }]);
  const child = spawn(gemini.bin, ["--skip-trust", "--yolo", "-m", "gemini-2.5-flash", "-p", "Do the task."], {
    cwd: ws,
    detached: true,
    stdio: ["ignore", "ignore", "ignore"],
    env: {
      PATH: process.env.PATH,
      HOME: home,
      GEMINI_API_KEY: "gemini-test-key",
      GOOGLE_GEMINI_BASE_URL: server.url,
      XDG_STATE_HOME: path.join(root, "state"),
      TERM: "dumb",
      NO_COLOR: "1",
    },
  });
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), 60_000);
  await new Promise((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  await server.close();
  expect(server.unexpected).toEqual([]);
  return {
    deleted: !existsSync(path.join(ws, "victim.txt")),
    output: functionResponses(server)
      .map((r) => r.output)
      .join("\n"),
  };
}

describe(`Gemini CLI ${gemini.version}: its own policy judges the hook's rewritten command, not the model's`, () => {
  it("Toolgate's Gemini CLI hook does not rewrite commands", () => {
    expect(geminiCliAdapter.commandRewrite).toBeUndefined();
  });

  it("a user policy denying `rm` refuses `rm victim.txt`", async () => {
    const r = await run(undefined);
    expect(r.output).toMatch(/denied by policy/);
    expect(r.deleted).toBe(false);
  });

  it("the same call rewritten by a hook into another line runs past that policy", async () => {
    const r = await run(`node -e 'require("fs").unlinkSync("victim.txt")'; echo REWRITTEN`);
    expect(r.output).toMatch(/REWRITTEN/);
    expect(r.output).toMatch(/modified by a hook/);
    expect(r.deleted).toBe(true);
  });
});
