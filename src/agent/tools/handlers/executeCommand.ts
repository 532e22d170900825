import type { CommandTarget } from "../../../core/resolvedCall";
import { WORKSPACE_WRITE_GRANT, withApprovedReads, type SandboxGrant } from "../../../core/sandbox/grant";
import type { CommandSandboxReport } from "../../env";
import { savedResult, type PendingSandboxAsk, type RerunOffer } from "../../sandbox/pendingSandboxAsk";
import { undoProtectedChanges } from "../../sandbox/protectedUndo";
import {
  errorResult,
  type ProtectedChangesVerdict,
  type ToolContext,
  type ToolResult,
  type ToolHandler,
} from "../types";

/**
 * Runs the decided command line — in bash, in the decided working directory — never anything else. Output
 * streams into a `command_output` message (append deltas); the model gets the capped output and the exit
 * status. Cancelling the task kills the process group. What the sandbox leaves to the person (run it
 * unsandboxed, keep or remove protected changes, one re-run) is asked in steps saved with the task
 * (`PendingSandboxAsk`), so a reload resumes the step it was on (`resumeCommand`).
 */
export async function runCommand(target: CommandTarget, ctx: ToolContext): Promise<ToolResult> {
  // "Run outside the sandbox" is the person's own click on this call's card, and so is approving the model's
  // request to leave it (`sandbox: false`, which the gate only ever asks about); nothing else leaves it here.
  const leave = target.leaveSandbox !== undefined && ctx.approvedByPerson === true;
  const first = await runOnce(target, ctx, ctx.outsideSandbox === true || leave);
  const sandbox = first.sandbox;
  const notRun = sandbox?.notRun;
  // The sandbox could not confine it: only a click runs it outside, through a normal ask saying so.
  if (notRun !== undefined) return askUnsandboxedStart({ step: "unsandboxedStart", target, reason: notRun }, ctx);
  const offer: RerunOffer =
    sandbox?.sandboxed === true && sandbox.blocked !== undefined && ctx.approvedByPerson !== true
      ? { offerRerun: true, ...(sandbox.blockedCause ? { cause: sandbox.blockedCause } : {}) }
      : { offerRerun: false };
  // What the command left in protected paths is settled with the person before anything else happens.
  if (sandbox?.protectedChanges)
    return settleProtectedChanges(
      {
        step: "protectedChanges",
        target,
        found: sandbox.protectedChanges,
        result: savedResult(first.result),
        ...offer,
      },
      ctx,
    );
  if (offer.offerRerun)
    return offerUnsandboxedRerun(
      { step: "rerun", target, result: savedResult(first.result), ...(offer.cause ? { cause: offer.cause } : {}) },
      ctx,
    );
  return first.result;
}

/** Goes on from the sandbox ask a command call was waiting on when the task was saved. */
export function resumeCommand(state: PendingSandboxAsk, ctx: ToolContext): Promise<ToolResult> {
  switch (state.step) {
    case "settled":
      return Promise.resolve(state.result);
    case "unsandboxedStart":
      return askUnsandboxedStart(state, ctx);
    case "protectedChanges":
      return settleProtectedChanges(state, ctx);
    case "rerun":
      return offerUnsandboxedRerun(state, ctx);
  }
}

/** The answer was applied: saved as the call's result, so a reload neither asks again nor loses it. */
async function settled(result: ToolResult, ctx: ToolContext): Promise<ToolResult> {
  ctx.setSandboxAsk?.({ step: "settled", result: savedResult(result) });
  await ctx.saveTask?.();
  return result;
}

/** Approved: the ask is cleared and saved before the unsandboxed run starts (a reload then never repeats it). */
async function beforeUnsandboxedRun(ctx: ToolContext): Promise<void> {
  ctx.setSandboxAsk?.(undefined);
  await ctx.saveTask?.();
}

async function askUnsandboxedStart(
  state: Extract<PendingSandboxAsk, { step: "unsandboxedStart" }>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const didNotRun = `The command did NOT run: ${state.reason}. It needs the person's approval to run unsandboxed.`;
  ctx.setSandboxAsk?.(state);
  const answer = await ctx.askUnsandboxed?.(`runs unsandboxed: ${state.reason}`);
  if (!answer?.approved) {
    const said = answer?.feedback ? ` Their feedback: ${answer.feedback}` : "";
    const who = answer ? " The person did not approve the unsandboxed run." : "";
    return settled(
      { content: `${didNotRun}${who}${said}`, isError: true, display: "not run (no sandbox)", sandboxed: false },
      ctx,
    );
  }
  await beforeUnsandboxedRun(ctx);
  const second = await runOnce(state.target, ctx, true);
  return { ...second.result, content: `The person approved running it unsandboxed.\n${second.result.content}` };
}

