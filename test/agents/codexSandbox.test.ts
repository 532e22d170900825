/**
 * The sandbox rewrite against the real Codex (the pinned version), with a second hook installed that answers
 * `{}` before or after ours: the rewritten line really ran (the `--decided-by-hook` path's sentinel log names
 * each command and its grant), and ran inside the sandbox — a repository's `core.fsmonitor` that `git status`
 * starts (allowed read-only: the analysis does not see it) cannot write in the workspace or outside it, a
 * workspace-write line writes the workspace but not outside, and Codex's API key is not in a wrapped command's
 * environment. The same script without the hook shows each harm happening. Inside Codex's own sandbox
 * Toolgate's cannot start, and the rewritten line fails closed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { CODEX_REWRITE_VERIFIED } from "../../src/cli/hooks/codex";
import { runCodex } from "./support/codexRun";
import { installedAgent } from "./support/installed";
import { tempFolders } from "./support/tempFolders";

const codex = installedAgent("codex");
const CLI = path.resolve("dist/cli.js");
const KEY = "sk-test-codex-sandbox-0123456789";
const NOOP = "/bin/sh -c 'cat >/dev/null; echo {}'";
const temp = tempFolders();

interface Run {
  readonly ws: string;
  readonly outside: string;
  readonly log: string;
  readonly outputs: string[];
  readonly sentToModel: string;
}

/** One Codex run whose model asks for `commands` one `exec_command` at a time; `hooks`: where ours goes. */
async function run(
  commands: (outside: string) => string[],
  hooks: "none" | "first" | "last",
  codexFlags?: readonly string[],
): Promise<Run> {
  // Not under /tmp: Codex's own sandbox needs its helper links in CODEX_HOME, which it refuses to make there.
  const root = temp("cx-sbx-", codexFlags ? "/var/tmp" : tmpdir());
  const ws = path.join(root, "ws");
  mkdirSync(ws);
  // Outside /tmp, which is private inside the sandbox: a write here meets the read-only root.
  const outside = temp("cx-sbx-out-", "/var/tmp");
  const log = path.join(root, "sandbox-log.jsonl");
  writeFileSync(path.join(ws, "a.txt"), "hello\n");
  spawnSync("git", ["init", "-q", ws]);
  // What `git status` runs without saying so: the analysis allows it read-only, so only the sandbox stops this.
  const monitor = `touch ${outside}/fsmonitor-outside; touch ${ws}/fsmonitor-inside; false`;
  spawnSync("git", ["-C", ws, "config", "core.fsmonitor", monitor]);
  const settings = path.join(root, "toolgate.json");
  writeFileSync(settings, JSON.stringify({ "toolgate.mode": "auto" }));
  const ours = `${process.execPath} ${CLI} hook codex --settings ${settings}`;
  const cmds = commands(outside);
  const r = await runCodex({
    codex,
    root,
    ws,
    apiKey: KEY,
    hooks: hooks === "none" ? [] : hooks === "first" ? [ours, NOOP] : [NOOP, ours],
    turns: () => [...cmds.map((cmd) => ({ tool: "exec_command", args: { cmd, workdir: ws } })), { text: "done" }],
    env: { TOOLGATE_SANDBOX_LOG: log },
    ...(codexFlags ? { codexFlags } : {}),
  });
  expect(r.code, r.stderr.slice(-2000)).toBe(0);
  expect(r.server.unexpected).toEqual([]);
  const requests = r.server.modelRequests();
  return {
    ws,
    outside,
    log,
    outputs: r.server.lastToolOutputs(),
    sentToModel: requests.map((m) => m.body).join("\n"),
  };
}

function logged(r: Run): [string, string][] {
  if (!existsSync(r.log)) return [];
  return readFileSync(r.log, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { grant: { kind: string }; line: string; agent: string })
    .map((e) => [e.line, `${e.agent} ${e.grant.kind}`]);
}

const WRITE_OUTSIDE = (dir: string) => `node -e 'require("fs").writeFileSync("${dir}/node-outside", "x")'`;
const script = (outside: string) => [
  "git status",
  `touch ws-write.txt && ${WRITE_OUTSIDE(outside)}`,
  "printenv OPENAI_API_KEY",
];

describe(`Codex ${codex.version}: allowed commands run inside Toolgate's sandbox`, () => {
  it("the pinned version is the verified one", () => {
    expect(CODEX_REWRITE_VERIFIED.some((v) => codex.version.endsWith(v))).toBe(true);
  });

  it("without the hook, the same script does every harm (so the checks below can fail)", async () => {
    let outside = "";
    const r = await run((o) => script((outside = o)), "none");
    expect(existsSync(path.join(r.ws, "fsmonitor-inside"))).toBe(true);
    expect(existsSync(path.join(r.outside, "fsmonitor-outside"))).toBe(true);
    expect(existsSync(path.join(outside, "node-outside"))).toBe(true);
    expect(r.outputs.join("\n")).toContain(KEY);
    expect(logged(r)).toEqual([]);
  });

  for (const order of ["first", "last"] as const) {
    it(`each command ran rewritten, inside its grant, with a no-op hook ${order === "first" ? "after" : "before"} ours`, async () => {
      let commands: string[] = [];
      const r = await run((o) => (commands = script(o)), order);
      // The sentinel: the --decided-by-hook path ran each line, with the grant the decision carried.
      expect(logged(r)).toEqual([
        ["git status", "codex read-only"],
        [commands[1], "codex workspace-write"],
        ["printenv OPENAI_API_KEY", "codex read-only"],
      ]);
      // read-only: the fsmonitor git started could write neither the workspace nor outside it.
      expect(existsSync(path.join(r.ws, "fsmonitor-inside"))).toBe(false);
      expect(existsSync(path.join(r.outside, "fsmonitor-outside"))).toBe(false);
      // workspace-write: the workspace write happened, the outside one did not.
      expect(existsSync(path.join(r.ws, "ws-write.txt"))).toBe(true);
      expect(existsSync(path.join(r.outside, "node-outside"))).toBe(false);
      expect(r.outputs).toHaveLength(3);
      expect(r.outputs[1]).toMatch(/EROFS|read-only file system/i);
      // The key is in neither the wrapped command's output nor anything else sent to the model.
      expect(r.outputs.join("\n")).not.toContain(KEY);
      expect(r.sentToModel).not.toContain(KEY);
    });
  }

  it("inside Codex's own sandbox, Toolgate's cannot start: the rewritten line runs nothing and says how to fix it", async () => {
    // Seen with 0.171.0: bubblewrap's loopback set-up fails ("Failed to create NETLINK_ROUTE socket: Operation
    // not permitted") under Codex's sandbox, which filters sockets: exit 125, nothing run.
    const r = await run(() => ["touch made.txt"], "first", ["--sandbox", "workspace-write"]);
    expect(logged(r)).toEqual([]);
    expect(existsSync(path.join(r.ws, "made.txt"))).toBe(false);
    expect(r.outputs.join("\n")).toMatch(/exited with code 125[\s\S]*turn Codex's sandbox off/);
  });
});
