/**
 * The tool calls of one model turn, after its stream ended cleanly: queued in order, each taken through its
 * ToolCallRun (gate, the person, prepare) and its handler, each answered with exactly one tool_result; then
 * the results go back to the model as one user message.
 *
 * Invariants:
 * - Every call gets a result: rejected ones make the rest "not run", a cancel answers the unfinished ones,
 *   and a call that was running when the editor closed is reported as of unknown outcome, never run twice.
 * - A call with effects is saved as running before it starts (reads skip that write: repeating them is harmless).
 * - A call that may change files runs only once its checkpoint was taken (or found impossible), and its row
 *   carries that checkpoint; the gate's read-only verdict on a command is what lets it skip one.
 */
import type { SandboxGrant } from "../../core/sandbox/grant";
import type { ResolvedCall } from "../../core/resolvedCall";
import type { CallFacts } from "../../core/types";
import { commandLabel, taintSourceOf } from "../../core/taint";
import type { RowCheckpoint } from "../../shared/messages";
import { mayChangeFiles, withCheckpoint } from "../checkpoints/toolStep";
import { SANDBOX_TIER_RULE } from "../../core/sandboxTier";
import type { StepCall } from "../checkpoints/types";
import { hostFacts } from "../tools/hostFacts";
import type { ToolBlock } from "../streaming/turn";
import { protectedChangesText, resumeCommand } from "../tools/handlers/executeCommand";
import { undoProtectedChanges } from "../sandbox/protectedUndo";
import { handlerFor } from "../tools/handlers/registry";
import { DEFAULT_TOOL_LIMITS, type PreparedEdit, type ToolContext, type ToolResult } from "../tools/types";
import { resolveLike } from "../tools/workspaceFiles";
import type { PendingCall, PendingTurn } from "./snapshot";
import { askProtectedChanges } from "./asks";
import { Cancelled, type TaskCore } from "./taskCore";
import { ToolCallRun } from "./toolCallRun";

const REPEATABLE_TOOLS: ReadonlySet<string> = new Set([
  "read_file",
  "list_files",
  "search_files",
  "access_mcp_resource",
  "ask_followup_question",
]);

/** One line naming the call in checkpoint lists ("write_to_file src/a.ts", "execute_command: rm -r out"). */
function stepLabel(call: ResolvedCall): string {
  const one = (t: string) => {
    const line = t.replace(/\s+/g, " ").trim();
    return line.length > 80 ? line.slice(0, 79) + "…" : line;
  };
  if (call.command) return `${call.tool}: ${one(call.command.line)}`;
  if (call.mcp) return `${call.tool} ${call.mcp.server}/${call.mcp.tool ?? ""}`;
  const path = call.params.path;
  return typeof path === "string" ? `${call.tool} ${one(path)}` : call.tool;
}

export class ToolCalls {
  /** By tool_use id: the runs of queued calls (the message each call shows). */
  private readonly runs = new Map<string, ToolCallRun>();

  constructor(
    private readonly core: TaskCore,
    private readonly taskId: string,
  ) {}

  /** A run for a call whose block just started streaming. */
  newRun(toolUseId: string, name: string): ToolCallRun {
    return new ToolCallRun(toolUseId, name, this.runDeps());
  }

  /** The calls of a turn that ended cleanly, in order; malformed ones will be answered with their error. */
  queue(blocks: readonly ToolBlock[], turnRuns: ReadonlyMap<ToolBlock, ToolCallRun>): void {
    this.core.pending = {
      calls: blocks.map((b) => ({
        toolUseId: b.id,
        name: b.name,
        input: b.state === "complete" ? b.params : {},
        messageId: turnRuns.get(b)!.messageId,
        ...(b.state === "error" ? { error: b.error ?? "malformed arguments" } : {}),
        state: "queued" as const,
      })),
      results: [],
      skipRest: false,
    };
    for (const [b, run] of turnRuns) this.runs.set(b.id, run);
    this.core.persistence?.changed();
  }

