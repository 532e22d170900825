/**
 * The checkpoint around one tool call, as the tool execution path uses it: which calls may change files,
 * `before` awaited ahead of the handler, `after` once it returned or threw, and what the row shows.
 */
import type { RowCheckpoint } from "../../shared/messages";
import type { CheckpointService, StepCall } from "./types";

/** Tools that never change files in the workspace: no checkpoint is taken for them. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  "read_file",
  "list_files",
  "search_files",
  "access_mcp_resource",
  "web_fetch",
  "ask_followup_question",
  "new_task",
]);

export interface CallFacts {
  /** The command analysis judged every part of the command read-only (execute_command, attempt_completion). */
  readonly commandReadOnly?: boolean;
  /** attempt_completion carries a command. */
  readonly hasCommand?: boolean;
  /** The MCP tool is annotated `readOnlyHint: true`. */
  readonly mcpReadOnly?: boolean;
}

/**
 * Whether a call may change files. When unsure it says yes: an unneeded checkpoint costs a few hundred
 * milliseconds, a missing one costs the way back.
 */
export function mayChangeFiles(tool: string, facts: CallFacts = {}): boolean {
  if (READ_ONLY_TOOLS.has(tool)) return false;
  if (tool === "execute_command") return facts.commandReadOnly !== true;
  if (tool === "attempt_completion") return facts.hasCommand === true && facts.commandReadOnly !== true;
  if (tool === "use_mcp_tool") return facts.mcpReadOnly !== true;
  return true;
}

/** What a tool row carries (the `checkpoint` field of the row's tool info). */
export type { RowCheckpoint };

/**
 * Runs `run` (the handler) with a checkpoint before it. `onRow` is told what the row shows: once `before`
 * returned, and again with the changed-file count once `after` returned (which happens in the background:
 * the result is not held back for it).
 */
export async function withCheckpoint<T>(
  service: CheckpointService | undefined,
  step: StepCall,
  run: () => Promise<T>,
  onRow?: (c: RowCheckpoint) => void,
  /**
   * For a call allowed only on the condition of a checkpoint (the gate's sandboxed tier): called when none was
   * recorded, with why; it returns the result to give instead of running, or undefined to run after all (the
   * person approved). Without it, a missing checkpoint is shown on the row and the call runs.
   */
  required?: (reason: string) => Promise<T | undefined>,
): Promise<T> {
  const missing = async (reason: string): Promise<T> => {
    const instead = await required?.(reason);
    return instead !== undefined ? instead : run();
  };
  if (!service) return required ? missing("checkpoints are not available here") : run();
  if (!step.mayChange && !required) return run();
  let b: Awaited<ReturnType<CheckpointService["before"]>>;
  try {
    b = await service.before({ ...step, mayChange: true });
  } catch (e) {
    if (!required) throw e;
    b = { recorded: false, reason: `the checkpoint failed: ${(e as Error).message}` };
  }
  if (!b.recorded) {
    onRow?.({ state: "unavailable", reason: b.reason });
    return missing(b.reason);
  }
  const row = { state: "recorded" as const, stepId: b.stepId, seq: b.seq, skipped: b.skipped };
  onRow?.(row);
  try {
    return await run();
  } finally {
    void service.after({ taskId: step.taskId, stepId: step.stepId }).then((a) => {
      if (a.recorded) onRow?.({ ...row, changedFiles: a.changedFiles });
    });
  }
}
