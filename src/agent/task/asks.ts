/**
 * The task's own asks (tool approvals are ToolCallRun's): waiting for the person on a message, and the two
 * verdicts the loop needs — accept a completion or reply to it, retry a failure or stop.
 *
 * Invariant: an ask is registered with the AskChannel in the same step that shows the task waiting, before
 * anything is awaited; then the task is saved, so a reload finds the ask pending and waits on it again.
 */
import type { AskResponse } from "../../shared/messages";
import type { FoundProtectedChange } from "../env";
import type { ProtectedChangesVerdict } from "../tools/types";
import { undoProtectedChanges } from "../sandbox/protectedUndo";
import { Cancelled, type TaskCore } from "./taskCore";

/** The ask's text: protected paths, files that run code later, or both. */
function changesQuestion(found: readonly FoundProtectedChange[]): string {
  const top = found.filter((f) => f.view.within === undefined);
  const runs = top.filter((f) => f.view.runsCode === true).length;
  const prot = top.length - runs;
  const parts = [
    ...(prot > 0
      ? [
          `${prot === 1 ? "a protected path" : `${prot} protected paths`} (git hooks and config, .vscode, workflows, the ignore file)`,
        ]
      : []),
    ...(runs > 0
      ? [
          `${runs === 1 ? "a file" : `${runs} files`} that run${runs === 1 ? "s" : ""} code later (package.json scripts, Makefiles, CI and build configuration)`,
        ]
      : []),
  ];
  return `The command changed ${parts.join(" and ")}. Keep or undo?`;
}

/** Waits for the person on a message; a cancel rejects (with Cancelled). */
export async function askPerson(core: TaskCore, messageId: number): Promise<AskResponse> {
  core.setState("waiting");
  // Registered before any await, in the step that showed the ask as pending; then saved.
  const answer = core.deps.ask.ask(messageId, core.signal);
  // A cancel while the save below runs rejects it before it is awaited: handled here, rethrown by the await.
  void answer.catch(() => undefined);
  core.store.flush();
  try {
    await core.persistence?.flush();
    const r = await answer;
    core.throwIfCancelled();
    core.store.patch(messageId, { askState: "answered" });
    return r;
  } catch (e) {
    if (core.signal.aborted) throw new Cancelled();
    throw e;
  } finally {
    if (core.state === "waiting") core.setState("running");
  }
}

/** true = the person replied with feedback and the task goes on; false = accepted, the task ends. */
export async function completionVerdict(core: TaskCore, messageId: number): Promise<boolean> {
  const r = await askPerson(core, messageId);
  if (r.kind === "approve" && !r.text) return false;
  const text = r.text ?? "";
  if (r.kind === "approve" || text.trim() === "") return false;
  core.store.add({ role: "say", kind: "user", text });
  core.pushUser([{ type: "text", text: `The person replied to your result:\n${text}` }]);
  return true;
}

/** true = try again. */
export async function retryVerdict(core: TaskCore, messageId: number): Promise<boolean> {
  const r = await askPerson(core, messageId);
  return r.kind === "approve";
}

/** The message that asks about the completion: the last completion shown, or a new one. */
export function completionMessage(core: TaskCore): number {
  const all = core.store.messages;
  for (let i = all.length - 1; i >= 0; i--) if (all[i]!.kind === "completion") return all[i]!.id;
  return core.store.add({ role: "ask", kind: "completion", text: "" });
}

/**
 * A sandboxed command created or changed protected paths: one ask lists them; the person keeps them or
 * removes them (the default). Only an explicit "approve" keeps: anything else — a rejection, a typed message,
 * headless, cancelling the task — removes, so the answer fails closed and a pending change is never kept by
 * default. The outcome of each undo is recorded on the ask. `existingId`: the ask restored after a reload.
 */
export async function askProtectedChanges(
  core: TaskCore,
  found: readonly FoundProtectedChange[],
  onShown?: (askId: number) => void,
  existingId?: number,
): Promise<ProtectedChangesVerdict> {
  const restored = existingId !== undefined && core.store.get(existingId)?.kind === "protected_changes";
  const id = restored
    ? existingId
    : core.store.add({
        role: "ask",
        kind: "protected_changes",
        text: changesQuestion(found),
        askState: "pending",
        protectedChanges: found.map((f) => f.view),
      });
  if (restored) core.store.patch(id, { askState: "pending" });
  onShown?.(id);
  // A cancel while it waits removes them too (ToolCalls.answerAsCancelled, from the call's saved ask).
  const r = await askPerson(core, id);
  const kept = r.kind === "approve";
  const changes = kept ? found.map((f) => ({ ...f.view, outcome: "kept" as const })) : undoProtectedChanges(found);
  core.store.patch(id, { protectedChanges: changes });
  return { kept, changes, ...(r.text ? { feedback: r.text } : {}) };
}
