/**
 * "Why it asks" on the approval card: the gate's reason in plain words (code rendered, no raw backticks), the
 * rule that decided in a smaller line, the risks that make Approve a second-look button, and in Restricted Mode
 * the call's own risks — what the gate would say once the folder is trusted — so "not trusted" never hides them.
 * Restricted Mode itself is named once, by the panel's banner: the card only points at it.
 */
import type { CallDanger, Decision } from "../../../src/shared/messages";
import { Icon } from "../components";
import { InlineCode, sentence } from "./InlineCode";

export const DANGER_TEXT: Readonly<Record<CallDanger, string>> = {
  deletes: "Deletes files",
  outside: "Reaches outside the workspace",
  protected: "Writes a protected path",
  unparseable: "Not fully understood by the analysis",
};

const UNTRUSTED = "workspace:untrusted";

/** The risks of a call: its own (from the trusted view too, in Restricted Mode). */
export function callDangers(d: Decision | undefined): readonly CallDanger[] {
  if (!d) return [];
  const all = new Set([...(d.danger ?? []), ...(d.ifTrusted?.danger ?? [])]);
  return [...all];
}

function Reason({ d }: { readonly d: Pick<Decision, "reason" | "rule"> }) {
  return (
    <>
      <InlineCode className="tg-why-text" text={sentence(d.reason)} />
      <span className="tg-muted tg-rule">
        rule: <code className="tg-rule-code">{d.rule}</code>
      </span>
    </>
  );
}

export function WhyItAsks({ decision }: { readonly decision: Decision | undefined }) {
  const dangers = callDangers(decision);
  const trusted = decision?.rule === UNTRUSTED ? decision.ifTrusted : undefined;
  return (
    <div className="tg-why" role="group" aria-label="Why it asks">
      <span className="tg-label">Why it asks</span>
      {decision ? (
        decision.rule === UNTRUSTED ? (
          // The banner above says Restricted Mode once for the whole panel; the card points at it.
          <span className="tg-why-text">Every call asks until this folder is trusted (see the banner above).</span>
        ) : (
          <Reason d={decision} />
        )
      ) : (
        <span className="tg-why-text">No rule allows this call without asking.</span>
      )}
      {trusted ? (
        <div className="tg-if-trusted" role="group" aria-label="Its own risks">
          <span className="tg-label">
            {trusted.decision === "allow" ? "Once trusted" : "Its own risks, even once trusted"}
          </span>
          {trusted.decision === "allow" ? (
            <>
              <InlineCode
                className="tg-why-text"
                text={`It would run without asking: ${trusted.reason.replace(/^./, (c) => c.toLowerCase())}.`}
              />
              <span className="tg-muted tg-rule">
                rule: <code className="tg-rule-code">{trusted.rule}</code>
              </span>
            </>
          ) : (
            <Reason d={trusted} />
          )}
        </div>
      ) : null}
      {dangers.length > 0 ? (
        <ul className="tg-dangers" aria-label="Risks">
          {dangers.map((k) => (
            <li key={k} className="tg-danger-chip">
              <Icon name="warning" /> {DANGER_TEXT[k]}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
