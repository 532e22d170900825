/**
 * Request and cost limits for one task tree. Subtasks share their parent's instance, so a tree cannot escape
 * the limit by spawning tasks. Reaching a limit turns every auto-approval into an ask until `reset()`, which
 * only the person triggers ("reset and continue").
 */
export interface LimitReached {
  readonly reason: string;
  readonly rule: string;
}

export class TaskLimits {
  private requests = 0;
  private costUsd = 0;

  constructor(
    readonly maxRequests: number,
    readonly maxCost: number,
  ) {}

  get requestCount(): number {
    return this.requests;
  }

  get cost(): number {
    return this.costUsd;
  }

  /** Counts one request (a call the gate let through to approval) and says whether a limit now stands. */
  countRequest(): LimitReached | undefined {
    this.requests++;
    return this.reached();
  }

  reached(): LimitReached | undefined {
    if (this.maxRequests > 0 && this.requests > this.maxRequests) {
      return {
        reason: `the task reached its limit of ${this.maxRequests} auto-approved requests`,
        rule: "limits.maxRequests",
      };
    }
    if (this.maxCost > 0 && this.costUsd >= this.maxCost) {
      return {
        reason: `the task reached its cost limit of $${this.maxCost.toFixed(2)} (spent $${this.costUsd.toFixed(2)})`,
        rule: "limits.maxCost",
      };
    }
    return undefined;
  }

  addCost(usd: number): void {
    if (Number.isFinite(usd) && usd > 0) this.costUsd += usd;
  }

  reset(): void {
    this.requests = 0;
    this.costUsd = 0;
  }
}
