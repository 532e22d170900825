/**
 * `toolgate run` (headless) uses the same command runner as the VS Code host, so its auto-approved commands
 * run inside the OS sandbox too: the bundled CLI, a scripted model, real bubblewrap.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildCli } from "../../support/cli";
import { toolResultsIn } from "../../support/agentHarness";
import { startScriptedModel, type ScriptedModel } from "../../support/scriptedModel";
import { toolgateAsync } from "../cli/runProcess";
import { probe, varTmpDir } from "./sandboxHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";

let cli = "";
const open: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  if (probe.available) cli = await buildCli();
});
afterAll(async () => {
  for (const c of open.splice(0)) await c();
});

async function headless(mode: string): Promise<{ outside: string; model: ScriptedModel; status: number | null }> {
  const parent = varTmpDir("toolgate-headless-");
  open.push(parent.cleanup);
  const ws = nodePath.join(parent.dir, "ws");
  mkdirSync(ws);
  const settings = nodePath.join(parent.dir, "settings.json");
  writeFileSync(
    settings,
    JSON.stringify({ "toolgate.autoApprove.actions": { executeAllCommands: true }, "toolgate.sandbox.mode": mode }),
  );
  const model = await startScriptedModel([
    { steps: [{ tool: "execute_command", args: { command: "touch ../outside-file" } }] },
    { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
  ]);
  open.push(() => model.close());
  const r = await toolgateAsync(
    cli,
    ["run", "-p", "touch it", "--workspace", ws, "--settings", settings, "--base-url", model.openAiBaseUrl],
    { env: { TOOLGATE_API_KEY: "sk-test" } },
  );
  return { outside: nodePath.join(parent.dir, "outside-file"), model, status: r.status };
}

sandboxDescribe(probe)("toolgate run: auto-approved commands are sandboxed headless too", () => {
  it("a write outside the workspace is blocked and the model reads that the sandbox did it", async () => {
    const r = await headless("auto");
    expect(existsSync(r.outside)).toBe(false);
    expect(toolResultsIn(r.model, 1).join("\n")).toMatch(/The sandbox blocked a write/);
  });

  it("with toolgate.sandbox.mode off the same run writes outside", async () => {
    const r = await headless("off");
    expect(existsSync(r.outside)).toBe(true);
  });
});

sandboxDescribe(probe)("toolgate run: protected paths a sandboxed command created", () => {
  it("with no one to ask they are removed, the model is told, and stderr says what was removed", async () => {
    const parent = varTmpDir("toolgate-headless-");
    open.push(parent.cleanup);
    const ws = nodePath.join(parent.dir, "ws");
    mkdirSync(ws);
    // Hidden in a script, as a parser miss would be: the gate auto-approves `bash plant.sh`.
    writeFileSync(
      nodePath.join(ws, "plant.sh"),
      "git init -q . && printf '#!/bin/sh\\necho planted\\n' > .git/hooks/pre-commit\n",
    );
    const settings = nodePath.join(parent.dir, "settings.json");
    writeFileSync(settings, JSON.stringify({ "toolgate.autoApprove.actions": { executeAllCommands: true } }));
    const model = await startScriptedModel([
      { steps: [{ tool: "execute_command", args: { command: "bash plant.sh" } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
    ]);
    open.push(() => model.close());
    const r = await toolgateAsync(
      cli,
      ["run", "-p", "plant", "--workspace", ws, "--settings", settings, "--base-url", model.openAiBaseUrl],
      { env: { TOOLGATE_API_KEY: "sk-test" } },
    );
    expect(existsSync(nodePath.join(ws, ".git"))).toBe(false);
    expect(toolResultsIn(model, 1).join("\n")).toMatch(/appeared: .*\.git \(a git directory\) — removed/);
    expect(r.stderr).toMatch(/protected path appeared .*\.git \(a git directory\) — removed/);
    expect(r.status).toBe(0);
  });
});
