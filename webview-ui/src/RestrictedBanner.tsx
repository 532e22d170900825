/**
 * The Restricted Mode banner: one line, with the way out. "Trust this folder…" opens VS Code's own workspace
 * trust editor (the host runs `workbench.trust.manage`); the webview never changes trust itself.
 */
import { Icon } from "./components";
import { useBridge } from "./state/context";

export function RestrictedBanner() {
  const bridge = useBridge();
  return (
    <div
      className="tg-restricted tg-restricted-line"
      role="note"
      aria-label="Restricted Mode: this folder is not trusted, so nothing is auto-approved and every call asks"
    >
      <Icon name="lock" />
      {/* Short enough to stay whole beside its action at the default side bar width; the label says the rest. */}
      <span
        className="tg-restricted-text"
        title="This folder is not trusted, so nothing is auto-approved: every call asks."
      >
        Restricted Mode
      </span>
      <button type="button" className="tg-link-button" onClick={() => bridge.post({ type: "manageTrust" })}>
        Trust this folder…
      </button>
    </div>
  );
}
