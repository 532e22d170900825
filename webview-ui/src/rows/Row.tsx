/**
 * One message of the task, by kind. Memoised on the message object: the store replaces only the messages a
 * delta touched, so while one row streams the others do not re-render.
 */
import { memo } from "react";
import type { TaskMessage } from "../../../src/shared/messages";
import { Icon, Tag } from "../components";
import { textTail } from "../state/store";
import type { Usage } from "../chat/turnUsage";
import { LongText } from "./LongText";
import { ProtectedChangeList } from "./ProtectedChangeList";
import { RestoreControls } from "./RestoreControls";
import { RetryRow } from "./RetryRow";
import { StatusTag } from "./StatusTag";
import { toolBody, toolSummary } from "./toolSummary";
import { ToolRow } from "./ToolRow";
import { COMMAND_VISIBILITY, VisibleText } from "./VisibleText";

function Head({
  icon,
  title,
  spin,
  children,
}: {
  readonly icon: string;
  readonly title: string;
  readonly spin?: boolean;
  readonly children?: React.ReactNode;
}) {
  return (
    <div className="tg-row-head">
      <Icon name={icon} spin={spin} />
      <span className="tg-title">{title}</span>
      {children}
    </div>
  );
}

/** The usual row: a head (icon, title, extras such as a state tag) above the message's text, then any extras. */
function HeadedRow({
  className,
  icon,
  title,
  text,
  head,
  children,
}: {
  readonly className: string;
  readonly icon: string;
  readonly title: string;
  readonly text: string;
  readonly head?: React.ReactNode;
  readonly children?: React.ReactNode;
}) {
  return (
    <div className={`tg-row ${className}`}>
      <Head icon={icon} title={title}>
        {head}
      </Head>
      <LongText text={text} className="tg-prose" />
      {children}
    </div>
  );
}

function AskState({ message }: { readonly message: TaskMessage }) {
  if (message.askState === "pending") return <Tag tone="warn">Waiting for you</Tag>;
  if (message.askState === "answered") return <Tag tone="ok">Answered</Tag>;
  return null;
}

function usd(n: number): string {
  return n < 0.01 && n > 0 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}

function usageText(u: Usage): string {
  return `${u.inputTokens.toLocaleString("en-US")} in · ${u.outputTokens.toLocaleString("en-US")} out · ${usd(u.costUsd)}`;
}

/** The tokens and cost of the model turn this row ends (the turn's request has no row of its own). */
function TurnUsage({ usage }: { readonly usage: Usage }) {
  return (
    <div className="tg-turn-usage" aria-label="Tokens and cost of this model turn">
      <Icon name="pulse" /> {usageText(usage)}
    </div>
  );
}

/**
 * The ask docked under the list (the same test as AskDock's `pendingAsk`): its card shows what it asks, so its
 * row shows only what it is. A completion is the exception: its card holds only the answers, the row its text.
 */
function isDocked(m: TaskMessage): boolean {
  if (m.role !== "ask" || m.askState === "answered" || m.kind === "completion") return false;
  if (m.kind === "error" && m.retry) return false; // RetryRow shows its own docked state
  return m.askState === "pending" || m.tool?.status === "streaming";
}

const DOCKED_TITLE: Partial<Record<TaskMessage["kind"], [icon: string, title: string]>> = {
  followup: ["comment-discussion", "Question"],
  limit: ["warning", "Auto-approve limit reached"],
  error: ["error", "The agent stopped"],
};

/** A docked ask's row: what it is and that it waits, without repeating the card's content. */
function DockedRow({ message: m }: { readonly message: TaskMessage }) {
  const tool = m.tool;
  if (tool && m.kind === "tool") {
    const s = toolSummary(tool, toolBody(m));
    // A command is the card's whole content: shown there once, in full (a first line alone could mislead).
    const subject = s.family === "command" ? undefined : s.subject;
    return (
      <div className={`tg-row tg-tool tg-ask tg-docked tg-family-${s.family}`}>
        <div className="tg-row-head">
          <Icon name={s.icon} />
          <span className="tg-title">{s.title}</span>
          {subject ? (
            <VisibleText className="tg-subject" text={firstLine(subject)} options={COMMAND_VISIBILITY} />
          ) : null}
          <StatusTag tool={tool} />
        </div>
        {tool.result ? (
          // A first run that already ended (the OS sandbox stopped it; a re-run is asked about below).
          <div className="tg-small tg-docked-result">{firstLine(tool.result)}</div>
        ) : null}
        <div className="tg-muted tg-small">Shown in full in the card below.</div>
      </div>
    );
  }
  const [icon, title] = DOCKED_TITLE[m.kind] ?? ["question", "The agent is waiting for you"];
  return (
    <div className={`tg-row tg-docked tg-${m.kind}`}>
      <Head icon={icon} title={title}>
        <Tag tone="warn">Waiting for you</Tag>
      </Head>
      <div className="tg-muted tg-small">Answer in the card below.</div>
    </div>
  );
}

