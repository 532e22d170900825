/**
 * The sandbox rewrite against the real Claude Code (the pinned version), in every permission mode it has, with
 * a second hook installed that answers nothing: the rewritten line really ran (the `--decided-by-hook` path's
 * sentinel log names each command and its grant), and ran inside the sandbox — a repository's `core.fsmonitor`
 * that `git status` starts (allowed read-only: the analysis does not see it) cannot write in the workspace or
 * outside it, a workspace-write line writes the workspace but not outside, and the agent's API key is not in a
 * wrapped command's environment. The same script without the hook shows each harm happening.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { CLAUDE_REWRITE_VERIFIED } from "../../src/cli/hooks/claudeRewrite";
import { startAnthropicServer, toolResults, type AnthropicServer } from "./support/anthropicServer";
import { installedAgent } from "./support/installed";
import { tempFolders } from "./support/tempFolders";

const agent = installedAgent("claude-code");
const CLI = path.resolve("dist/cli.js");
const KEY = "sk-test-claude-sandbox-0123456789";
// Every mode `--permission-mode` accepts in 2.1.332 (`manual` is `default`'s new name). Plan mode is below.
const MODES = ["default", "acceptEdits", "bypassPermissions", "auto", "dontAsk"] as const;
const temp = tempFolders();

interface Run {
  readonly ws: string;
  readonly outside: string;
  readonly log: string;
  readonly server: AnthropicServer;
  readonly exit: number | null;
  readonly stderr: string;
}

/** One Claude Code run in `mode` whose model asks for `commands` one Bash call at a time. */
async function runClaude(
  mode: string,
  commands: readonly string[],
  withHook: boolean,
  noopFirst = false,
): Promise<Run> {
  const ws = temp("cc-sbx-ws-");
  const home = temp("cc-sbx-home-");
  // Outside /tmp, which is private inside the sandbox: a write here meets the read-only root.
  const outside = temp("cc-sbx-out-", "/var/tmp");
  const log = path.join(home, "sandbox-log.jsonl");
  writeFileSync(path.join(ws, "a.txt"), "hello\n");
  spawnSync("git", ["init", "-q", ws]);
  // What `git status` runs without saying so: the analysis allows it read-only, so only the sandbox stops this.
  spawnSync("git", [
    "-C",
    ws,
    "config",
    "core.fsmonitor",
    `touch ${outside}/fsmonitor-outside; touch ${ws}/fsmonitor-inside; false`,
  ]);
  const toolgateSettings = path.join(home, "toolgate.json");
  writeFileSync(toolgateSettings, JSON.stringify({ "toolgate.mode": "auto" }));
  const ours = {
    type: "command",
    command: `${process.execPath} ${CLI} hook claude-code --settings ${toolgateSettings}`,
  };
  const noop = { type: "command", command: "/bin/sh -c 'cat >/dev/null'" };
  const entries = noopFirst ? [noop, ours] : [ours, noop];
  mkdirSync(path.join(ws, ".claude"));
  if (withHook)
    writeFileSync(
      path.join(ws, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: entries.map((h) => ({ matcher: "*", hooks: [h] })) } }),
    );
  let turn = 0;
  const server = await startAnthropicServer((body) => {
    if (!body.tools || body.tools.length === 0) return { text: "title" };
    const command = commands[turn++];
    return command !== undefined ? { tool: "Bash", input: { command, description: "run it" } } : { text: "done" };
  });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_STATE_HOME: path.join(home, "state"),
    VSCODE_APPDATA: path.join(home, "no-vscode"),
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: KEY,
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    IS_SANDBOX: "1",
    TOOLGATE_SANDBOX_LOG: log,
  };
  const child = spawn(agent.bin, ["-p", "run the commands", "--permission-mode", mode], {
    cwd: ws,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  child.stdout.resume();
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const exit = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  clearTimeout(timer);
  await server.close();
  return { ws, outside, log, server, exit, stderr };
}

function logged(run: Run): { grant: { kind: string }; line: string }[] {
  if (!existsSync(run.log)) return [];
  return readFileSync(run.log, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { grant: { kind: string }; line: string });
}

const lastResults = (run: Run): string[] => toolResults(run.server.bodies[run.server.bodies.length - 1]!);

const WRITE_OUTSIDE = (dir: string) => `node -e 'require("fs").writeFileSync("${dir}/node-outside", "x")'`;
const script = (outside: string) => [
  "git status",
  `touch ws-write.txt && ${WRITE_OUTSIDE(outside)}`,
  "printenv ANTHROPIC_API_KEY",
];

describe(`Claude Code ${agent.version}: allowed commands run inside Toolgate's sandbox`, () => {
  it("the pinned version is the verified one", () => {
    expect(CLAUDE_REWRITE_VERIFIED.some((v) => agent.version.startsWith(v))).toBe(true);
  });

  it("without the hook, the same script does every harm (so the checks below can fail)", async () => {
    // The outside folder is only known once the run made it: the script names it through a placeholder.
    const outside = temp("cc-sbx-plain-out-", "/var/tmp");
    const run = await runClaude("bypassPermissions", script(outside), false);
    expect(run.exit, run.stderr).toBe(0);
    expect(run.server.unexpected).toEqual([]);
    expect(existsSync(path.join(run.ws, "fsmonitor-inside"))).toBe(true);
    expect(existsSync(path.join(run.outside, "fsmonitor-outside"))).toBe(true);
    expect(existsSync(path.join(outside, "node-outside"))).toBe(true);
    expect(lastResults(run).join("\n")).toContain(KEY);
    expect(logged(run)).toEqual([]);
  });

  for (const [i, mode] of MODES.entries()) {
    it(`${mode}: each command ran rewritten, inside its grant, with a no-op hook ${i % 2 ? "before" : "after"} ours`, async () => {
      const outside = temp("cc-sbx-node-out-", "/var/tmp");
      const commands = script(outside);
      const run = await runClaude(mode, commands, true, i % 2 === 1);
      expect(run.exit, run.stderr).toBe(0);
      expect(run.server.unexpected).toEqual([]);
      // The sentinel: the --decided-by-hook path ran each line, with the grant the decision carried.
      expect(logged(run).map((e) => [e.line, e.grant.kind])).toEqual([
        ["git status", "read-only"],
        [commands[1], "workspace-write"],
        ["printenv ANTHROPIC_API_KEY", "read-only"],
      ]);
      // read-only: the fsmonitor git started could write neither the workspace nor outside it.
      expect(existsSync(path.join(run.ws, "fsmonitor-inside"))).toBe(false);
      expect(existsSync(path.join(run.outside, "fsmonitor-outside"))).toBe(false);
      // workspace-write: the workspace write happened, the outside one did not.
      expect(existsSync(path.join(run.ws, "ws-write.txt"))).toBe(true);
      expect(existsSync(path.join(outside, "node-outside"))).toBe(false);
      const results = lastResults(run);
      expect(results).toHaveLength(3);
      expect(results[1]).toMatch(/EROFS|read-only file system/i);
      expect(results.join("\n")).not.toContain(KEY);
    });
  }

  it("plan: Toolgate refuses the write; Claude Code judges the rewritten reads itself and, with no server-side check here, runs nothing", async () => {
    // In plan mode 2.1.332 applies the rewrite (a rewritten `echo` runs) but sends a line it does not know to be
    // read-only (`node cli.js sandbox …`) to its server-side safety check, which a loopback API cannot answer:
    // every command is refused. Nothing runs, rewritten or not.
    const outside = temp("cc-sbx-plan-out-", "/var/tmp");
    const run = await runClaude("plan", script(outside), true);
    expect(run.server.unexpected).toEqual([]);
    expect(logged(run)).toEqual([]);
    expect(existsSync(path.join(run.ws, "fsmonitor-inside"))).toBe(false);
    expect(existsSync(path.join(run.outside, "fsmonitor-outside"))).toBe(false);
    expect(existsSync(path.join(run.ws, "ws-write.txt"))).toBe(false);
    expect(existsSync(path.join(outside, "node-outside"))).toBe(false);
    const results = lastResults(run);
    expect(results).toHaveLength(3);
    // The write is refused by Toolgate itself (Claude Code's plan mode is decided as Toolgate's plan mode); the
    // read-only lines are rewritten and then refused by Claude Code.
    expect(results[0]).toMatch(/Bash was not run/);
    expect(results[1]).toMatch(/^PreToolUse:Bash hook error: Toolgate: /);
    expect(results[2]).toMatch(/Bash was not run/);
    expect(results.join("\n")).not.toContain(KEY);
  });
});
