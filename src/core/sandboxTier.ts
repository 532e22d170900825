import type { CommandAnalysis } from "./commands/types";
import { allow, ask } from "./decisionSteps";
import { describeGrant, type SandboxGrant } from "./sandbox/grant";
import type { Decision } from "./types";

/**
 * DESIGN step 5, "Commands in the sandbox" (`toolgate.autoApprove.actions.executeInSandbox`): a command line the
 * safe-command tier did not allow runs unasked under its `workspace-write` grant when the analysis sees no
 * boundary, a sandbox works, and a checkpoint of every root will be taken just before it. The grant — not the
 * analysis — bounds what its programs do, so they may be anything (`npm test`, `make`, `./scripts/x.sh`).
 *
 * Called only after steps 1–4, so denied programs, ask rules, hard asks (protected paths, deletion, dynamic
 * code, unparseable lines) have already decided. Every check here still fails closed on its own: what the
 * analysis did not fully model, or a fact the caller did not supply, asks.
 *
 * The allow carries the rule `SANDBOX_TIER_RULE`: the agent takes the checkpoint before running such a call
 * and asks the person instead when it cannot (see toolCalls.ts).
 */
export const SANDBOX_TIER_RULE = "autoApprove.executeInSandbox";

/** Whether something holds here, and why not when it does not (shown to the person). */
export interface Availability {
  readonly available: boolean;
  readonly reason?: string;
}

/**
 * Whether commands run in an OS sandbox here; `privateTmp`: that sandbox gives each task a private `/tmp`
 * (bubblewrap; Seatbelt denies the literal `/tmp`), so a sandboxed line's paths under `/tmp` are judged as that
 * private directory, inside its grant (see CommandPathGate.begin).
 */
export interface SandboxAvailability extends Availability {
  readonly privateTmp?: boolean;
}

/** The first boundary the command path gate saw: a file effect outside the workspace. */
export interface PathBoundary {
  readonly reason: string;
  readonly rule: string;
}

export interface SandboxTierInput {
  readonly analysis: CommandAnalysis;
  /** From the command path gate (`CommandPathGate.boundary`). */
  readonly boundary: PathBoundary | undefined;
  /** The grant the decision carries (commandGrant). */
  readonly grant: SandboxGrant | undefined;
  /** Undefined: not known, which asks. */
  readonly sandbox: Availability | undefined;
  /** Undefined: no checkpoint is taken where this gate decides (a hook, a CLI without checkpoints), which asks. */
  readonly checkpoints: Availability | undefined;
  readonly platform: "posix" | "windows";
}

/** The tier's decision: an allow, or an ask whose rule names the boundary (`sandbox:network`, …). */
export function sandboxTier(t: SandboxTierInput): Decision {
  const a = t.analysis;
  const why = (reason: string) => `${reason}, so it does not run in the sandbox without you`;
  // Only lines the analysis fully modelled and found merely unvouched-for ("unsafe") or safe get here.
  if (a.verdict !== "unsafe" && a.verdict !== "safe") return ask(a.reason, a.rule, a.suggestion);
  // The Windows analysis is an exact-match one: it models no effects, so no boundary could be seen.
  if (t.platform !== "posix") return ask(why("this platform has no command analysis for it"), "sandbox:platform");
  if (a.deletes) return ask(why(`${a.reason} (deletes files)`), "sandbox:deletes", a.suggestion);
  const grant = t.grant;
  if (grant === undefined) return ask(why("the command has no sandbox grant"), "sandbox:no-grant");
  if (a.network !== undefined && grant.hosts.length === 0)
    return ask(
      why(`\`${a.network}\` reaches the network, and toolgate.sandbox.network lists no host this line names`),
      "sandbox:network",
      a.suggestion,
    );
  if (t.boundary) return ask(why(t.boundary.reason), t.boundary.rule, a.suggestion);
  if (a.leavesStartDir)
    return ask(
      why(
        "it may run in a directory outside the workspace folder it starts in (a `cd` elsewhere, or one not known before it runs)",
      ),
      "sandbox:outside-cwd",
      a.suggestion,
    );
  if (!t.sandbox?.available)
    return ask(
      `no OS sandbox works here (${t.sandbox?.reason ?? "not known"}), so commands outside the safe set ask`,
      "sandbox:unavailable",
      a.suggestion,
    );
  if (!t.checkpoints?.available)
    return ask(
      `no checkpoint can be taken before it (${t.checkpoints?.reason ?? "checkpoints are not taken here"}), so it does not run without you`,
      "sandbox:no-checkpoint",
      a.suggestion,
    );
  return allow(`runs in the OS sandbox (${describeGrant(grant)}), after a checkpoint`, SANDBOX_TIER_RULE);
}
