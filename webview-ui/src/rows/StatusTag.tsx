/** The status of a tool call in words (never colour alone), with the gate's rule on hover. */
import type { ToolInfo, ToolStatus } from "../../../src/shared/messages";
import { Icon, Tag, type Tone } from "../components";

const LABELS: Record<ToolStatus, { text: string; tone: Tone; icon?: string; spin?: boolean }> = {
  streaming: { text: "Receiving…", tone: "neutral", icon: "loading", spin: true },
  pending: { text: "Waiting for approval", tone: "warn", icon: "question" },
  approved: { text: "Approved", tone: "ok", icon: "check" },
  running: { text: "Running", tone: "info", icon: "loading", spin: true },
  done: { text: "Done", tone: "ok", icon: "check" },
  rejected: { text: "Rejected", tone: "error", icon: "close" },
  denied: { text: "Refused by the gate", tone: "error", icon: "circle-slash" },
  error: { text: "Failed", tone: "error", icon: "error" },
  interrupted: { text: "Interrupted: never ran", tone: "warn", icon: "debug-disconnect" },
};

export function StatusTag({ tool }: { readonly tool: ToolInfo }) {
  const l = LABELS[tool.status];
  const auto = tool.decision?.decision === "allow" && tool.status !== "pending" && tool.status !== "streaming";
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