  /** Runs what is pending (resuming after a reload), then sends the results; the turn's outcome, if any. */
  async process(): Promise<PendingTurn["outcome"]> {
    const core = this.core;
    const turn = core.pending!;
    try {
      for (const call of turn.calls) {
        if (call.state === "done") continue;
        core.throwIfCancelled();
        const result = await this.processCall(call, turn);
        turn.results.push({
          type: "tool_result",
          toolUseId: call.toolUseId,
          content: result.content,
          ...(result.isError ? { isError: true } : {}),
        });
        call.state = "done";
        if (result.outcome) turn.outcome = result.outcome;
        core.persistence?.changed();
      }
    } catch (e) {
      if (!(e instanceof Cancelled) && !core.signal.aborted) throw e;
      this.answerAsCancelled();
      throw new Cancelled();
    }
    core.pending = undefined;
    core.pushUser(turn.results);
    return turn.outcome;
  }

  /** On cancel: every call of the turn gets a result, so the conversation can be continued later. */
  answerAsCancelled(): void {
    const core = this.core;
    const turn = core.pending;
    if (!turn) return;
    for (const call of turn.calls) {
      if (call.state === "done") continue;
      const removed = this.removeUnsettledProtectedChanges(call);
      const content =
        call.state === "running"
          ? `The task was cancelled while this call ran; it was stopped.${removed}`
          : "Not run: the task was cancelled.";
      turn.results.push({ type: "tool_result", toolUseId: call.toolUseId, content, isError: true });
      call.state = "done";
      const run = this.runs.get(call.toolUseId);
      if (run) run.settle("interrupted", content);
      else {
        const m = core.store.get(call.messageId);
        if (m?.tool)
          core.store.patch(call.messageId, {
            partial: false,
            ...(m.askState === "pending" ? { askState: "answered" as const } : {}),
            tool: { ...m.tool, status: "interrupted", result: content },
          });
      }
    }
    core.pending = undefined;
    core.pushUser(turn.results);
  }

  /**
   * A cancel while the person was still asked to keep or remove protected changes (also one restored after a
   * reload) removes them: a pending change is never kept by default. Returns what the model reads about it.
   */
  private removeUnsettledProtectedChanges(call: PendingCall): string {
    const pending = call.sandboxAsk;
    if (pending?.step !== "protectedChanges" || pending.askId === undefined) return "";
    const message = this.core.store.get(pending.askId);
    if (message?.kind !== "protected_changes" || message.askState !== "pending") return "";
    const changes = undoProtectedChanges(pending.found);
    this.core.store.patch(pending.askId, { askState: "answered", protectedChanges: changes });
    delete call.sandboxAsk;
    return `\n${protectedChangesText({ kept: false, changes, cancelled: true })}`;
  }

  private runFor(call: PendingCall): ToolCallRun {
    let run = this.runs.get(call.toolUseId);
    if (!run) {
      // Restored from history: the message exists, the arguments are complete.
      run = new ToolCallRun(call.toolUseId, call.name, this.runDeps(), call.messageId);
      run.complete(call.input);
      this.runs.set(call.toolUseId, run);
    }
    return run;
  }

