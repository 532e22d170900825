/**
 * What every docked ask card shares: sending the person's answer (an intent the host's task accepts exactly
 * once, or refuses with a message), and the card's frame — a titled section with the refusal shown below.
 * Which buttons a card offers, and what each answers, stays with the card.
 */
import { useId, useState, type ReactNode } from "react";
import type { AskResponse } from "../../../src/shared/messages";
import type { RememberRule } from "../../../src/shared/protocol";
import { Icon } from "../components";
import { useBridge } from "../state/context";

/** `busy` while an answer is on its way (buttons disabled); `error` when the host did not accept it. */
export function useAnswer(messageId: number) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const answer = async (response: AskResponse, remember?: RememberRule) => {
    setBusy(true);
    setError(undefined);
    const r = await bridge.request({ type: "answerAsk", messageId, response, ...(remember ? { remember } : {}) });
    setBusy(false);
    if (!r.ok) setError(r.error ?? "The answer was not accepted.");
  };
  return { busy, error, answer };
}

export function AskError({ error }: { readonly error: string | undefined }) {
  return error ? (
    <div className="tg-error-text" role="alert">
      {error}
    </div>
  ) : null;
}

export function AskCard({
  className,
  icon,
  title,
  error,
  children,
}: {
  /** Added to `tg-card`. */
  readonly className: string;
  readonly icon: string;
  readonly title: ReactNode;
  readonly error: string | undefined;
  readonly children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className={`tg-card ${className}`} aria-labelledby={titleId}>
      <h2 id={titleId} className="tg-card-title">
        <Icon name={icon} /> {title}
      </h2>
      {children}
      <AskError error={error} />
    </section>
  );
}
