/** One compact line under the input: which provider and model new tasks talk to (and what is missing). */
import type { ModelView } from "../../../src/shared/protocol";
import { Icon } from "../components";
import { useBridge } from "../state/context";

export function modelLineText(m: ModelView): string {
  return [m.provider, m.model].filter(Boolean).join(" · ");
}

export function ModelLine({ model }: { readonly model: ModelView | null }) {
  const bridge = useBridge();
  if (!model) return null;
  const text = modelLineText(model);
  return (
    <div className="tg-model-line" role="note" aria-label="Model in use">
      <Icon name={model.configured ? "hubot" : "warning"} />
      <span className="tg-model-name" title={model.endpoint ? `${text} at ${model.endpoint}` : text}>
        {text}
      </span>
      {model.problem ? <span className="tg-model-problem">{model.problem}</span> : null}
      <button
        type="button"
        className="tg-link"
        onClick={() => bridge.post({ type: "firstRun", action: "chooseProvider" })}
      >
        Change
      </button>
    </div>
  );
}
