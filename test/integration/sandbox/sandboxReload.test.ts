/**
 * The sandbox's own asks survive a window reload, at the seam: the scripted model, the real gate, the one
 * command runner with real bubblewrap, the task's history on disk, and a second task restored from what was
 * saved (a new extension host: fresh channel, provider and runner; the same disk). The protected-change ask
 * ("keep or remove") and the unsandboxed re-run ask come back on the same message, are answered once, and the
 * model reads the outcome. A protected change the person edited after the command is never removed.
 */
import { afterEach, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { mkdtempSync } from "node:fs";
import { TaskHistory } from "../../../src/agent/history/taskHistory";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { NodeFs } from "../../../src/agent/node/nodeFs";
import { JsSearcher } from "../../../src/agent/node/jsSearcher";
import { Task } from "../../../src/agent/task/task";
import type { TaskSnapshot } from "../../../src/agent/task/snapshot";
import type { CommandSandboxSource } from "../../../src/agent/node/commandSandbox";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import type { AskResponse, TaskMessage } from "../../../src/shared/messages";
import {
  makeProvider,
  ScriptedAskChannel,
  startHarness,
  toolResultsIn,
  type Harness,
} from "../../support/agentHarness";
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
/** The plant hides in a script, as a parser miss would: the gate auto-approves `bash plant.sh`. */
const PLANT_FILES = {
  "plant.sh": "git init -q . && printf '#!/bin/sh\\necho planted\\n' > .git/hooks/pre-commit && echo made\n",
};

interface Reloadable {
  readonly harness: Harness;
  readonly workspace: string;
  readonly history: string;
}

/** Starts a task whose asks nobody answers (except the completion), in a workspace outside /tmp. */
async function startUnanswered(
  command: string,
  files: Record<string, string> = {},
  source?: (flat: Record<string, unknown>) => CommandSandboxSource,
  extra: Record<string, unknown> = {},
): Promise<Reloadable> {
  const parent = varTmpDir("toolgate-sbreload-");
  cleanups.push(parent.cleanup);
  const history = mkdtempSync(nodePath.join(tmpdir(), "toolgate-sbreload-history-"));
  cleanups.push(() => rmSync(history, { recursive: true, force: true }));
  const store = new TaskHistory(history, { debounceMs: 10_000 });
  const flat = { "toolgate.autoApprove.actions": { executeAllCommands: true }, ...extra };
  const workspace = nodePath.join(parent.dir, "ws");
  mkdirSync(workspace);
  h = await startHarness({
    parent: workspace,
    settings: flat,
    files,
    env: { runner: runnerFor(flat, source) },
    turns: [{ steps: [{ tool: "execute_command", args: { command } }] }, complete],
    deps: { persistence: (snap) => store.writer(snap) },
  });
  void h.task.run();
  return { harness: h, workspace, history };
}

function runnerFor(
  flat: Record<string, unknown>,
  source?: (flat: Record<string, unknown>) => CommandSandboxSource,
): NodeCommandRunner {
  return new NodeCommandRunner(
    process.env,
    source?.(flat) ?? { values: () => flat, ignoreFileName: () => ".toolgateignore" },
  );
}

/** What a reload finds on disk once the task saved itself waiting on the sandbox ask `step`. */
async function savedWaiting(r: Reloadable, step: string): Promise<TaskSnapshot> {
  for (let i = 0; i < 500; i++) {
    const snap = await new TaskHistory(r.history).load(r.harness.task.id);
    if (snap?.state === "waiting" && snap.pending?.calls[0]?.sandboxAsk?.step === step) return snap;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error(`the task was never saved waiting on its ${step} ask`);
}

/** A new extension host restores the task from the saved snapshot and answers with `answer`. */
function restore(
  r: Reloadable,
  snap: TaskSnapshot,
  answer: (m: TaskMessage) => AskResponse,
  source?: (flat: Record<string, unknown>) => CommandSandboxSource,
  extra: Record<string, unknown> = {},
): { task: Task; asks: ScriptedAskChannel } {
  const flat = { "toolgate.autoApprove.actions": { executeAllCommands: true }, ...extra };
  const asks = new ScriptedAskChannel((m) => (m.kind === "completion" ? { kind: "approve" } : answer(m)));
  const fs = new NodeFs();
  const history2 = new TaskHistory(r.history, { debounceMs: 50 });
  const task = Task.restore(
    {
      provider: makeProvider("openai", r.harness.model),
      config: r.harness.config,
      env: {
        fs,
        runner: runnerFor(flat, source),
        searcher: new JsSearcher(fs),
        ignoreRules: (roots) => IgnoreRules.load(roots, ".toolgateignore"),
      },
      ask: asks,
      persistence: (s) => history2.writer(s),
    },
    snap,
  );
  asks.getMessage = (id) => task.store.get(id);
  return { task, asks };
}

sandboxDescribe(probe)("the protected-change ask after a reload (real bubblewrap)", () => {
  it("comes back on the same message; Remove undoes the recorded change once and the model is told", async () => {
    const r = await startUnanswered("bash plant.sh", PLANT_FILES);
    const first = await r.harness.asks.next();
    expect(first.message.kind).toBe("protected_changes");
    const dotGit = nodePath.join(r.harness.dir, ".git");
    expect(existsSync(nodePath.join(dotGit, "hooks", "pre-commit"))).toBe(true);
    const snap = await savedWaiting(r, "protectedChanges");
    expect(snap.messages.find((m) => m.id === first.messageId)?.askState).toBe("pending");

    const { task, asks } = restore(r, snap, (m) =>
      m.kind === "protected_changes" ? { kind: "reject" } : { kind: "approve" },
    );
    // Shown as it was: the ask is pending and the call is not reported as of unknown outcome.
    expect(task.store.get(first.messageId)?.askState).toBe("pending");
    expect(await task.run()).toBe("completed");
    const asked = asks.asks.filter((a) => a.message.kind !== "completion");
    expect(asked.map((a) => a.messageId)).toEqual([first.messageId]);
    expect(existsSync(dotGit)).toBe(false);
    // Nothing else went: the script and the marker the workspace had stay.
    expect(existsSync(nodePath.join(r.harness.dir, "plant.sh"))).toBe(true);
    const result = toolResultsIn(r.harness.model, 1)[0] ?? "";
    expect(result).toMatch(/Exit code: 0/);
    expect(result).toMatch(/appeared: .*\.git \(a git directory\) — removed/);
    expect(result).toMatch(/chose to REMOVE/);
    expect(result).not.toMatch(/editor was closed/);
    expect(task.store.get(first.messageId)?.protectedChanges?.[0]?.outcome).toBe("removed");
    expect(r.harness.model.requests).toHaveLength(2);
  });

  it("a hook the person edited after the command is kept on Remove, and both the card and the model say so", async () => {
    const r = await startUnanswered("bash plant.sh", PLANT_FILES);
    await r.harness.asks.next();
    const snap = await savedWaiting(r, "protectedChanges");
    const hook = nodePath.join(r.harness.dir, ".git", "hooks", "pre-commit");
    writeFileSync(hook, "#!/bin/sh\necho my own hook\n");
    const { task } = restore(r, snap, (m) =>
      m.kind === "protected_changes" ? { kind: "reject" } : { kind: "approve" },
    );
    expect(await task.run()).toBe("completed");
    expect(readFileSync(hook, "utf8")).toBe("#!/bin/sh\necho my own hook\n");
    const card = task.store.messages.find((m) => m.kind === "protected_changes");
    expect(card?.protectedChanges?.[0]?.outcome).toBe("changedSince");
    const result = toolResultsIn(r.harness.model, 1)[0] ?? "";
    expect(result).toMatch(/\.git \(a git directory\) — NOT undone: it changed after the command/);
  });

  it("until it is answered the agent does not go on: the restored task waits on it", async () => {
    const r = await startUnanswered("bash plant.sh", PLANT_FILES);
    await r.harness.asks.next();
    const snap = await savedWaiting(r, "protectedChanges");
    const { task, asks } = restore(r, snap, () => new Promise<AskResponse>(() => undefined) as never);
    void task.run();
    for (let i = 0; i < 100 && asks.asks.length === 0; i++) await new Promise((res) => setTimeout(res, 10));
    await new Promise((res) => setTimeout(res, 300));
    expect(asks.asks.map((a) => a.message.kind)).toEqual(["protected_changes"]);
    expect(task.currentState).toBe("waiting");
    expect(r.harness.model.requests).toHaveLength(1);
    expect(existsSync(nodePath.join(r.harness.dir, ".git", "hooks", "pre-commit"))).toBe(true);
    task.cancel();
  });
});

sandboxDescribe(probe)("a pending protected-change ask is never kept by default (real bubblewrap)", () => {
  it("cancelling the task while it is pending removes the changes, and the card says so", async () => {
    const r = await startUnanswered("bash plant.sh", PLANT_FILES);
    const first = await r.harness.asks.next();
    const run = r.harness.task.run();
    r.harness.task.cancel();
    expect(await run).toBe("cancelled");
    expect(existsSync(nodePath.join(r.harness.dir, ".git"))).toBe(false);
    const card = r.harness.task.store.get(first.messageId);
    expect(card?.askState).toBe("answered");
    expect(card?.protectedChanges?.[0]?.outcome).toBe("removed");
  });

  it("cancelling a restored task whose ask is pending removes them as well", async () => {
    const r = await startUnanswered("bash plant.sh", PLANT_FILES);
    await r.harness.asks.next();
    const snap = await savedWaiting(r, "protectedChanges");
    const { task } = restore(r, snap, () => new Promise<AskResponse>(() => undefined) as never);
    task.cancel();
    expect(await task.run()).toBe("cancelled");
    expect(existsSync(nodePath.join(r.harness.dir, ".git"))).toBe(false);
    const card = task.store.messages.find((m) => m.kind === "protected_changes");
    expect(card?.askState).toBe("answered");
    expect(card?.protectedChanges?.[0]?.outcome).toBe("removed");
  });
});

sandboxDescribe(probe)("the unsandboxed re-run ask after a reload (real bubblewrap)", () => {
  it("comes back on the call's card; approving runs the command once, unsandboxed", async () => {
    const r = await startUnanswered("echo ran >> ../outside.txt");
    const first = await r.harness.asks.next();
    expect(first.message.tool?.decision?.rule).toBe("sandbox:unsandboxed");
    const outside = nodePath.join(r.workspace, "outside.txt");
    expect(existsSync(outside)).toBe(false);
    const snap = await savedWaiting(r, "rerun");
    const { task, asks } = restore(r, snap, () => ({ kind: "approve" }));
    expect(await task.run()).toBe("completed");
    expect(asks.asks.filter((a) => a.message.kind === "tool").map((a) => a.messageId)).toEqual([first.messageId]);
    expect(readFileSync(outside, "utf8")).toBe("ran\n");
    const result = toolResultsIn(r.harness.model, 1)[0] ?? "";
    expect(result).toMatch(/The sandbox blocked a write/);
    expect(result).toMatch(/approved running it once more, unsandboxed[\s\S]*Exit code: 0/);
    const row = task.store.get(first.messageId)?.tool;
    expect(row?.status).toBe("done");
    expect(row?.sandboxed).toBe(false);
  });

  it("a reload while the approved re-run runs reports an unknown outcome and never runs it again", async () => {
    // Inside the sandbox the write fails at once; the unsandboxed run writes, then keeps running.
    const r = await startUnanswered("echo ran >> ../outside.txt && sleep 5");
    const first = await r.harness.asks.next();
    const outside = nodePath.join(r.workspace, "outside.txt");
    first.resolve({ kind: "approve" });
    let snap: TaskSnapshot | undefined;
    for (let i = 0; i < 300; i++) {
      snap = await new TaskHistory(r.history).load(r.harness.task.id);
      if (existsSync(outside) && snap?.pending?.calls[0]?.sandboxAsk === undefined) break;
      await new Promise((res) => setTimeout(res, 10));
    }
    expect(snap?.pending?.calls[0]?.state).toBe("running");
    expect(snap?.pending?.calls[0]?.sandboxAsk).toBeUndefined();
    r.harness.task.cancel(); // the window closes: the first host's run ends with it
    const { task } = restore(r, snap!, () => ({ kind: "approve" }));
    expect(await task.run()).toBe("completed");
    expect(toolResultsIn(r.harness.model, 1)[0]).toMatch(/not known whether it finished/);
    expect(readFileSync(outside, "utf8")).toBe("ran\n");
  });

  it("the ask after a sandbox that could not start comes back; approving runs it once, unsandboxed", async () => {
    const unavailable = (flat: Record<string, unknown>): CommandSandboxSource => ({
      values: () => flat,
      ignoreFileName: () => ".toolgateignore",
      availability: () => ({ available: false, mechanism: "none", reason: "no bubblewrap (test)" }),
    });
    const required = { "toolgate.sandbox.mode": "required" };
    const r = await startUnanswered("echo ran >> count.txt", {}, unavailable, required);
    const first = await r.harness.asks.next();
    expect(first.message.tool?.decision?.reason).toMatch(/^runs unsandboxed: there is no OS sandbox here/);
    const snap = await savedWaiting(r, "unsandboxedStart");
    const { task } = restore(r, snap, () => ({ kind: "approve" }), unavailable, required);
    expect(await task.run()).toBe("completed");
    expect(readFileSync(nodePath.join(r.harness.dir, "count.txt"), "utf8")).toBe("ran\n");
    expect(toolResultsIn(r.harness.model, 1)[0]).toMatch(/approved running it unsandboxed[\s\S]*Exit code: 0/);
  });
});
