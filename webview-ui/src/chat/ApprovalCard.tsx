/**
 * The approval card for a pending tool call. It shows exactly what will run (invisible and control
 * characters made visible, the deciding part of a command line marked, its working directory), where a file
 * write really lands and a preview of the change, why the gate asks, Approve / Reject with optional feedback
 * for the model, and "always allow / always deny" with a scope and the exact rule that will be saved.
 *
 * Nothing here decides: the answer is an intent; the host's task accepts it exactly once and the card
 * disappears when the ask stops being pending. While the call's arguments are still streaming, Approve is
 * disabled: a person can only approve what they can see in full. For a risky call (deletion, outside the
 * workspace, a protected path, a command not fully analysed) Reject is the primary button; Escape rejects.
 */
import { useState } from "react";
import type { AskResponse, TaskMessage, ToolInfo } from "../../../src/shared/messages";
import type { RememberRule, RuleScope } from "../../../src/shared/protocol";
import { Button, Icon, RadioGroup, TextArea } from "../components";
import { prettyArguments, toolBody, toolSummary, type ToolFamily } from "../rows/toolSummary";
import { COMMAND_VISIBILITY, VisibleText } from "../rows/VisibleText";
import { hasHiddenCharacters } from "../util/visibleText";
import { AskCard, useAnswer } from "./AskCard";
import { markedText } from "./commandPieces";
import { CommandText } from "./CommandText";
import { EditPreview, WhereItLands } from "./EditPreview";
import { callDangers, WhyItAsks } from "./WhyItAsks";
import "./approvalCard.css";

const QUESTION: Record<ToolFamily, string> = {
  read: "Allow this read?",
  edit: "Allow this edit?",
  command: "Run this command?",
  mcp: "Call this MCP tool?",
  fetch: "Fetch this page?",
  other: "Allow this call?",
};

/** Pretty-printed JSON has our own line breaks: mark look-alikes, not newlines (those inside strings stay escaped). */
const ARGUMENT_VISIBILITY = { markNonAscii: true } as const;

const SCOPES = [
  { value: "task", label: "This task" },
  { value: "workspace", label: "This workspace" },
  { value: "user", label: "Always" },
] as const;

/** Which user setting an "always" rule goes to; mirrors the host's ruleTarget. */
export function ruleSettingKey(toolName: string, rule: string, effect: "allow" | "deny"): string {
  const isCommandTool = toolName === "execute_command" || toolName === "attempt_completion";
  const permission = !isCommandTool || /^[A-Za-z_][\w-]*\(.*\)$/s.test(rule);
  return `toolgate.${permission ? "permissions" : "commands"}.${effect}`;
}

/** The server and tool of an `mcp__server__tool` suggestion; mirrors the host's mcpToolOf. */
function mcpTool(rule: string): { server: string; tool: string } | undefined {
  const m = /^mcp__(.+?)__(.+)$/s.exec(rule);
  return m && !/[()\s*]/.test(rule) ? { server: m[1]!, tool: m[2]! } : undefined;
}

export function whereSaved(scope: RuleScope, toolName: string, rule: string): string {
  switch (scope) {
    case "task":
      return "kept for this task only";
    case "workspace":
      return "saved for this workspace in Toolgate's own storage, not in the repository";
    case "user": {
      const mcp = toolName === "use_mcp_tool" ? mcpTool(rule) : undefined;
      if (mcp)
        return `Always allow ticks ${mcp.tool} in the MCP tab (alwaysAllow of ${mcp.server} in toolgate.mcpServers; it runs unasked while “Use MCP” is on). Always deny: toolgate.permissions.deny`;
      return `saved in your user settings (${ruleSettingKey(toolName, rule, "allow")} or ${ruleSettingKey(toolName, rule, "deny")})`;
    }
  }
}

/**
 * Before the click: whether the command will run inside the OS sandbox, with what it may write (its grant)
 * which hosts it may reach, and the outside paths an approval binds read-only for this run.
 */
