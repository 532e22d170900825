/**
 * The flow around a sandboxed command, at the seam: the scripted model, the real gate (commands auto-approved
 * by `executeAllCommands`), the execute_command handler, the one command runner with real bubblewrap, and the
 * task's ask machinery. After the run, protected paths the command created are the person's to keep or
 * remove; a command the sandbox stopped may be re-run once outside it, only by a click.
 */
import { afterEach, expect, it } from "vitest";
import { existsSync, mkdirSync } from "node:fs";
import * as nodePath from "node:path";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import type { AskResponse, TaskMessage } from "../../../src/shared/messages";
import type { CommandRunner, CommandRunOptions } from "../../../src/agent/env";
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

async function runTask(
  command: string,
  answer: (m: TaskMessage) => AskResponse,
  sandbox: Record<string, unknown> = {},
  files: Record<string, string> = {},
): Promise<{ parent: string; result: string; harness: Harness }> {
  const parent = varTmpDir("toolgate-sbflow-");
  cleanups.push(parent.cleanup);
  const flat = { "toolgate.autoApprove.actions": { executeAllCommands: true }, ...sandbox };
  const runner = new NodeCommandRunner(process.env, { values: () => flat, ignoreFileName: () => ".toolgateignore" });
  const workspace = nodePath.join(parent.dir, "ws");
  mkdirSync(workspace);
  h = await startHarness({
    parent: workspace,
    settings: flat,
    files,
    env: { runner },
    turns: [{ steps: [{ tool: "execute_command", args: { command } }] }, complete],
    answer: (m) => (m.kind === "completion" ? { kind: "approve" } : answer(m)),
  });
  await h.task.run();
  return { parent: workspace, result: toolResultsIn(h.model, 1)[0] ?? "", harness: h };
}

/**
 * The gate sees a redirect into `.git/hooks` and asks (first layer): the plant hides in a script, as a parser
 * miss would, so the command is auto-approved and only the second layer sees what it did.
 */
const PLANT = "bash plant.sh";
const PLANT_FILES = {
  "plant.sh": "git init -q . && printf '#!/bin/sh\\necho planted\\n' > .git/hooks/pre-commit && echo made\n",
};
const asksOf = (x: Harness, kind: TaskMessage["kind"]) => x.asks.asks.filter((a) => a.message.kind === kind);
/** The person's answers by ask: keep or remove protected changes; the card's approve / reject otherwise. */
const answers =
  (protectedChanges: "keep" | "remove", other: AskResponse["kind"] = "reject") =>
  (m: TaskMessage): AskResponse =>
    m.kind === "protected_changes" ? { kind: protectedChanges === "keep" ? "approve" : "reject" } : { kind: other };

sandboxDescribe(probe)("protected paths a sandboxed command created (real bubblewrap)", () => {
  it("become one ask listing each change with a preview of the planted hook; Remove undoes them", async () => {
    const r = await runTask(PLANT, answers("remove"), {}, PLANT_FILES);
    expect(asksOf(r.harness, "tool")).toHaveLength(0); // auto-approved: the gate did not ask
    const asks = asksOf(r.harness, "protected_changes");
    expect(asks).toHaveLength(1);
    const listed = asks[0]!.message.protectedChanges ?? [];
    const dotGit = nodePath.join(r.harness.dir, ".git");
    expect(listed[0]).toMatchObject({ path: dotGit, kind: "appeared", what: "a git directory" });
    const hook = listed.find((c) => c.path === nodePath.join(dotGit, "hooks", "pre-commit"));
    expect(hook).toMatchObject({ within: dotGit, what: "a git hook" });
    expect(hook?.preview).toContain("echo planted");
    // Removed: the person's tree has no .git; the model reads that the person removed it.
    expect(existsSync(dotGit)).toBe(false);
    expect(r.result).toMatch(/Exit code: 0/);
    expect(r.result).toMatch(/appeared: .*\.git \(a git directory\) — removed/);
    expect(r.result).toMatch(/chose to REMOVE/);
    const final = r.harness.view.find((m) => m.kind === "protected_changes");
    expect(final?.askState).toBe("answered");
    expect(final?.protectedChanges?.[0]?.outcome).toBe("removed");
  });

  it("Keep leaves them in place and the model reads that the person kept them", async () => {
    const r = await runTask(PLANT, answers("keep"), {}, PLANT_FILES);
    expect(asksOf(r.harness, "protected_changes")).toHaveLength(1);
    expect(existsSync(nodePath.join(r.harness.dir, ".git", "hooks", "pre-commit"))).toBe(true);
    expect(r.result).toMatch(/chose to KEEP/);
    expect(r.result).toMatch(/\.git \(a git directory\) — kept/);
  });

  it("a typed reply instead of a choice removes (only an explicit Keep keeps)", async () => {
    const r = await runTask(
      PLANT,
      (m) => (m.kind === "protected_changes" ? { kind: "message", text: "hm?" } : { kind: "reject" }),
      {},
      PLANT_FILES,
    );
    expect(existsSync(nodePath.join(r.harness.dir, ".git"))).toBe(false);
    expect(r.result).toMatch(/chose to REMOVE.*Their feedback: hm\?/s);
  });

  it("a command that leaves protected paths alone asks nothing", async () => {
    const r = await runTask("echo hello > notes.txt", answers("keep"));
    expect(asksOf(r.harness, "protected_changes")).toHaveLength(0);
    expect(r.harness.exists("notes.txt")).toBe(true);
  });
});