  private async processCall(call: PendingCall, turn: PendingTurn): Promise<ToolResult> {
    const signal = this.core.signal;
    if (call.error) return { content: call.error, isError: true };
    const run = this.runFor(call);
    if (call.state === "running") {
      // Waiting on a sandbox ask after it ran: that ask is asked again, and answered once.
      if (call.sandboxAsk !== undefined && call.name === "execute_command") return this.resumeSandboxAsk(call, run);
      const text =
        "The editor was closed while this call ran; it is not known whether it finished. Check before repeating it.";
      run.settle("interrupted", text);
      return { content: text, isError: true };
    }
    if (turn.skipRest) {
      const text = "Not run: an earlier call in this message was rejected.";
      run.settle("rejected", text);
      return { content: text, isError: true };
    }
    const handler = handlerFor(call.name);
    if (!handler) {
      const text = `There is no tool named \`${call.name}\`.`;
      run.settle("error", text);
      return { content: text, isError: true };
    }
    let prepared: PreparedEdit | undefined;
    const baseCtx = this.toolContext(run, call);
    const approval = await run.approve(
      signal,
      handler.prepare
        ? async (resolved) => {
            const r = await handler.prepare!(resolved, baseCtx);
            if (!r.ok) return { error: r.error };
            prepared = r.edit;
            return { proposed: r.edit.proposed };
          }
        : undefined,
    );
    if (approval.kind === "denied") {
      const d = approval.decision;
      const text =
        d.rule === "tool:prepare"
          ? d.reason
          : `Refused by the gate: ${d.reason} (rule: ${d.rule}). Do not retry this call in another form; choose another way or ask the person.`;
      run.settle(d.rule === "tool:prepare" ? "error" : "denied", text);
      return { content: text, isError: true };
    }
    if (approval.kind === "rejected") {
      turn.skipRest = true;
      const text = `The person rejected this call.${approval.feedback ? ` Their feedback: ${approval.feedback}` : ""}`;
      run.settle("rejected", text);
      return { content: text, isError: true };
    }
    call.state = "running";
    run.markRunning();
    // A call with effects is saved as running before it starts, so a reload can say its outcome is unknown
    // rather than run it twice. Reads are harmless to repeat and skip the write.
    if (!REPEATABLE_TOOLS.has(call.name)) await this.core.saveNow();
    const diffSession = await run.diffSession;
    const ctx: ToolContext = {
      ...this.toolContext(run, call),
      ...(approval.decision.decision === "ask" ? { approvedByPerson: true } : {}),
      ...(approval.kind === "run" && approval.outsideSandbox ? { outsideSandbox: true } : {}),
      ...(approval.feedback ? { feedback: approval.feedback } : {}),
      ...(diffSession ? { diffSession } : {}),
      ...(prepared ? { prepared } : {}),
    };
    let result: ToolResult;
    let checkpoint: RowCheckpoint | undefined;
    const showCheckpoint = (c: RowCheckpoint): void => {
      checkpoint = c;
      this.patchCheckpoint(run.messageId, c);
    };
    try {
      // Allowed by "Run other commands in the sandbox" only on the condition of a checkpoint of every root just
      // before it: when none could be taken, the person decides on this call's card whether it runs.
      const needsCheckpoint = approval.decision.decision === "allow" && approval.decision.rule === SANDBOX_TIER_RULE;
      result = await withCheckpoint(
        this.core.deps.checkpoints,
        this.checkpointStep(call, approval.call),
        () => handler.execute(approval.call, ctx),
        showCheckpoint,
        needsCheckpoint
          ? async (reason) => {
              const answer = await run.askBeforeRunning(
                `no checkpoint could be taken before it (${reason}), so it waits for you`,
                "sandbox:no-checkpoint",
                approval.call,
                signal,
              );
              if (answer.approved) return undefined;
              turn.skipRest = true;
              const text = `The person rejected this call (no checkpoint could be taken before it).${answer.feedback ? ` Their feedback: ${answer.feedback}` : ""}`;
              return { content: text, isError: true };
            }
          : undefined,
      );
    } catch (e) {
      if (signal.aborted) throw new Cancelled();
      result = { content: `The tool failed: ${(e as Error).message}`, isError: true };
    }
    // Cancelled while it ran: the call stays "running" so the cancel path reports it as stopped.
    if (signal.aborted) throw new Cancelled();
    this.noteTaint(approval.call, result);
    this.core.deps.config.gate.ran?.(approval.call);
    if (approval.feedback && call.name !== "ask_followup_question")
      result = { ...result, content: `${result.content}\n\nThe person said when approving: ${approval.feedback}` };
    run.finish(result.display ?? result.content, result.isError === true, result.sandboxed);
    // The row is rebuilt while a call re-decides (a sandbox re-run): its checkpoint must outlive that.
    if (checkpoint && this.core.store.get(run.messageId)?.tool?.checkpoint === undefined)
      this.patchCheckpoint(run.messageId, checkpoint);
    return result;
  }

  /**
   * The result is about to reach the model: if someone else may have written it, its source joins the task's
   * taint before the next decision. Errors count too (an error page or a tool's error text is content as well).
   */
  private noteTaint(call: ResolvedCall, result: ToolResult): void {
    const config = this.core.deps.config;
    const outcome = result.sandboxed !== undefined ? { sandboxed: result.sandboxed } : {};
    const gate = config.gate;
    const source = gate.taintSourceOf ? gate.taintSourceOf(call, outcome) : taintSourceOf(call, {}, outcome);
    if (source !== undefined) config.taint.add([source]);
  }

  /** A restored command call that was waiting on a sandbox ask: the ask again, then the result as usual. */
  private async resumeSandboxAsk(call: PendingCall, run: ToolCallRun): Promise<ToolResult> {
    const signal = this.core.signal;
    run.markRunning();
    let result: ToolResult;
    try {
      result = await resumeCommand(call.sandboxAsk!, { ...this.toolContext(run, call), sandboxAsk: call.sandboxAsk! });
    } catch (e) {
      if (signal.aborted) throw new Cancelled();
      result = { content: `The tool failed: ${(e as Error).message}`, isError: true };
    }
    if (signal.aborted) throw new Cancelled();
    this.core.deps.config.gate.ran?.();
    // Restored, the call's judged form is gone: a run that was not sandboxed counts as one that reached out.
    const line = call.input.command;
    if (result.sandboxed !== true && typeof line === "string") this.core.deps.config.taint.add([commandLabel(line)]);
    run.finish(result.display ?? result.content, result.isError === true, result.sandboxed);
    return result;
  }