const STOPPED_BY = {
  "read-only": "stopped by the OS sandbox (read-only file system)",
  hidden: "stopped by the OS sandbox (hidden file)",
  network: "stopped by the OS sandbox (no network)",
} as const;

const BLOCKED_WHAT = {
  "read-only": "it tried to write where the sandbox is read-only (outside the workspace, or a protected path)",
  hidden: "it tried to read a file the sandbox hides",
  network: "it needed the network, which the sandbox does not give",
} as const;

/**
 * An auto-approved command failed because of the sandbox: the person may approve ONE run outside it, on this
 * call's own card, labelled "unsandboxed". The gate is not consulted (no mode auto-approves this); headless
 * nobody approves. Rejected: the sandbox's failure stands as the result.
 */
async function offerUnsandboxedRerun(
  state: Extract<PendingSandboxAsk, { step: "rerun" }>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const sandboxed = state.result;
  const why = state.cause ? BLOCKED_WHAT[state.cause] : "the OS sandbox blocked it";
  ctx.setSandboxAsk?.(state);
  // Without the sandbox the command reaches what it stopped: a hidden file, or outside the workspace and the network.
  const answer = await ctx.askUnsandboxed?.(
    `re-run once, unsandboxed: the OS sandbox stopped this command — ${why}`,
    sandboxed.display ?? sandboxed.content,
    state.cause === "hidden" ? ["protected"] : ["outside"],
  );
  if (!answer?.approved) {
    const said = answer?.feedback ? ` Their feedback: ${answer.feedback}` : "";
    const who = answer
      ? "The person did not approve running it again outside the sandbox; the sandbox's failure above stands."
      : "Nobody could approve running it outside the sandbox; the sandbox's failure above stands.";
    return settled({ ...sandboxed, content: `${sandboxed.content}\n${who}${said}`, sandboxed: true }, ctx);
  }
  await beforeUnsandboxedRun(ctx);
  const again = await runOnce(state.target, ctx, true);
  const said = answer.feedback ? `\nThe person said when approving: ${answer.feedback}` : "";
  return {
    ...again.result,
    content: `${sandboxed.content}\n\nThe person approved running it once more, unsandboxed. That run:\n${again.result.content}${said}`,
    display: `${again.result.display ?? ""} (unsandboxed re-run)`.trim(),
    sandboxed: false,
  };
}

/**
 * The person decides (remove is the default; nobody to ask: removed). The verdict is applied once and saved
 * with the result; then, if the sandbox also stopped the command, the re-run is offered.
 */
async function settleProtectedChanges(
  state: Extract<PendingSandboxAsk, { step: "protectedChanges" }>,
  ctx: ToolContext,
): Promise<ToolResult> {
  let verdict: ProtectedChangesVerdict;
  if (ctx.askProtectedChanges) {
    verdict = await ctx.askProtectedChanges(
      state.found,
      (askId) => ctx.setSandboxAsk?.({ ...state, askId }),
      state.askId,
    );
  } else verdict = { kept: false, changes: undoProtectedChanges(state.found) };
  const result = { ...state.result, content: `${state.result.content}\n${protectedChangesText(verdict)}` };
  if (!state.offerRerun) return settled(result, ctx);
  const next = { step: "rerun", target: state.target, result, ...(state.cause ? { cause: state.cause } : {}) } as const;
  ctx.setSandboxAsk?.(next);
  await ctx.saveTask?.();
  return offerUnsandboxedRerun(next, ctx);
}

const OUTCOME_WORD = {
  removed: "removed",
  restored: "restored",
  kept: "kept",
  failed: "could NOT be undone",
  changedSince: "NOT undone: it changed after the command (the person's edit is kept)",
} as const;

export function protectedChangesText(v: ProtectedChangesVerdict): string {
  const lines = v.changes.map((c) => {
    const head = c.within !== undefined ? `  - inside it: ${c.path}` : `- ${c.kind}: ${c.path}`;
    return `${head} (${c.what})${c.outcome ? ` — ${OUTCOME_WORD[c.outcome]}` : ""}`;
  });
  const choice = v.kept
    ? "The person chose to KEEP these changes."
    : v.cancelled === true
      ? "The task was cancelled before the person chose: these changes were REMOVED (undone as listed)."
      : "The person chose to REMOVE these changes (undone as listed).";
  const said = v.feedback ? ` Their feedback: ${v.feedback}` : "";
  const runs = v.changes.some((c) => c.runsCode === true);
  const prot = v.changes.some((c) => c.runsCode !== true);
  const what = [
    ...(prot ? ["protected paths (git hooks and config, .vscode, workflows, the ignore file)"] : []),
    ...(runs ? ["files that run code later (package.json scripts, Makefiles, CI and build configuration)"] : []),
  ].join(" and ");
  return `The command changed ${what}:\n${lines.join("\n")}\n${choice}${said}`;
}