export function sandboxLine(tool: ToolInfo): string {
  const o = tool.sandboxOutlook;
  if (o === undefined) return "runs unsandboxed";
  if (o.sandboxed) {
    const files =
      o.grant === "read-only" ? "read-only" : o.grant === "workspace-write" ? "may write the workspace" : undefined;
    const hosts = o.hosts ?? [];
    const net =
      hosts.length > 0
        ? `network only to ${hosts.join(", ")}`
        : o.network === "hosts"
          ? "network: host list"
          : "no network";
    const reads = o.readPaths ?? [];
    const read = reads.length > 0 ? `; approving lets this run read ${reads.join(", ")}` : "";
    return `runs in the OS sandbox (${files !== undefined ? `${files}, ` : ""}${net}${read})`;
  }
  return o.reason !== undefined ? `runs unsandboxed — ${o.reason}` : "runs unsandboxed";
}

function WhatWillRun({ message, tool }: { readonly message: TaskMessage; readonly tool: ToolInfo }) {
  const body = toolBody(message);
  const s = toolSummary(tool, body);
  const p = tool.params;
  // attempt_completion asks only about its command (in params); the result is its body.
  const payload = tool.name === "attempt_completion" ? (p.command ?? "") : (s.subject ?? "");
  const args = tool.name === "use_mcp_tool" ? body : "";
  const hidden = hasHiddenCharacters(payload) || hasHiddenCharacters(args);
  // In Restricted Mode the decision is "not trusted"; the part to look at comes from the trusted view.
  const spans = tool.decision?.spans ?? tool.decision?.ifTrusted?.spans;
  const danger = callDangers(tool.decision);
  return (
    <div className="tg-what">
      <div className="tg-label">
        <Icon name={s.icon} /> {s.title}
      </div>
      {s.family === "command" ? (
        <CommandText text={payload} spans={spans} label="Exactly what will run" />
      ) : (
        <pre className="tg-command" aria-label="Exactly what will run">
          <VisibleText text={payload} options={COMMAND_VISIBILITY} />
        </pre>
      )}
      {s.family === "command" && spans?.length && markedText(payload, spans).join("").trim() !== payload.trim() ? (
        <div className="tg-muted tg-small tg-mark-legend">
          <mark className="tg-decisive tg-legend-swatch">marked</mark> the part that asks
        </div>
      ) : null}
      {tool.cwd !== undefined && s.family === "command" ? (
        <div className="tg-cwd" aria-label="Working directory">
          <span className="tg-muted">in</span> <VisibleText text={tool.cwd} options={COMMAND_VISIBILITY} />
        </div>
      ) : null}
      {s.family === "command" && (tool.sandboxOutlook !== undefined || tool.sandboxed === false) ? (
        <div className="tg-label" aria-label="OS sandbox">
          {sandboxLine(tool)}
        </div>
      ) : null}
      {tool.name === "use_mcp_tool" ? (
        <>
          <div className="tg-label">Arguments</div>
          <pre className="tg-pre">
            <VisibleText text={prettyArguments(args)} options={ARGUMENT_VISIBILITY} />
          </pre>
        </>
      ) : null}
      {s.family === "edit" && p.path !== undefined ? <WhereItLands path={p.path} target={tool.target} /> : null}
      {s.family === "edit" ? <EditPreview message={message} tool={tool} full={danger.includes("protected")} /> : null}
      {hidden ? (
        <div className="tg-warning" role="note">
          <Icon name="warning" /> This contains invisible, control or look-alike characters. They are shown as marked
          symbols; hover one to see what it is.
        </div>
      ) : null}
    </div>
  );
}

