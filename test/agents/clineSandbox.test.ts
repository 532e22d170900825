/**
 * The sandbox rewrite against the real Cline (the pinned version), with a second hook file that answers
 * `{"cancel": false}` in the other hooks folder: the rewritten command really ran (the `--decided-by-hook`
 * path's sentinel log names each command and its grant), and ran inside the sandbox — a repository's
 * `core.fsmonitor` that `git status` starts (allowed read-only) cannot write in the workspace or outside it, a
 * workspace-write line writes the workspace but not outside, and Cline's API key is not in a wrapped command's
 * environment. The same script without the hook shows each harm happening.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { CLINE_REWRITE_VERIFIED } from "../../src/cli/hooks/cline";
import { runCline } from "./support/clineRun";
import { installedAgent } from "./support/installed";
import { tempFolders } from "./support/tempFolders";

const cline = installedAgent("cline");
const CLI = path.resolve("dist/cli.js");
const KEY = "sk-test-cline-sandbox-0123456789";
const NOOP = `#!/bin/sh\ncat >/dev/null\necho '{"cancel": false}'\n`;
const temp = tempFolders();

interface Run {
  readonly ws: string;
  readonly outside: string;
  readonly log: string;
  readonly finish: string | undefined;
  readonly sentToModel: string;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** One Cline task whose model asks for each command in its own `run_commands` call; `ours`: where our hook is. */
async function run(
  commands: (outside: string) => string[],
  ours: "none" | "workspace" | "global",
  oneCall = false,
): Promise<Run> {
  const root = temp("cl-sbx-");
  const ws = path.join(root, "ws");
  mkdirSync(ws);
  // Outside /tmp, which is private inside the sandbox: a write here meets the read-only root.
  const outside = temp("cl-sbx-out-", "/var/tmp");
  const log = path.join(root, "sandbox-log.jsonl");
  writeFileSync(path.join(ws, "a.txt"), "hello\n");
  spawnSync("git", ["init", "-q", ws]);
  // What `git status` runs without saying so: the analysis allows it read-only, so only the sandbox stops this.
  // Cline runs git itself in the workspace before the task (outside any hook): the monitor is armed only once
  // the model is first asked, so only the task's own commands can set it off.
  const armed = path.join(root, "armed");
  const monitor = `test -e ${armed} || exit 1; touch ${outside}/fsmonitor-outside; touch ${ws}/fsmonitor-inside; false`;
  spawnSync("git", ["-C", ws, "config", "core.fsmonitor", monitor]);
  const settings = path.join(root, "toolgate.json");
  writeFileSync(settings, JSON.stringify({ "toolgate.mode": "auto" }));
  const hook = `#!/bin/sh\nexec ${q(process.execPath)} ${q(CLI)} hook cline --settings ${q(settings)}\n`;
  const cmds = commands(outside);
  const r = await runCline({
    cline,
    root,
    ws,
    apiKey: KEY,
    hooks:
      ours === "none"
        ? {}
        : ours === "workspace"
          ? { workspace: hook, global: NOOP }
          : { global: hook, workspace: NOOP },
    turns: () => [
      ...(oneCall
        ? [{ tool: "run_commands", args: { commands: cmds } }]
        : cmds.map((c) => ({ tool: "run_commands", args: { commands: [c] } }))),
      { text: "done" },
    ],
    env: { TOOLGATE_SANDBOX_LOG: log },
    routes: [
      (req) => {
        if (req.method === "POST" && req.url.includes("/chat/completions")) writeFileSync(armed, "");
        return false;
      },
    ],
  });
  expect(r.server.unexpected).toEqual([]);
  return {
    ws,
    outside,
    log,
    finish: r.finish,
    sentToModel: r.server
      .modelRequests()
      .map((m) => m.body)
      .join("\n"),
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

describe(`Cline ${cline.version}: an allowed command runs inside Toolgate's sandbox`, () => {
  it("the pinned version is the verified one", () => {
    expect(CLINE_REWRITE_VERIFIED).toContain(cline.version);
  });

  it("without the hook, the same script does every harm (so the checks below can fail)", async () => {
    let outside = "";
    const r = await run((o) => script((outside = o)), "none");
    expect(r.finish).toBe("completed");
    expect(existsSync(path.join(r.ws, "fsmonitor-inside"))).toBe(true);
    expect(existsSync(path.join(r.outside, "fsmonitor-outside"))).toBe(true);
    expect(existsSync(path.join(outside, "node-outside"))).toBe(true);
    expect(r.sentToModel).toContain(KEY);
    expect(logged(r)).toEqual([]);
  });

  for (const ours of ["workspace", "global"] as const) {
    it(`each command ran rewritten, inside its grant (our hook in the ${ours} folder, a no-op in the other)`, async () => {
      let commands: string[] = [];
      const r = await run((o) => (commands = script(o)), ours);
      expect(r.finish).toBe("completed");
      // The sentinel: the --decided-by-hook path ran each line, with the grant the decision carried.
      expect(logged(r)).toEqual([
        ["git status", "cline read-only"],
        [commands[1], "cline workspace-write"],
        ["printenv OPENAI_API_KEY", "cline read-only"],
      ]);
      expect(existsSync(path.join(r.ws, "fsmonitor-inside"))).toBe(false);
      expect(existsSync(path.join(r.outside, "fsmonitor-outside"))).toBe(false);
      expect(existsSync(path.join(r.ws, "ws-write.txt"))).toBe(true);
      expect(existsSync(path.join(r.outside, "node-outside"))).toBe(false);
      expect(r.sentToModel).toMatch(/EROFS|read-only file system/i);
      expect(r.sentToModel).not.toContain(KEY);
    });
  }

  it("the same commands in one run_commands call: each rewritten on its own", async () => {
    let commands: string[] = [];
    const r = await run((o) => (commands = script(o)), "workspace", true);
    expect(r.finish).toBe("completed");
    // Sorted: the log's order is the order the commands finished in.
    expect(logged(r).sort()).toEqual(
      [
        ["git status", "cline read-only"],
        [commands[1], "cline workspace-write"],
        ["printenv OPENAI_API_KEY", "cline read-only"],
      ].sort(),
    );
    expect(existsSync(path.join(r.ws, "fsmonitor-inside"))).toBe(false);
    expect(existsSync(path.join(r.outside, "fsmonitor-outside"))).toBe(false);
    expect(existsSync(path.join(r.ws, "ws-write.txt"))).toBe(true);
    expect(existsSync(path.join(r.outside, "node-outside"))).toBe(false);
    expect(r.sentToModel).not.toContain(KEY);
  });
});