/** The model is told which `/tmp` a command saw (file tools and unsandboxed runs see the host's). */
const TMP_NOTE = (task: boolean): string =>
  task
    ? "Note: this command ran in the OS sandbox; its /tmp is private to this task (kept for the task's later sandboxed commands, gone when the task ends or the window reloads) and is not the host's /tmp that file tools and unsandboxed commands see."
    : "Note: this command ran in the OS sandbox; its /tmp was private to this one command and is gone now.";

/**
 * The key of a task tree's private `/tmp`: the first task of the tree to run a command names it, so sub-tasks
 * sharing their parent's tree share their parent's `/tmp`.
 */
const treeKeys = new WeakMap<object, string>();
function taskKeyOf(ctx: ToolContext): string {
  const tree = ctx.config.tree;
  let key = treeKeys.get(tree);
  if (key === undefined) {
    key = ctx.config.taskId;
    treeKeys.set(tree, key);
  }
  return key;
}

/** The grant a run uses: the decision's, plus the card's outside reads when the person approved it by a click. */
function grantFor(target: CommandTarget, ctx: ToolContext): { grant?: SandboxGrant } {
  if (ctx.approvedByPerson !== true || !target.outsideReads?.length) return target.grant ? { grant: target.grant } : {};
  return { grant: withApprovedReads(target.grant ?? WORKSPACE_WRITE_GRANT, target.outsideReads) };
}

async function runOnce(
  target: CommandTarget,
  ctx: ToolContext,
  unsandboxed: boolean,
): Promise<{ result: ToolResult; sandbox?: CommandSandboxReport }> {
  const outputId = ctx.messages.add({ role: "say", kind: "command_output", partial: true });
  const cap = ctx.limits.maxCommandOutputBytes;
  let shown = 0;
  let hidden = false;
  const result = await ctx.env.runner.run({
    command: target.line,
    cwd: target.cwd,
    timeoutMs: ctx.limits.commandTimeoutMs,
    maxOutputBytes: cap,
    signal: ctx.signal,
    autoApproved: ctx.approvedByPerson !== true,
    roots: ctx.config.roots,
    // The decision's grant bounds the sandbox, clicked or not: a click approves the command, not more — but
    // the outside reads its card named, which are bound read-only into this one run.
    ...grantFor(target, ctx),
    taskKey: taskKeyOf(ctx),
    ...(unsandboxed ? { unsandboxed } : {}),
    onOutput: (text) => {
      // The person sees at most `cap` characters live; the model's copy keeps head and tail.
      if (hidden) return;
      const room = cap - shown;
      if (text.length <= room) {
        shown += text.length;
        ctx.messages.append(outputId, text);
        return;
      }
      ctx.messages.append(outputId, text.slice(0, room) + "\n[… more output not shown …]");
      shown = cap;
      hidden = true;
    },
  });
  ctx.messages.patch(outputId, { partial: false });
  const sandbox = result.sandbox;
  if (sandbox?.notRun !== undefined) return { result: { content: "", isError: true }, sandbox };
  const parts: string[] = [];
  if (result.killed === "cancelled") parts.push("The command was stopped because the task was cancelled.");
  else if (result.timedOut)
    parts.push(`The command timed out after ${Math.round(ctx.limits.commandTimeoutMs / 1000)} s and was killed.`);
  else if (result.killed) parts.push(`The command was killed (${result.killed}).`);
  else parts.push(`Exit code: ${result.exitCode ?? "unknown"}`);
  if (result.truncatedBytes > 0) parts.push(`[${result.truncatedBytes} bytes of output were cut from the middle.]`);
  parts.push(result.output.trim() === "" ? "(no output)" : `Output:\n${result.output}`);
  if (sandbox?.blocked !== undefined) parts.push(sandbox.blocked);
  if (sandbox?.notice !== undefined) parts.push(`Note: ${sandbox.notice}`);
  if (sandbox?.sandboxed === true && sandbox.notRun === undefined) parts.push(TMP_NOTE(sandbox.privateTmp === true));
  const failed =
    result.timedOut || result.killed !== undefined || (result.exitCode !== undefined && result.exitCode !== 0);
  return {
    result: {
      content: parts.join("\n"),
      isError: failed,
      display: `${result.killed ? `killed (${result.killed})` : `exit ${result.exitCode ?? "?"}`}${sandbox?.blockedCause ? ` — ${STOPPED_BY[sandbox.blockedCause]}` : ""}`,
      ...(sandbox ? { sandboxed: sandbox.sandboxed } : {}),
    },
    ...(sandbox ? { sandbox } : {}),
  };
}

export const executeCommandHandler: ToolHandler = {
  name: "execute_command",
  async execute(call, ctx) {
    if (!call.command) return errorResult("`command` is empty.");
    return runCommand(call.command, ctx);
  },
};
