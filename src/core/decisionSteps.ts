import type { Decision } from "./types";

/**
 * A decision in the making: each step of the decision order either settles the call or notes why it passed.
 * The notes are the trace `toolgate explain` prints, so the "why" a person sees is the code path taken.
 */
export class Trace {
  readonly lines: string[] = [];
  /** Whether notes are kept: a caller skips building a note's text when they are not. */
  constructor(readonly enabled: boolean) {}

  note(step: string, text: string): void {
    if (this.enabled) this.lines.push(`${step}: ${text}`);
  }
}

export function allow(reason: string, rule: string, suggestion?: string): Decision {
  return suggestion ? { decision: "allow", reason, rule, suggestion } : { decision: "allow", reason, rule };
}

export function ask(reason: string, rule: string, suggestion?: string): Decision {
  return suggestion ? { decision: "ask", reason, rule, suggestion } : { decision: "ask", reason, rule };
}

export function deny(reason: string, rule: string): Decision {
  return { decision: "deny", reason, rule };
}
