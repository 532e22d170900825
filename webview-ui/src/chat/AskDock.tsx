/**
 * The pending ask, docked between the message list and the input so it is always in view: the approval card
 * for a tool call (or a completion's command), the options of a follow-up question, the limits card, the
 * completion's "accept or reply", or a failed model request's "retry or stop".
 */
import type { TaskMessage } from "../../../src/shared/messages";
import { Button } from "../components";
import { ApprovalCard } from "./ApprovalCard";
import { AskCard, AskError, useAnswer } from "./AskCard";
import { ProtectedChangesCard } from "./ProtectedChangesCard";

/**
 * The ask waiting for the person, if any (the newest one): pending, or a tool call whose arguments are still
 * streaming toward an ask — shown at once, so the person reads what is coming; its card keeps Approve
 * disabled until the call is complete and the ask becomes pending.
 */
export function pendingAsk(messages: readonly TaskMessage[]): TaskMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "ask" || m.askState === "answered") continue;
    if (m.askState === "pending" || m.tool?.status === "streaming") return m;
  }
  return undefined;
}

/** attempt_completion with a command: while its tool is not done, the ask approves the command. */
export function isCommandApproval(m: TaskMessage): boolean {
  return (
    m.kind === "completion" &&
    m.tool !== undefined &&
    (m.tool.status === "pending" || m.tool.status === "streaming") &&
    (m.tool.params.command ?? "") !== ""
  );
}

/** Asks the person answers by typing in the input (the answer is a message). */
export function answersByText(m: TaskMessage | undefined): boolean {
  return m !== undefined && (m.kind === "followup" || (m.kind === "completion" && !isCommandApproval(m)));
}

export function FollowupCard({ message }: { readonly message: TaskMessage }) {
  const { busy, error, answer } = useAnswer(message.id);
  return (
    <AskCard className="tg-followup-card" icon="comment-discussion" title="The agent asks" error={error}>
      <div className="tg-prose">{message.text}</div>
      {message.options?.length ? (
        <div className="tg-options" role="group" aria-label="Suggested answers">
          {message.options.map((o, i) => (
            <Button
              key={i}
              appearance="secondary"
              disabled={busy}
              onClick={() => void answer({ kind: "message", text: o })}
            >
              {o}
            </Button>
          ))}
        </div>
      ) : null}
      <div className="tg-actions">
        <span className="tg-muted tg-small">Or type your answer below.</span>
        <Button appearance="secondary" disabled={busy} onClick={() => void answer({ kind: "approve" })}>
          Skip
        </Button>
      </div>
    </AskCard>
  );
}

export function LimitCard({ message }: { readonly message: TaskMessage }) {
  const { busy, error, answer } = useAnswer(message.id);
  return (
    <AskCard className="tg-limit-card" icon="warning" title="Auto-approve limit reached" error={error}>
      <div className="tg-prose">{message.text}</div>
      <div className="tg-actions">
        <Button disabled={busy} onClick={() => void answer({ kind: "resetLimits" })}>
          Reset and continue
        </Button>
        <Button appearance="secondary" disabled={busy} onClick={() => void answer({ kind: "reject" })}>
          Reject this call
        </Button>
      </div>
    </AskCard>
  );
}

export function CompletionCard({ message }: { readonly message: TaskMessage }) {
  const { busy, error, answer } = useAnswer(message.id);
  return (
    <AskCard className="tg-completion-card" icon="check-all" title="The agent says the task is complete" error={error}>
      <div className="tg-actions">
        <Button disabled={busy} onClick={() => void answer({ kind: "approve" })}>
          Accept result
        </Button>
        <span className="tg-muted tg-small">Or type feedback below to continue the task.</span>
      </div>
    </AskCard>
  );
}

export function RetryCard({ message }: { readonly message: TaskMessage }) {
  const { busy, error, answer } = useAnswer(message.id);
  return (
    <AskCard className="tg-retry-card" icon="error" title="The agent stopped" error={error}>
      <div className="tg-prose">{message.text}</div>
      <div className="tg-actions">
        <Button disabled={busy} onClick={() => void answer({ kind: "approve" })}>
          Retry
        </Button>
        <Button appearance="secondary" disabled={busy} onClick={() => void answer({ kind: "reject" })}>
          Stop
        </Button>
      </div>
    </AskCard>
  );
}

export function AskDock({ message }: { readonly message: TaskMessage }) {
  if (message.tool && (message.kind === "tool" || isCommandApproval(message)))
    return <ApprovalCard key={message.id} message={message} />;
  if (message.kind === "followup") return <FollowupCard key={message.id} message={message} />;
  if (message.kind === "limit") return <LimitCard key={message.id} message={message} />;
  if (message.kind === "completion") return <CompletionCard key={message.id} message={message} />;
  if (message.kind === "error") return <RetryCard key={message.id} message={message} />;
  if (message.kind === "protected_changes") return <ProtectedChangesCard key={message.id} message={message} />;
  // An ask of a kind this view does not know: never hide it, offer the plain answers.
  return <GenericAsk key={message.id} message={message} />;
}

function GenericAsk({ message }: { readonly message: TaskMessage }) {
  const { busy, error, answer } = useAnswer(message.id);
  return (
    <section className="tg-card" aria-label="The agent is waiting for you">
      <div className="tg-prose">{message.text}</div>
      <div className="tg-actions">
        <Button disabled={busy} onClick={() => void answer({ kind: "approve" })}>
          Approve
        </Button>
        <Button appearance="secondary" disabled={busy} onClick={() => void answer({ kind: "reject" })}>
          Reject
        </Button>
      </div>
      <AskError error={error} />
    </section>
  );
}
