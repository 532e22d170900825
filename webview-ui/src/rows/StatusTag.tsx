/**
 * The status of a tool call in words (never colour alone), with the gate's rule on hover. A call the person
 * rejected is stated neutrally (it is their decision, not a failure); "auto-approved" appears only beside a
 * call that went ahead, never beside one that did not run.
 */
import type { ToolInfo, ToolStatus } from "../../../src/shared/messages";
import { Icon, Tag, type Tone } from "../components";

interface Label {
  readonly text: string;
  readonly tone: Tone;
  readonly icon?: string;
  readonly spin?: boolean;
}

const LABELS: Record<ToolStatus, Label> = {
  streaming: { text: "Receiving…", tone: "neutral", icon: "loading", spin: true },
  pending: { text: "Waiting for approval", tone: "warn", icon: "question" },
  approved: { text: "Approved", tone: "ok", icon: "check" },
  running: { text: "Running", tone: "info", icon: "loading", spin: true },
  done: { text: "Done", tone: "ok", icon: "check" },
  rejected: { text: "Rejected by you", tone: "neutral", icon: "close" },
  denied: { text: "Refused by the gate", tone: "error", icon: "circle-slash" },
  error: { text: "Failed", tone: "error", icon: "error" },
  interrupted: { text: "Interrupted: never ran", tone: "warn", icon: "debug-disconnect" },
};

/** A call answered "not run" because an earlier call of the same turn was rejected. */
export const SKIPPED_PREFIX = "Not run: an earlier call";

const SKIPPED: Label = { text: "Not run", tone: "neutral", icon: "debug-step-over" };

/**
 * An interrupted call that had started (cancelled, or the editor closed while it ran): it did run, so "never
 * ran" would be false. The runtime's result for those says "while this call ran".
 */
const RAN_MARK = "while this call ran";
const STOPPED: Label = { text: "Interrupted while running", tone: "warn", icon: "debug-stop" };

/** Statuses of a call that went ahead (so "auto-approved" means something beside them). */
const WENT_AHEAD: readonly ToolStatus[] = ["approved", "running", "done", "error"];

export function statusLabel(tool: ToolInfo): Label {
  if (tool.status === "rejected" && tool.result?.startsWith(SKIPPED_PREFIX)) return SKIPPED;
  if (tool.status === "interrupted" && tool.result?.includes(RAN_MARK)) return STOPPED;
  return LABELS[tool.status];
}

export function StatusTag({ tool }: { readonly tool: ToolInfo }) {
  const l = statusLabel(tool);
  const auto = tool.decision?.decision === "allow" && WENT_AHEAD.includes(tool.status);
  return (
    <span className="tg-status">
      <Tag tone={l.tone} title={tool.decision ? `rule: ${tool.decision.rule}` : undefined}>
        {l.icon ? <Icon name={l.icon} spin={l.spin} /> : null} {l.text}
      </Tag>
      {auto ? (
        <Tag tone="neutral" title={`${tool.decision!.reason} (rule: ${tool.decision!.rule})`}>
          auto-approved
        </Tag>
      ) : null}
    </span>
  );
}
