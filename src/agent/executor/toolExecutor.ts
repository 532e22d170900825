/**
 * The ToolExecutor owns the gate (validator + auto-approver) for every running task. `asToolConfig` builds a
 * task's `TaskConfig` — roots fetched once, a gate built for them, callbacks injected — and
 * `settingsChanged` rebuilds each live task's gate from the new settings and tells the task to re-decide
 * anything still undecided. Limits are shared by a task tree and survive a settings change.
 */
import type { CreateGate } from "../approvalGate";
import { EMPTY_TAINT, TaskTaint, type TaintState } from "../../core/taint";
import { TaskConfig, type TaskTree } from "./taskConfig";

export interface ToolExecutorOptions {
  createGate: CreateGate;
  /** The workspace roots right now (absolute). Called once per task. */
  roots(): readonly string[] | Promise<readonly string[]>;
}

export class ToolExecutor {
  private readonly live = new Map<string, TaskConfig>();
  private createGate: CreateGate;
  private rebuilding: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ToolExecutorOptions) {
    this.createGate = opts.createGate;
  }

  /** A new task tree (a top-level task); pass it to subtasks' `asToolConfig` so limits and cost are shared. */
  static newTree(): TaskTree {
    return { limits: undefined, costUsd: 0, inputTokens: 0, outputTokens: 0 };
  }

  /** `taint`: what the task starts from (a sub-task: its parent's sources); a restored task adds its own saved ones. */
  async asToolConfig(
    taskId: string,
    tree: TaskTree = ToolExecutor.newTree(),
    taint: TaintState = EMPTY_TAINT,
  ): Promise<TaskConfig> {
    await this.rebuilding;
    const roots = [...(await this.opts.roots())];
    const gate = await this.createGate({ roots, taskId, ...(tree.limits ? { limits: tree.limits } : {}) });
    tree.limits = gate.limits ?? tree.limits;
    const config = new TaskConfig(taskId, roots, tree, gate, new TaskTaint(taint));
    this.live.set(taskId, config);
    return config;
  }

  /** The task ended: its config no longer follows settings changes. */
  release(taskId: string): void {
    this.live.delete(taskId);
  }

  /**
   * Settings changed: every live task gets a gate built from the new settings (same roots, same tree limits)
   * and re-decides its streaming previews and pending asks. Pass a new factory if the host rebuilt it.
   */
  settingsChanged(createGate?: CreateGate): Promise<void> {
    if (createGate) this.createGate = createGate;
    const run = this.rebuilding.then(async () => {
      const seenTrees = new Set<TaskTree>();
      for (const config of [...this.live.values()]) {
        const tree = config.tree;
        const gate = await this.createGate({
          roots: config.roots,
          taskId: config.taskId,
          ...(tree.limits ? { limits: tree.limits } : {}),
        });
        if (!seenTrees.has(tree)) {
          seenTrees.add(tree);
          tree.limits = gate.limits ?? tree.limits;
        }
        if (this.live.get(config.taskId) === config) config.swapGate(gate);
      }
    });
    this.rebuilding = run.catch(() => undefined);
    return run;
  }
}
