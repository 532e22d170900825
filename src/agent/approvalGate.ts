/**
 * The agent depends on this interface, not on the gate class: the real `Gate` (src/core/gate.ts) satisfies
 * it structurally, and tests may wrap it.
 */
import { Gate, type GateOptions } from "../core/gate";
import { TaskLimits } from "../core/limits";
import type { IgnoreRules } from "../core/ignoreFile";
import type { ToolgateSettings } from "../core/settingsModel";
import type { ToolCall } from "../core/types";
import type { Judged, ResolvedCall } from "../core/resolvedCall";
import type { CallOutcome } from "../core/taint";
import { nodeGitConfig } from "./git/gitConfigReader";

export interface DecideOptions {
  /** A UI hint while the block streams: counts no request, never reused, not logged. */
  readonly preview?: boolean;
  /** The call's id in its task (its message id), for the decision log; the gate itself ignores it. */
  readonly callId?: number;
}

export interface ApprovalGate {
  /**
   * Validator then auto-approver, with the resolved call it judged. Synchronous. Counts the call toward
   * maxRequests unless it is a preview (a UI hint while the block streams).
   */
  decide(call: ToolCall, opts?: DecideOptions): Judged;
  recordCost(usd: number): void;
  resetLimits(): void;
  /**
   * The untrusted source a finished call's result brings in (core/taint.ts). Optional for wrappers: without it
   * the task judges with no MCP server trusted (stricter).
   */
  taintSourceOf?(call: ResolvedCall, outcome?: CallOutcome): string | undefined;
  /**
   * A call this gate judged has run (undefined: a call whose judged form is gone). When it may have changed
   * files, the gate's file-system facts are forgotten, so the next decision never waits on a watcher to see
   * the agent's own changes. Optional for wrappers: the watchers still report the change.
   */
  ran?(call?: ResolvedCall): void;
  /** Tools refused outright, to hide from the model. */
  deniedTools(): readonly string[];
  /** The ignore rules this gate decides with: listings and searches filter with the same snapshot. */
  readonly ignore?: IgnoreRules;
  /** The task tree's limits, carried into the gate that replaces this one after a settings change. */
  readonly limits?: TaskLimits;
}

export interface GateInput {
  /** Workspace roots, fetched once per task. */
  readonly roots: readonly string[];
  /** The task tree's limits so far (a subtask, or a rebuild after settings changed). */
  readonly limits?: TaskLimits;
  /** The task the gate is for: rules the person saved "for this task" apply to it alone. */
  readonly taskId?: string;
}

export type CreateGate = (input: GateInput) => Promise<ApprovalGate>;

/** What a `CreateGate` built on the real gate reads each time it builds one (the host's current settings). */
export interface GateSettingsSource {
  settings(taskId?: string): ToolgateSettings;
  trusted?(): boolean;
  readonly headless?: boolean;
  settingsErrors?(): readonly string[];
  extra?(): Partial<Omit<GateOptions, "settings" | "roots" | "limits" | "trusted" | "headless" | "settingsErrors">>;
}

/**
 * Limits for a new gate: the same counters when the limit values did not change, else new limits carrying
 * the counts so far (a settings change never resets what a task tree has spent).
 */
export function carryLimits(prev: TaskLimits | undefined, maxRequests: number, maxCost: number): TaskLimits {
  if (prev && prev.maxRequests === maxRequests && prev.maxCost === maxCost) return prev;
  const next = new TaskLimits(maxRequests, maxCost);
  if (prev) {
    next.addCost(prev.cost);
    for (let i = 0; i < prev.requestCount; i++) next.countRequest();
  }
  return next;
}

export function realGateFactory(source: GateSettingsSource): CreateGate {
  return async ({ roots, limits, taskId }) => {
    const settings = source.settings(taskId);
    return Gate.create({
      gitConfig: nodeGitConfig,
      ...source.extra?.(),
      settings,
      roots,
      limits: carryLimits(limits, settings.autoApprove.maxRequests, settings.autoApprove.maxCost),
      trusted: source.trusted?.() ?? true,
      headless: source.headless ?? false,
      settingsErrors: source.settingsErrors?.() ?? [],
    });
  };
}
