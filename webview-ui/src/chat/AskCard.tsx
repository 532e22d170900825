/**
 * What every docked ask card shares: sending the person's answer (an intent the host's task accepts exactly
 * once, or refuses with a message), and the card's frame — a titled section with the refusal shown below.
 * Which buttons a card offers, and what each answers, stays with the card.
 *
 * An arriving card takes the keyboard focus (once, when it appears), so the person can answer by keys at once
 * and a screen reader lands on it; Escape anywhere in it gives the card's "no" answer when it has one.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
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
  onEscape,
  children,
}: {
  /** Added to `tg-card`. */
  readonly className: string;
  readonly icon: string;
  readonly title: ReactNode;
  readonly error: string | undefined;
  /** The answer Escape gives (an approval card's Reject); none: Escape does nothing here. */
  readonly onEscape?: () => void;
  readonly children: ReactNode;
}) {
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);
  // Focus moves to the ask when it arrives; the card is keyed by message, so this runs once per ask.
  useEffect(() => {
    ref.current?.focus({ preventScroll: false });
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Escape" || !onEscape || e.defaultPrevented) return;
    e.preventDefault();
    e.stopPropagation();
    onEscape();
  };
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className={`tg-card ${className}`}
      aria-labelledby={titleId}
      aria-describedby={`${titleId}-required`}
      onKeyDown={onKeyDown}
    >
      <span id={`${titleId}-required`} className="tg-sr-only">
        Action required.
      </span>
      <h2 id={titleId} className="tg-card-title">
        <Icon name={icon} /> {title}
      </h2>
      {children}
      <AskError error={error} />
    </section>
  );
}
