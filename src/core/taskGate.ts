import { Gate, type GateOptions } from "./gate";
import { TaskLimits } from "./limits";
import type { Decision, ToolCall } from "./types";

/** What a task's gate is built from; the host supplies it from the editor, the CLI from files. */
export type GateInputs = Omit<GateOptions, "roots" | "limits">;

/**
 * The gate one task tree holds. Roots are fixed when the task starts (the cached-roots assumption); the
 * limits are shared with subtasks; settings, trust and the ignore file can change while the task runs, and
 * `refresh` rebuilds the gate from fresh inputs so the next decision — including a re-decision of a block
 * still streaming — sees them. Listeners hear about every refresh.
 */
export class TaskGate {
  private listeners = new Set<() => void>();

  private constructor(
    private gate: Gate,
    readonly roots: readonly string[],
    readonly limits: TaskLimits,
  ) {}

  static async start(roots: readonly string[], inputs: GateInputs, limits?: TaskLimits): Promise<TaskGate> {
    const s = inputs.settings.autoApprove;
    const shared = limits ?? new TaskLimits(s.maxRequests, s.maxCost);
    return new TaskGate(await Gate.create({ ...inputs, roots, limits: shared }), roots, shared);
  }

  /** A subtask shares this tree's roots and limits. */
  child(inputs: GateInputs): Promise<TaskGate> {
    return TaskGate.start(this.roots, inputs, this.limits);
  }

  async refresh(inputs: GateInputs): Promise<void> {
    this.gate = await Gate.create({ ...inputs, roots: this.roots, limits: this.limits });
    for (const l of [...this.listeners]) l();
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  get current(): Gate {
    return this.gate;
  }

  decide(call: ToolCall): Decision {
    return this.gate.decide(call);
  }

  deniedTools(): readonly string[] {
    return this.gate.deniedTools();
  }

  recordCost(usd: number): void {
    this.limits.addCost(usd);
  }

  resetLimits(): void {
    this.limits.reset();
  }
}