export function ApprovalCard({ message }: { readonly message: TaskMessage }) {
  const tool = message.tool!;
  const [feedback, setFeedback] = useState("");
  const [scope, setScope] = useState<RuleScope>("task");
  const { busy, error, answer: send } = useAnswer(message.id);
  const streaming = tool.status === "streaming";
  const suggestion = tool.decision?.suggestion?.trim();
  const family = toolSummary(tool, toolBody(message)).family;
  const risky = callDangers(tool.decision).length > 0;
  // An untrusted-content ask names the sources behind it; the person may vouch for them for this task.
  const sources = tool.decision?.rule === "untrusted-content" ? (tool.decision.taintedBy ?? []) : [];

  /** Either answer carries the feedback, when there is any. */
  const answer = (kind: AskResponse["kind"], remember?: RememberRule) => {
    const text = feedback.trim();
    return send(text ? { kind, text } : { kind }, remember);
  };

  return (
    <AskCard
      className={`tg-approval${risky ? " tg-approval-risky" : ""}`}
      icon="shield"
      title={QUESTION[family]}
      error={error}
      onEscape={busy ? undefined : () => void answer("reject")}
    >
      <WhatWillRun message={message} tool={tool} />
      <WhyItAsks decision={tool.decision} />
      {streaming ? (
        <div className="tg-note">
          <Icon name="loading" spin /> Still receiving the call. You can approve once it is complete.
        </div>
      ) : null}
      <TextArea
        label="Feedback for the agent (optional, sent with either answer)"
        placeholder="Feedback for the agent (optional)"
        value={feedback}
        onChange={setFeedback}
        onKeyDown={(e) => {
          // Ctrl+Enter (Cmd+Enter) approves with the feedback; Escape (on the card) rejects with it.
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !busy && !streaming) {
            e.preventDefault();
            void answer("approve");
          }
        }}
        rows={1}
      />
      <div className="tg-actions tg-answer">
        {/* A risky call: Reject carries the primary style, Approve a warning tone. */}
        <Button
          appearance={risky ? "secondary" : "primary"}
          className={risky ? "tg-approve-risky" : undefined}
          icon={risky ? "warning" : undefined}
          onClick={() => void answer("approve")}
          disabled={busy || streaming}
        >
          Approve
        </Button>
        {sources.length > 0 ? (
          <Button
            appearance="secondary"
            onClick={() => void answer("trustSource")}
            disabled={busy || streaming}
            title={`Content from ${sources.join(", ")} stops counting as untrusted for the rest of this task`}
          >
            {sources.length === 1 ? "Trust this source for this task" : "Trust these sources for this task"}
          </Button>
        ) : null}
        <Button appearance={risky ? "primary" : "secondary"} onClick={() => void answer("reject")} disabled={busy}>
          Reject
        </Button>
        {tool.sandboxOutlook?.canRunOutside === true ? (
          <Button
            appearance="secondary"
            icon="warning"
            title="Approve and run this command without the OS sandbox: it can then write anywhere you can and reach the network"
            onClick={() => void answer("approveOutsideSandbox")}
            disabled={busy || streaming}
          >
            Run outside the sandbox
          </Button>
        ) : null}
        <span className="tg-muted tg-small tg-keys" title="Escape rejects; Ctrl+Enter in the feedback box approves">
          Esc rejects
        </span>
      </div>
      {suggestion ? (
        <fieldset className="tg-always">
          <legend>Remember this decision</legend>
          <RadioGroup label="For" value={scope} options={SCOPES} onChange={setScope} />
          <div className="tg-rule-preview">
            <span className="tg-label">Rule</span>
            <code className="tg-visible">
              <VisibleText text={suggestion} options={COMMAND_VISIBILITY} />
            </code>
            <span className="tg-muted">{whereSaved(scope, tool.name, suggestion)}</span>
          </div>
          <div className="tg-actions">
            <Button
              appearance="secondary"
              icon="check-all"
              onClick={() => void answer("approve", { effect: "allow", scope })}
              disabled={busy || streaming}
            >
              Always allow
            </Button>
            <Button
              appearance="secondary"
              icon="circle-slash"
              onClick={() => void answer("reject", { effect: "deny", scope })}
              disabled={busy}
            >
              Always deny
            </Button>
          </div>
        </fieldset>
      ) : (
        <div className="tg-muted tg-small">
          No narrower rule would allow just this call, so it will ask again next time.
        </div>
      )}
    </AskCard>
  );
}
