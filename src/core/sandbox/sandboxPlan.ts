import type { SandboxMode } from "./sandboxSettings";

/** What the host's probe found, once per session. */
export interface SandboxAvailability {
  readonly available: boolean;
  readonly mechanism: "bubblewrap" | "seatbelt" | "none";
  /** Why it is unavailable (with the fix), or what was verified. */
  readonly reason: string;
}

/**
 * How one command runs. `sandbox`: inside the OS sandbox. `ask`: the person must click first (the card says
 * "unsandboxed"). `unsandboxed`: the gate alone decided.
 */
export type SandboxPlan = "sandbox" | "ask" | "unsandboxed";

/**
 * The second layer's decision for a command the gate already let through (`autoApproved`: no click) or the
 * person approved by a click. Invariants:
 * - whatever an available sandbox can run, runs inside it, clicked or not (a click approves the command, not
 *   an escape from the sandbox; a sandbox-caused failure offers one "unsandboxed" re-run through an ask);
 * - `required` without a working sandbox: an auto-approved command asks, never runs unsandboxed;
 * - `auto` without a sandbox: the gate alone decides (the host shows a one-time notice with the fix);
 * - a click always runs: the approval card said whether it runs sandboxed.
 */
export function sandboxPlan(mode: SandboxMode, availability: SandboxAvailability, autoApproved: boolean): SandboxPlan {
  if (mode === "off") return "unsandboxed";
  if (availability.available) return "sandbox";
  if (mode === "required" && autoApproved) return "ask";
  return "unsandboxed";
}

/**
 * An available sandbox failed to start this one command: it asks (labelled "unsandboxed"), whether or not it
 * was auto-approved — it never silently runs without the sandbox.
 */
export function planAfterStartFailure(): SandboxPlan {
  return "ask";
}

/**
 * The one-time notice the host shows (panel and status bar) when the sandbox is wanted but unavailable, with
 * the probe's reason (which carries the fix). Undefined when there is nothing to say.
 */
export function unavailableNotice(mode: SandboxMode, availability: SandboxAvailability): string | undefined {
  if (mode === "off" || availability.available) return undefined;
  return mode === "required"
    ? `No OS sandbox: ${availability.reason}. Commands that would run without a click ask instead (toolgate.sandbox.mode is "required").`
    : `No OS sandbox: ${availability.reason}. Commands run unsandboxed; the gate alone decides (set toolgate.sandbox.mode to "required" to ask instead).`;
}

/** The word the say row and the approval card show for a command. */
export function sandboxLabel(plan: SandboxPlan): "sandboxed" | "unsandboxed" {
  return plan === "sandbox" ? "sandboxed" : "unsandboxed";
}