sandboxDescribe(probe)("a command the sandbox stopped: one unsandboxed re-run (real bubblewrap)", () => {
  it("the person approves: it runs once outside the sandbox and the result says so", async () => {
    const r = await runTask("touch ../outside.txt", answers("remove", "approve"));
    const asks = r.harness.asks.asks.filter((a) => a.message.kind === "tool");
    expect(asks).toHaveLength(1);
    const card = asks[0]!.message.tool!;
    expect(card.decision?.reason).toMatch(/unsandboxed/);
    expect(card.decision?.rule).toBe("sandbox:unsandboxed");
    // Without the sandbox it reaches outside the workspace: a risk the card names, so Approve is not primary.
    expect(card.decision?.danger).toEqual(["outside"]);
    expect(card.sandboxOutlook).toMatchObject({ sandboxed: false });
    expect(existsSync(nodePath.join(r.parent, "outside.txt"))).toBe(true);
    expect(r.result).toMatch(/The sandbox blocked a write/);
    expect(r.result).toMatch(/approved running it once more, unsandboxed[\s\S]*Exit code: 0/);
    const row = r.harness.view.find((m) => m.tool?.name === "execute_command");
    expect(row?.tool?.sandboxed).toBe(false);
    expect(row?.tool?.status).toBe("done");
  });

  it("the person rejects: the file does not exist and the sandbox's failure stands", async () => {
    const r = await runTask("touch ../outside.txt", answers("remove", "reject"));
    expect(r.harness.asks.asks.filter((a) => a.message.kind === "tool")).toHaveLength(1);
    expect(existsSync(nodePath.join(r.parent, "outside.txt"))).toBe(false);
    expect(r.result).toMatch(/The sandbox blocked a write/);
    expect(r.result).toMatch(/did not approve running it again outside the sandbox/);
    const row = r.harness.view.find((m) => m.tool?.name === "execute_command");
    expect(row?.tool?.sandboxed).toBe(true);
    expect(row?.tool?.status).toBe("error");
    expect(row?.tool?.result).toMatch(/stopped by the OS sandbox \(read-only file system\)/);
    // While the re-run was asked about, the row already said the sandbox stopped the first run.
    expect(r.harness.asks.asks.find((a) => a.message.kind === "tool")?.message.tool?.result).toMatch(
      /stopped by the OS sandbox/,
    );
  });

  it("auto mode does not approve the re-run: it still asks", async () => {
    const r = await runTask("touch ../outside.txt", answers("remove", "reject"), { "toolgate.mode": "auto" });
    expect(r.harness.asks.asks.filter((a) => a.message.kind === "tool")).toHaveLength(1);
    expect(existsSync(nodePath.join(r.parent, "outside.txt"))).toBe(false);
  });

  it("an ordinary failure offers no re-run", async () => {
    const r = await runTask("ls does-not-exist", answers("remove", "approve"));
    expect(r.harness.asks.asks.filter((a) => a.message.kind === "tool")).toHaveLength(0);
    expect(r.result).toMatch(/Exit code: 2/);
  });
});

