/**
 * A failed model request with its automatic retries, as one row: while a retry is due it counts down
 * ("Retrying in 8 s… (attempt 2 of 6)") with "Retry now" and "Stop"; once the retries are used up it says how
 * many attempts were made, and the docked card asks whether to try again.
 */
import { useEffect, useState } from "react";
import type { TaskMessage } from "../../../src/shared/messages";
import { AskError, useAnswer } from "../chat/AskCard";
import { Button, Icon, Tag } from "../components";
import { plural, seconds } from "../util/counts";

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

function Countdown({ message, at }: { readonly message: TaskMessage; readonly at: number }) {
  const { busy, error, answer } = useAnswer(message.id);
  const now = useNow(true);
  const r = message.retry!;
  const left = at - now;
  return (
    <>
      <div className="tg-retry-status" role="status">
        {left > 0 ? `Retrying in ${seconds(left)}…` : "Retrying…"} (attempt {r.attempt} of {r.of})
      </div>
      <div className="tg-actions">
        <Button appearance="secondary" icon="refresh" disabled={busy} onClick={() => void answer({ kind: "approve" })}>
          Retry now
        </Button>
        <Button
          appearance="secondary"
          icon="debug-stop"
          disabled={busy}
          onClick={() => void answer({ kind: "reject" })}
        >
          Stop
        </Button>
      </div>
      <AskError error={error} />
    </>
  );
}

export function RetryRow({ message: m }: { readonly message: TaskMessage }) {
  const r = m.retry!;
  const counting = r.at !== undefined && m.askState === "pending";
  const waitingBelow = !counting && m.role === "ask" && m.askState === "pending";
  return (
    <div className="tg-row tg-error tg-retry">
      <div className="tg-row-head">
        <Icon name={counting ? "sync" : "error"} spin={counting} />
        <span className="tg-title">{counting ? "The model did not answer" : "The model request failed"}</span>
        {!counting ? <Tag tone="neutral">{plural(r.attempt, "attempt")}</Tag> : null}
        {waitingBelow ? <Tag tone="warn">Waiting for you</Tag> : null}
      </div>
      {/* The docked card shows the message of a pending final failure; the row does not repeat it. */}
      {waitingBelow ? null : <div className="tg-prose tg-retry-reason">{m.text}</div>}
      {counting ? <Countdown message={m} at={r.at!} /> : null}
    </div>
  );
}