export function rowLabel(m: TaskMessage): string {
  switch (m.kind) {
    case "user":
      return "Your message";
    case "text":
      return "Agent";
    case "reasoning":
      return "Agent reasoning";
    case "tool":
      return m.tool ? `Tool call ${m.tool.name}, ${m.tool.status}` : "Tool call";
    case "command_output":
      return "Command output";
    case "followup":
      return "Question from the agent";
    case "completion":
      return "Task result";
    case "api_request":
      return "Model request";
    case "limit":
      return "Auto-approve limit reached";
    case "error":
      return "Error";
    case "info":
      return "Notice";
    case "protected_changes":
      return "Protected paths changed by a sandboxed command";
  }
}

function RowImpl({ message, usage }: { readonly message: TaskMessage; readonly usage?: Usage }) {
  if (!usage) return <MessageRow message={message} />;
  return (
    <>
      <MessageRow message={message} />
      <TurnUsage usage={usage} />
    </>
  );
}

function MessageRow({ message: m }: { readonly message: TaskMessage }) {
  if (isDocked(m)) return <DockedRow message={m} />;
  switch (m.kind) {
    case "user":
      return <HeadedRow className="tg-user" icon="account" title="You" text={m.text} />;
    case "text":
      return (
        <div className="tg-row tg-text">
          <LongText text={m.text} className="tg-prose" />
          {m.partial ? <span className="tg-cursor" aria-hidden="true" /> : null}
        </div>
      );
    case "reasoning":
      return (
        <details className="tg-row tg-reasoning">
          <summary>
            <Icon name="lightbulb" spin={false} /> Reasoning{m.partial ? "…" : ""}
          </summary>
          <LongText text={m.text} className="tg-prose tg-muted" />
        </details>
      );
    case "tool":
      return <ToolRow message={m} />;
    case "command_output":
      return (
        <div className="tg-row tg-command-output">
          <Head icon="output" title="Output" spin={false}>
            {m.partial ? (
              <Tag tone="info">
                <Icon name="loading" spin /> live
              </Tag>
            ) : null}
          </Head>
          <LongText text={m.text} tail={textTail(m)} keep="tail" className="tg-output" />
        </div>
      );
    case "followup":
      return (
        <HeadedRow
          className="tg-followup"
          icon="comment-discussion"
          title="Question"
          text={m.text}
          head={<AskState message={m} />}
        >
          {m.options?.length ? (
            <ul className="tg-options-list" aria-label="Suggested answers">
              {m.options.map((o, i) => (
                <li key={i}>{o}</li>
              ))}
            </ul>
          ) : null}
        </HeadedRow>
      );
    case "completion":
      return (
        <HeadedRow className="tg-completion" icon="check-all" title="Task completed" text={m.text}>
          {m.tool?.params.command ? (
            <pre className="tg-command">
              <VisibleText text={m.tool.params.command} options={COMMAND_VISIBILITY} />
            </pre>
          ) : null}
          {/* Its command may have changed files: recorded like any command, restorable like any row. */}
          <RestoreControls message={m} />
        </HeadedRow>
      );
    case "api_request":
      return (
        <div className="tg-row tg-api">
          <Head
            icon={m.partial ? "loading" : "pulse"}
            spin={m.partial}
            title={m.partial ? "Waiting for the model…" : "Model request"}
          >
            {m.usage ? <span className="tg-muted">{usageText(m.usage)}</span> : null}
          </Head>
        </div>
      );
    case "limit":
      return (
        <div className="tg-row tg-limit">
          <Head icon="warning" title="Auto-approve limit reached">
            <AskState message={m} />
          </Head>
          <div className="tg-prose">{m.text}</div>
        </div>
      );
    case "error":
      if (m.retry) return <RetryRow message={m} />;
      return <HeadedRow className="tg-error" icon="error" title="Error" text={m.text} />;
    case "info":
      return (
        <div className="tg-row tg-info">
          <Icon name="info" /> <span className="tg-muted">{m.text}</span>
        </div>
      );
    case "protected_changes":
      return (
        <div className="tg-row tg-protected">
          <Head icon="shield" title="Protected paths changed">
            <AskState message={m} />
          </Head>
          <ProtectedChangeList changes={m.protectedChanges ?? []} />
        </div>
      );
  }
}

export const Row = memo(RowImpl);

/** The first line of a subject, marked as cut when there is more (the card shows all of it). */
function firstLine(text: string): string {
  const nl = text.indexOf("\n");
  return nl < 0 ? text : `${text.slice(0, nl)} …`;
}