sandboxDescribe(probe)("the approval card says how a command will run, before the click", () => {
  it("a command the gate asks about: runs in the OS sandbox, no network", async () => {
    const flat = {};
    const runner = new NodeCommandRunner(process.env, { values: () => flat, ignoreFileName: () => ".toolgateignore" });
    h = await startHarness({
      settings: flat,
      env: { runner },
      turns: [{ steps: [{ tool: "execute_command", args: { command: "touch made.txt" } }] }, complete],
      answer: (m) => (m.kind === "completion" ? { kind: "approve" } : { kind: "reject" }),
    });
    await h.task.run();
    const card = h.asks.asks.find((a) => a.message.kind === "tool")?.message.tool;
    expect(card?.decision?.rule).not.toBe("sandbox:unsandboxed");
    expect(card?.sandboxOutlook).toEqual({
      sandboxed: true,
      network: "off",
      grant: "workspace-write",
      hosts: [],
      canRunOutside: true,
    });
  });

  it("with toolgate.sandbox.mode off: runs unsandboxed, and why", async () => {
    const flat = { "toolgate.sandbox.mode": "off" };
    const runner = new NodeCommandRunner(process.env, { values: () => flat, ignoreFileName: () => ".toolgateignore" });
    h = await startHarness({
      settings: flat,
      env: { runner },
      turns: [{ steps: [{ tool: "execute_command", args: { command: "touch made.txt" } }] }, complete],
      answer: (m) => (m.kind === "completion" ? { kind: "approve" } : { kind: "reject" }),
    });
    await h.task.run();
    const card = h.asks.asks.find((a) => a.message.kind === "tool")?.message.tool;
    expect(card?.sandboxOutlook).toEqual({ sandboxed: false, reason: "toolgate.sandbox.mode is off" });
  });
});

sandboxDescribe(probe)("Run outside the sandbox: a separate click, never in plan mode", () => {
  /** The real runner, recording how each command was asked to run. */
  function spyRunner(flat: Record<string, unknown>) {
    const inner = new NodeCommandRunner(process.env, { values: () => flat, ignoreFileName: () => ".toolgateignore" });
    const runs: CommandRunOptions[] = [];
    const runner: CommandRunner = {
      run: (o) => {
        runs.push(o);
        return inner.run(o);
      },
      sandboxOutlook: (autoApproved, grant) => inner.sandboxOutlook(autoApproved, grant),
    };
    return { runner, runs };
  }

  async function clicked(
    command: string,
    kind: AskResponse["kind"],
    flat: Record<string, unknown> = {},
    more: Record<string, unknown> = {},
  ) {
    const parent = varTmpDir("toolgate-outside-");
    cleanups.push(parent.cleanup);
    const workspace = nodePath.join(parent.dir, "ws");
    mkdirSync(workspace);
    const spy = spyRunner(flat);
    h = await startHarness({
      parent: workspace,
      settings: flat,
      env: { runner: spy.runner },
      turns: [{ steps: [{ tool: "execute_command", args: { command, ...more } }] }, complete],
      answer: (m) =>
        m.kind === "completion" ? { kind: "approve" } : m.kind === "tool" ? { kind } : { kind: "reject" },
    });
    await h.task.run();
    const card = h.asks.asks.find((a) => a.message.kind === "tool")?.message.tool;
    const tools = h.task.store.messages.filter((m) => m.tool).map((m) => [m.tool?.decision, m.text]);
    return { workspace, card, runs: spy.runs, tools };
  }

  it("Approve runs the clicked command inside its grant; the outside write does not happen", async () => {
    const r = await clicked("touch ../outside.txt", "approve");
    expect(r.card?.sandboxOutlook?.canRunOutside).toBe(true);
    expect(r.runs.map((o) => o.unsandboxed === true)).toEqual([false]);
    expect(existsSync(nodePath.join(r.workspace, "outside.txt"))).toBe(false);
  });

  it("Run outside the sandbox runs that one command unsandboxed, as the person chose", async () => {
    const r = await clicked("touch ../outside.txt", "approveOutsideSandbox");
    expect(r.runs.map((o) => o.unsandboxed === true)).toEqual([true]);
    expect(existsSync(nodePath.join(r.workspace, "outside.txt"))).toBe(true);
  });

  it("plan mode never offers it, and the answer still runs inside the read-only grant", async () => {
    // A read-only line the model asks approval for: in plan mode, one of the few ways a command asks at all.
    const r = await clicked("ls", "approveOutsideSandbox", { "toolgate.mode": "plan" }, { requires_approval: true });
    expect(r.card?.decision, JSON.stringify(r.tools)).toMatchObject({ decision: "ask" });
    expect(r.card?.sandboxOutlook?.sandboxed).toBe(true);
    expect(r.card?.sandboxOutlook?.grant).toBe("read-only");
    expect(r.card?.sandboxOutlook?.canRunOutside).toBeUndefined();
    expect(r.runs).toHaveLength(1);
    expect(r.runs[0]!.unsandboxed).not.toBe(true);
    expect(r.runs[0]!.grant?.kind).toBe("read-only");
  });
});