  private checkpointStep(call: PendingCall, resolved: ResolvedCall): StepCall {
    const mayChange = mayChangeFiles(call.name, {
      ...(resolved.command ? { hasCommand: true, commandReadOnly: resolved.command.readOnly === true } : {}),
      ...(resolved.mcp ? { mcpReadOnly: resolved.mcp.readOnlyHint === true } : {}),
    });
    return { taskId: this.taskId, stepId: call.toolUseId, tool: call.name, label: stepLabel(resolved), mayChange };
  }

  /** Merged into the row as it is now: the row also changes while the call runs and after it finished. */
  private patchCheckpoint(messageId: number, checkpoint: RowCheckpoint): void {
    const tool = this.core.store.get(messageId)?.tool;
    if (tool) this.core.store.patch(messageId, { tool: { ...tool, checkpoint } });
  }

  private toolContext(run: ToolCallRun, call: PendingCall): ToolContext {
    const { config, env } = this.core.deps;
    const signal = this.core.signal;
    return {
      config,
      env,
      limits: { ...DEFAULT_TOOL_LIMITS, ...env.limits },
      // The gate's own snapshot, so a listing filters with exactly the rules the decision used.
      ignore: config.gate.ignore ?? env.ignoreRules(config.roots),
      signal,
      messages: this.core.store,
      messageId: run.messageId,
      resolve: (p) => resolveLike(config.cwd, p),
      askUnsandboxed: (reason, sandboxedRun, danger) => run.askUnsandboxed(reason, signal, sandboxedRun, danger),
      askProtectedChanges: (changes, onShown, askId) => askProtectedChanges(this.core, changes, onShown, askId),
      setSandboxAsk: (state) => {
        if (state === undefined) delete call.sandboxAsk;
        else call.sandboxAsk = state;
      },
      saveTask: async () => {
        await this.core.saveNow();
      },
      decideAgain: async (params) => {
        const again = await run.approveAgain(params, signal);
        if (again.kind === "run") {
          run.markRunning();
          return { call: again.call };
        }
        const d = again.decision;
        return {
          result: {
            content:
              again.kind === "rejected"
                ? `The person rejected the changed call.${again.feedback ? ` Their feedback: ${again.feedback}` : ""}`
                : `Refused by the gate after the call changed: ${d.reason} (rule: ${d.rule}).`,
            isError: true,
          },
        };
      },
    };
  }

  private runDeps() {
    const core = this.core;
    return {
      messages: core.store,
      config: core.deps.config,
      ask: core.deps.ask,
      onAskPending: async () => {
        core.setState("waiting");
        await core.saveNow();
      },
      onAskSettled: () => {
        if (core.state === "waiting") core.setState("running");
      },
      facts: async (name: string, params: Readonly<Record<string, unknown>>): Promise<CallFacts | undefined> => {
        const facts = await hostFacts(name, params, core.deps.env.resolveHost);
        if (name !== "execute_command" && name !== "attempt_completion") return facts;
        // Whether an approved command would be confined now: a tainted task lets sandboxed lines without hosts run.
        const sandboxed = core.deps.env.runner.sandboxOutlook?.(true)?.sandboxed === true;
        return { ...facts, commandSandboxed: sandboxed };
      },
      ...(core.deps.env.diff ? { openDiff: (path: string) => this.openDiff(path) } : {}),
      sandboxOutlook: (grant?: SandboxGrant) => core.deps.env.runner.sandboxOutlook?.(false, grant),
    };
  }

  private async openDiff(path: string) {
    const { config, env } = this.core.deps;
    const reviewer = env.diff;
    if (!reviewer) return undefined;
    const abs = resolveLike(config.cwd, path);
    const st = await env.fs.stat(abs).catch(() => undefined);
    const original = st?.type === "file" ? new TextDecoder().decode(await env.fs.readFile(abs)) : undefined;
    return reviewer.open(abs, original);
  }
}
