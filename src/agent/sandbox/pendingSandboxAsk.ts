/**
 * The ask a sandboxed command call waits on after it ran (or could not start), as plain data saved on the
 * task's pending call: a window reload restores it and asks the same question again, and the answer is
 * applied once. Invariant: the state is recorded before the ask is registered (the ask's save carries it);
 * an approved unsandboxed run clears it and saves before it starts, so a reload during that run reports an
 * unknown outcome instead of running it twice; an answer that was applied is saved as `settled`.
 */
import type { CommandTarget } from "../../core/resolvedCall";
import type { CommandSandboxReport, FoundProtectedChange } from "../env";

/** A command's result as saved: what the model reads and what the row shows. */
export interface SavedCommandResult {
  readonly content: string;
  readonly isError?: boolean;
  readonly display?: string;
  readonly sandboxed?: boolean;
}

export type BlockedCause = NonNullable<CommandSandboxReport["blockedCause"]>;

/** After the protected changes are settled: offer one unsandboxed re-run (the sandbox stopped the command). */
export interface RerunOffer {
  readonly offerRerun: boolean;
  readonly cause?: BlockedCause;
}

export type PendingSandboxAsk =
  /** The sandbox could not start: the command did not run; may it run once unsandboxed? */
  | { readonly step: "unsandboxedStart"; readonly target: CommandTarget; readonly reason: string }
  /** The command ran sandboxed and changed protected paths: keep or remove (message `askId`)? */
  | ({
      readonly step: "protectedChanges";
      readonly target: CommandTarget;
      readonly askId?: number;
      readonly found: readonly FoundProtectedChange[];
      readonly result: SavedCommandResult;
    } & RerunOffer)
  /** The sandbox stopped the command: may it run once more, unsandboxed? */
  | {
      readonly step: "rerun";
      readonly target: CommandTarget;
      readonly result: SavedCommandResult;
      readonly cause?: BlockedCause;
    }
  /** Answered and applied: the call's result. */
  | { readonly step: "settled"; readonly result: SavedCommandResult };

export function savedResult(r: SavedCommandResult): SavedCommandResult {
  return {
    content: r.content,
    ...(r.isError !== undefined ? { isError: r.isError } : {}),
    ...(r.display !== undefined ? { display: r.display } : {}),
    ...(r.sandboxed !== undefined ? { sandboxed: r.sandboxed } : {}),
  };
}
