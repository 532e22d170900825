/**
 * The pending ask, docked between the message list and the input so it is always in view: the approval card
 * for a tool call, the options of a follow-up question, or the limits card.
 */
import { useId, useState } from "react";
import type { AskResponse, TaskMessage } from "../../../src/shared/messages";
import { Button, Icon } from "../components";
import { useBridge } from "../state/context";
import { ApprovalCard } from "./ApprovalCard";

/** The ask waiting for the person, if any (the newest pending one). */
export function pendingAsk(messages: readonly TaskMessage[]): TaskMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "ask" && m.askState === "pending") return m;
  }
  return undefined;
}

function useAnswer(messageId: number) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const answer = async (response: AskResponse) => {
    setBusy(true);
    setError(undefined);
    const r = await bridge.request({ type: "answerAsk", messageId, response });
    setBusy(false);
    if (!r.ok) setError(r.error ?? "The answer was not accepted.");
  };
  return { busy, error, answer };
}

export function FollowupCard({ message }: { readonly message: TaskMessage }) {
  const titleId = useId();
  const { busy, error, answer } = useAnswer(message.id);
  return (
    <section className="tg-card tg-followup-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="tg-card-title">
        <Icon name="comment-discussion" /> The agent asks
      </h2>
      <div className="tg-prose">{message.text}</div>
      {message.options?.length ? (
        <div className="tg-options" role="group" aria-label="Suggested answers">
          {message.options.map((o, i) => (
            <Button key={i} appearance="secondary" disabled={busy} onClick={() => void answer({ kind: "message", text: o })}>
              {o}
            </Button>
          ))}
        </div>
      ) : null}
      <div className="tg-muted tg-small">Or type your answer below.</div>
      {error ? (
        <div className="tg-error-text" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}

export function LimitCard({ message }: { readonly message: TaskMessage }) {
  const titleId = useId();
  const { busy, error, answer } = useAnswer(message.id);
  return (
    <section className="tg-card tg-limit-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="tg-card-title">
        <Icon name="warning" /> Auto-approve limit reached
      </h2>
      <div className="tg-prose">{message.text}</div>
      <div className="tg-actions">
        <Button disabled={busy} onClick={() => void answer({ kind: "resetLimits" })}>
          Reset and continue
        </Button>
        <Button appearance="secondary" disabled={busy} onClick={() => void answer({ kind: "reject" })}>
          End task
        </Button>
      </div>
      {error ? (
        <div className="tg-error-text" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}

export function AskDock({ message }: { readonly message: TaskMessage }) {
  if (message.kind === "tool" && message.tool) return <ApprovalCard key={message.id} message={message} />;
  if (message.kind === "followup") return <FollowupCard key={message.id} message={message} />;
  if (message.kind === "limit") return <LimitCard key={message.id} message={message} />;
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
      {error ? <div className="tg-error-text" role="alert">{error}</div> : null}
    </section>
  );
}
