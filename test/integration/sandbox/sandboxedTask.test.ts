/**
 * The OS sandbox plugged into the runtime: the scripted model, the real gate, the execute_command handler,
 * the executor and the one command runner, with real bubblewrap. The gate lets each command through without
 * a click (`executeAllCommands`); what stops it is the second layer alone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync } from "node:fs";
import * as nodePath from "node:path";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import type { SandboxAvailability } from "../../../src/core/sandbox/sandboxPlan";
import type { AskResponse, TaskMessage } from "../../../src/shared/messages";
import { probe, varTmpDir } from "./sandboxHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";

let h: Harness | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const c of cleanups.splice(0)) c();
});

const complete = { steps: [{ tool: "attempt_completion", args: { result: "done" } }] };
const UNAVAILABLE: SandboxAvailability = { available: false, mechanism: "none", reason: "bwrap not found (test)" };

/** The flat settings the gate reads and the runner's sandbox source reads, from the same object. */
function settingsWith(sandbox: Record<string, unknown>): Record<string, unknown> {
  return { "toolgate.autoApprove.actions": { executeAllCommands: true }, ...sandbox };
}

async function runCommandTask(
  command: string,
  sandbox: Record<string, unknown>,
  o: { availability?: SandboxAvailability; answer?: (m: TaskMessage) => AskResponse } = {},
): Promise<{ parent: string; result: string; harness: Harness }> {
  const parent = varTmpDir("toolgate-sbtask-");
  cleanups.push(parent.cleanup);
  const flat = settingsWith(sandbox);
  const availability = o.availability;
  const runner = new NodeCommandRunner(process.env, {
    values: () => flat,
    ignoreFileName: () => ".toolgateignore",
    ...(availability ? { availability: () => availability } : {}),
  });
  const workspace = nodePath.join(parent.dir, "ws");
  mkdirSync(workspace);
  h = await startHarness({
    parent: workspace,
    settings: flat,
    env: { runner },
    turns: [{ steps: [{ tool: "execute_command", args: { command } }] }, complete],
    answer: (m) => (m.kind === "completion" ? { kind: "approve" } : (o.answer?.(m) ?? { kind: "reject" })),
  });
  await h.task.run();
  return { parent: parent.dir, result: toolResultsIn(h.model, 1)[0] ?? "", harness: h };
}

const toolAsks = (x: Harness) => x.asks.asks.filter((a) => a.message.kind !== "completion");
const commandMessage = (x: Harness) => x.view.find((m) => m.tool?.name === "execute_command");

sandboxDescribe(probe)("auto-approved commands run inside the OS sandbox (real bubblewrap)", () => {
  it("a write outside the workspace is blocked and the model is told the sandbox did it", async () => {
    // The workspace is PARENT/ws/toolgate-agent-X; `../../outside` is PARENT/outside.
    const r = await runCommandTask("touch ../../outside-file", {});
    expect(existsSync(nodePath.join(r.parent, "outside-file"))).toBe(false);
    expect(r.result).toMatch(/The sandbox blocked a write/);
    // The only ask is the offer of one unsandboxed re-run (declined here).
    expect(toolAsks(r.harness).map((a) => a.message.tool?.decision?.rule)).toEqual(["sandbox:unsandboxed"]);
    expect(commandMessage(r.harness)?.tool?.sandboxed).toBe(true);
  });

  it("with toolgate.sandbox.mode off the same command does write outside", async () => {
    const r = await runCommandTask("touch ../../outside-file", { "toolgate.sandbox.mode": "off" });
    expect(existsSync(nodePath.join(r.parent, "outside-file"))).toBe(true);
    expect(r.result).toMatch(/Exit code: 0/);
    expect(commandMessage(r.harness)?.tool?.sandboxed).toBe(false);
  });

  it("a git directory the command created is removed when the person does not keep it, and listed for the model", async () => {
    // The gate asks before a written `git init`; a script it cannot see into is the miss the sandbox catches.
    const r = await runCommandTask("echo 'git init -q .' > init.sh && sh init.sh && echo made", {});
    expect(existsSync(nodePath.join(r.harness.dir, ".git"))).toBe(false);
    expect(r.result).toMatch(/Exit code: 0/);
    expect(r.result).toMatch(/changed protected paths/);
    expect(r.result).toMatch(/appeared: .*\.git.*removed/);
  });

  it("a malformed sandbox setting fails closed: still sandboxed, and the model hears why", async () => {
    const r = await runCommandTask("touch ../../outside-file", { "toolgate.sandbox.mode": "sometimes" });
    expect(existsSync(nodePath.join(r.parent, "outside-file"))).toBe(false);
    expect(r.result).toMatch(/toolgate\.sandbox\.mode/);
  });
});

describe("no sandbox available", () => {
  it("required: an auto-approved command does not run; the person is asked about an unsandboxed run", async () => {
    const r = await runCommandTask(
      "touch ../../outside-file",
      { "toolgate.sandbox.mode": "required" },
      {
        availability: UNAVAILABLE,
      },
    );
    expect(existsSync(nodePath.join(r.parent, "outside-file"))).toBe(false);
    expect(r.result).toMatch(/did NOT run: there is no OS sandbox here \(bwrap not found \(test\)\)/);
    const asks = toolAsks(r.harness);
    expect(asks).toHaveLength(1);
    expect(asks[0]!.message.tool?.decision?.reason).toMatch(/^runs unsandboxed/);
    expect(asks[0]!.message.tool?.sandboxed).toBe(false);
  });

  it("required: the person's click runs it unsandboxed", async () => {
    const r = await runCommandTask(
      "touch ../../outside-file",
      { "toolgate.sandbox.mode": "required" },
      { availability: UNAVAILABLE, answer: () => ({ kind: "approve" }) },
    );
    expect(existsSync(nodePath.join(r.parent, "outside-file"))).toBe(true);
    expect(r.result).toMatch(/approved running it unsandboxed/);
    expect(commandMessage(r.harness)?.tool?.sandboxed).toBe(false);
  });

  it("a malformed setting is read as required: nothing runs without a click", async () => {
    const r = await runCommandTask(
      "touch ../../outside-file",
      { "toolgate.sandbox.network": 7 },
      {
        availability: UNAVAILABLE,
      },
    );
    expect(existsSync(nodePath.join(r.parent, "outside-file"))).toBe(false);
    expect(r.result).toMatch(/did NOT run/);
  });

  it("auto: the gate alone decides, the command runs unsandboxed", async () => {
    const r = await runCommandTask("touch ../../outside-file", {}, { availability: UNAVAILABLE });
    expect(existsSync(nodePath.join(r.parent, "outside-file"))).toBe(true);
    expect(toolAsks(r.harness)).toHaveLength(0);
  });
});
