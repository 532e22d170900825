/**
 * The first-run preset card: the three presets, each with one sentence of what it means, the host's
 * suggestion preselected ("Sandboxed autonomy" when the sandbox works). "Use this preset" sends the choice;
 * "Decide later" keeps the settings as they are. The host writes the settings and stops offering the card;
 * this view decides nothing (a preset is only its switches, which the gate reads).
 */
import { useId, useState } from "react";
import type { PresetOffer } from "../../../src/shared/protocol";
import { PRESETS, type PresetName } from "../../../src/shared/presets";
import { Button, Icon } from "../components";
import { useBridge } from "../state/context";
import { AskError } from "./AskCard";

export function PresetCard({ offer }: { readonly offer: PresetOffer }) {
  const bridge = useBridge();
  const titleId = useId();
  const group = useId();
  const [choice, setChoice] = useState<PresetName>(offer.suggested);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const send = async (preset: PresetName | null) => {
    setBusy(true);
    setError(undefined);
    const r = await bridge.request({ type: "choosePreset", preset });
    setBusy(false);
    if (!r.ok) setError(r.error ?? "The preset was not saved.");
  };
  return (
    <section className="tg-card tg-first-run tg-preset-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="tg-card-title">
        <Icon name="shield" /> How much may the agent do without asking?
      </h2>
      <div role="radiogroup" aria-labelledby={titleId} className="tg-preset-list">
        {PRESETS.map((p) => {
          const noSandbox = p.name === "Sandboxed autonomy" && !offer.sandboxWorks;
          const meaningId = `${group}-${p.name}`;
          return (
            <label key={p.name} className={`tg-radio tg-preset${choice === p.name ? " tg-preset-chosen" : ""}`}>
              <input
                type="radio"
                className="tg-radio-input"
                name={group}
                value={p.name}
                checked={choice === p.name}
                disabled={busy}
                aria-describedby={meaningId}
                onChange={() => setChoice(p.name)}
              />
              <span className="tg-radio-box" aria-hidden="true" />
              <span>
                <span className="tg-preset-name">{p.name}</span>
                {p.name === offer.suggested ? <span className="tg-muted"> (suggested)</span> : null}
                <span id={meaningId} className="tg-preset-meaning">
                  {p.meaning}
                  {noSandbox
                    ? ` No OS sandbox works here${offer.sandboxReason ? ` (${offer.sandboxReason})` : ""}, so its commands will ask.`
                    : ""}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      <AskError error={error} />
      <div className="tg-first-run-actions">
        <Button disabled={busy} onClick={() => void send(choice)}>
          Use this preset
        </Button>
        <Button appearance="secondary" disabled={busy} onClick={() => void send(null)}>
          Decide later
        </Button>
      </div>
      <p className="tg-muted tg-small">
        Saved in your user settings; change it any time in the auto-approve menu, or with “Toolgate: Choose an Approval
        Preset”.
      </p>
    </section>
  );
}
