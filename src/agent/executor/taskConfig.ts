/**
 * Per-task configuration built by `ToolExecutor.asToolConfig`: the workspace roots (fetched once, when the
 * task starts — a folder added mid-task counts from the next task on), the current gate, and the callbacks
 * handlers and the streaming presenter use to ask it. When settings change the executor swaps the gate and
 * bumps `generation`; listeners re-decide whatever is still undecided (streaming previews, pending asks).
 */
import type { Decision, ToolCall } from "../../core/types";
import type { Judged } from "../../core/resolvedCall";
import type { TaskLimits } from "../../core/limits";
import type { ApprovalGate } from "../approvalGate";
import { TaskTaint } from "../../core/taint";

export interface TaskTree {
  /** Shared by a task and its subtasks: requests and cost count across the tree. */
  limits: TaskLimits | undefined;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
}

export interface ToolCallbacks {
  /** The authoritative decision for a complete call, with the resolved call it judged. Counts toward maxRequests. */
  decide(call: ToolCall, callId?: number): Judged;
  /** A tool whose decision does not hang on a path (web_fetch, MCP): would it run unasked with these params? */
  shouldAutoApproveTool(name: string, params?: Readonly<Record<string, unknown>>): Decision;
  /**
   * A file tool whose path is known while its block still streams: a UI hint only. The other required params
   * are filled with what has streamed so far (`partial`). It counts no request and is never reused: the
   * complete block is decided again from scratch.
   */
  shouldAutoApproveToolWithPath(name: string, path: string, partial?: Readonly<Record<string, unknown>>): Decision;
}

export type GateChangeListener = () => void;

export class TaskConfig {
  private currentGate: ApprovalGate;
  private gen = 0;
  private readonly listeners = new Set<GateChangeListener>();
  readonly callbacks: ToolCallbacks;

  constructor(
    readonly taskId: string,
    readonly roots: readonly string[],
    readonly tree: TaskTree,
    gate: ApprovalGate,
    /**
     * The sources of untrusted content this task has read (core/taint.ts). The task restores it from its
     * snapshot and a sub-task starts from its parent's; every decision is given its current sources, so a
     * source read by the call just before counts for the next one.
     */
    readonly taint: TaskTaint = new TaskTaint(),
  ) {
    this.currentGate = gate;
    this.callbacks = {
      decide: (call, callId) =>
        this.currentGate.decide(this.withTaint(call), callId !== undefined ? { callId } : undefined),
      shouldAutoApproveTool: (name, params = {}) => this.currentGate.decide(this.withTaint({ tool: name, params })),
      shouldAutoApproveToolWithPath: (name, path, partial = {}) =>
        this.currentGate.decide(this.withTaint({ tool: name, params: { ...partial, path } }), { preview: true }),
    };
  }

  /** The call with the task's sources as a fact: set here and nowhere else, so no caller can leave them out. */
  private withTaint(call: ToolCall): ToolCall {
    const taintedBy = this.taint.active;
    const { taintedBy: _ignored, ...facts } = call.facts ?? {};
    const next = taintedBy.length > 0 ? { ...facts, taintedBy } : facts;
    return Object.keys(next).length > 0 ? { ...call, facts: next } : { tool: call.tool, params: call.params };
  }

  /** The directory commands run in and relative paths resolve against. */
  get cwd(): string {
    return this.roots[0] ?? process.cwd();
  }

  get gate(): ApprovalGate {
    return this.currentGate;
  }

  /** Bumped on every gate swap: a decision taken under an older generation is stale. */
  get generation(): number {
    return this.gen;
  }

  onGateChanged(listener: GateChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called by the executor only. */
  swapGate(gate: ApprovalGate): void {
    this.currentGate = gate;
    this.gen++;
    for (const l of [...this.listeners]) l();
  }

  /** Cost of a model turn: counted for the tree and fed to the gate's maxCost. */
  recordCost(usd: number, inputTokens: number, outputTokens: number): void {
    this.tree.costUsd += usd;
    this.tree.inputTokens += inputTokens;
    this.tree.outputTokens += outputTokens;
    this.currentGate.recordCost(usd);
  }

  deniedTools(): readonly string[] {
    return this.currentGate.deniedTools();
  }
}
