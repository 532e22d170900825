/**
 * Shown instead of the empty-chat text while no model is configured: what is missing, and one button per step
 * (choose a provider, set its key, open the settings), plus the getting-started walkthrough.
 */
import type { ModelView } from "../../../src/shared/protocol";
import { Button, Icon } from "../components";
import { useBridge } from "../state/context";
import { useId } from "react";

export function FirstRunCard({ model }: { readonly model: ModelView }) {
  const bridge = useBridge();
  const titleId = useId();
  const needsKey = model.provider === "Anthropic" || /API key/.test(model.problem ?? "");
  return (
    <section className="tg-card tg-first-run" aria-labelledby={titleId}>
      <h2 id={titleId} className="tg-card-title">
        <Icon name="plug" /> Connect a model to start
      </h2>
      <p className="tg-prose">
        {model.problem ?? "No model is configured."} Toolgate&rsquo;s agent needs one model: an OpenAI-compatible server
        (OpenAI, OpenRouter, Ollama, LM Studio), Anthropic, or a chat model installed in VS Code.
      </p>
      <div className="tg-first-run-actions">
        <Button icon="hubot" onClick={() => bridge.post({ type: "firstRun", action: "chooseProvider" })}>
          Choose a provider
        </Button>
        <Button
          appearance={needsKey ? "primary" : "secondary"}
          icon="key"
          onClick={() => bridge.post({ type: "firstRun", action: "setApiKey" })}
        >
          Set API key
        </Button>
        <Button
          appearance="secondary"
          icon="gear"
          onClick={() => bridge.post({ type: "firstRun", action: "openSettings" })}
        >
          Open settings
        </Button>
      </div>
      <button
        type="button"
        className="tg-link"
        onClick={() => bridge.post({ type: "firstRun", action: "walkthrough" })}
      >
        Open the getting-started walkthrough
      </button>
    </section>
  );
}
