/**
 * The webview root: a pure view of host state plus the person's intents. Three tabs (Chat, MCP, Rules), the
 * Restricted Mode banner, error toasts, and the in-webview shortcut that toggles auto-approve.
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import type { WebviewBootstrap } from "../../src/shared/protocol";
import { ChatView } from "./chat/ChatView";
import { Button, Icon } from "./components";
import { McpView } from "./mcp/McpView";
import { RulesView } from "./rules/RulesView";
import { RestrictedBanner } from "./RestrictedBanner";
import type { Bridge } from "./state/bridge";
import { BridgeContext } from "./state/context";
import type { Store } from "./state/store";
import { isToggleShortcut } from "./util/shortcut";

type Tab = "chat" | "mcp" | "rules";
const TABS: readonly Tab[] = ["chat", "mcp", "rules"];
const TAB_LABEL: Readonly<Record<Tab, string>> = { chat: "Chat", mcp: "MCP servers", rules: "Rules" };
const TAB_ICON: Readonly<Record<Tab, string>> = { chat: "comment-discussion", mcp: "server", rules: "list-unordered" };

interface UiState {
  tab: Tab;
  menuOpen: boolean;
}

export function App({
  store,
  bridge,
}: {
  readonly store: Store;
  readonly bridge: Bridge;
  readonly bootstrap?: WebviewBootstrap;
}) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const saved = bridge.getUiState<UiState>();
  const [tab, setTabState] = useState<Tab>(saved.tab && TABS.includes(saved.tab) ? saved.tab : "chat");
  const [menuOpen, setMenuOpenState] = useState(saved.menuOpen === true);
  const [focusInputSeq, setFocusInputSeq] = useState(0);
  const [errors, setErrors] = useState<string[]>([]);

  const setTab = (t: Tab) => {
    setTabState(t);
    bridge.setUiState({ tab: t });
  };
  const setMenuOpen = (o: boolean) => {
    setMenuOpenState(o);
    bridge.setUiState({ menuOpen: o });
  };

  useEffect(() => bridge.onError((e) => setErrors((list) => [...list.slice(-2), e])), [bridge]);

  // Tell the host where keyboard focus is: the answer keybindings apply while it is in this panel. The host's
  // context key trails the focus by a round trip through the extension host; once the host answers, the root's
  // `data-answer-keys` says which focus the keybindings now see (the latest answer wins; e2e waits on it).
  useEffect(() => {
    let sent = 0;
    const send = (focused: boolean) => {
      const seq = ++sent;
      void bridge.request({ type: "focusChanged", focused }).then((result) => {
        if (seq === sent && result.ok) document.documentElement.dataset["answerKeys"] = focused ? "on" : "off";
      });
    };
    const onFocus = () => send(true);
    const onBlur = () => send(false);
    window.addEventListener("focus", onFocus);
    window.addEventListener("blur", onBlur);
    if (document.hasFocus()) send(true);
    return () => {
      window.removeEventListener("focus", onFocus);
      window.removeEventListener("blur", onBlur);
    };
  }, [bridge]);

  // The host revealing a part of the panel (status bar click, palette commands).
  useEffect(() => {
    const r = state.reveal;
    if (!r) return;
    if (r.target === "mcp" || r.target === "rules") setTab(r.target);
    else if (r.target === "askFeedback") {
      setTab("chat");
      // After the chat tab rendered: the waiting card's feedback box.
      setTimeout(() => document.querySelector<HTMLTextAreaElement>(".tg-approval textarea")?.focus(), 0);
    } else {
      setTab("chat");
      if (r.target === "autoApprove") setMenuOpen(true);
      else {
        // "New Task": the person is about to type a task; the dropdown would stand between them and the input.
        setMenuOpen(false);
        setFocusInputSeq((n) => n + 1);
      }
    }
  }, [state.reveal?.seq]);

  // The toggle shortcut while focus is inside the webview. It writes the absolute value it shows, so if the
  // workbench's keybinding also fired for the same key press, both write the same value.
  const settings = state.settings;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!settings || !isToggleShortcut(e)) return;
      e.preventDefault();
      void bridge.request({
        type: "setSetting",
        change: { key: "autoApprove.enabled", value: !settings.autoApprove.enabled },
      });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [bridge, settings]);

  if (!state.connected || !settings || !state.mcp) {
    return (
      <div className="tg-loading" role="status">
        <Icon name="loading" spin /> Connecting to Toolgate…
      </div>
    );
  }

  return (
    <BridgeContext.Provider value={bridge}>
      <div className="tg-app">
        <div className="tg-tabs" role="tablist" aria-label="Toolgate">
          {TABS.map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              id={`tg-tab-${t}`}
              aria-selected={tab === t}
              aria-controls={`tg-panel-${t}`}
              tabIndex={tab === t ? 0 : -1}
              className="tg-tab"
              onClick={() => setTab(t)}
              onKeyDown={(e) => {
                if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
                  const step = e.key === "ArrowRight" ? 1 : TABS.length - 1;
                  const next = TABS[(TABS.indexOf(t) + step) % TABS.length]!;
                  setTab(next);
                  document.getElementById(`tg-tab-${next}`)?.focus();
                }
              }}
            >
              <Icon name={TAB_ICON[t]} /> {TAB_LABEL[t]}
            </button>
          ))}
        </div>
        {!settings.workspaceTrusted ? <RestrictedBanner /> : null}
        {settings.errors.length ? (
          <div className="tg-danger tg-settings-errors" role="alert">
            <div>
              <Icon name="error" /> Your Toolgate settings have {settings.errors.length === 1 ? "an error" : "errors"},
              so nothing is auto-approved until {settings.errors.length === 1 ? "it is" : "they are"} fixed:
            </div>
            <ul>
              {settings.errors.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
            <Button appearance="secondary" icon="gear" onClick={() => bridge.post({ type: "openSettings" })}>
              Open settings
            </Button>
          </div>
        ) : null}
        {settings.ignoredWorkspaceKeys.length ? (
          <div className="tg-note" role="note">
            <Icon name="info" /> This workspace&rsquo;s settings try to set {settings.ignoredWorkspaceKeys.join(", ")}.
            Toolgate ignores them: a workspace may only add deny and ask rules.
          </div>
        ) : null}
        {errors.length ? (
          <div className="tg-toasts" role="alert">
            {errors.map((e, i) => (
              <div key={i} className="tg-toast">
                <Icon name="error" /> <span>{e}</span>
              </div>
            ))}
            <Button appearance="icon" icon="close" label="Dismiss" onClick={() => setErrors([])} />
          </div>
        ) : null}
        <div role="tabpanel" id={`tg-panel-${tab}`} aria-labelledby={`tg-tab-${tab}`} className="tg-panel">
          {tab === "chat" ? (
            <ChatView
              task={state.task}
              settings={settings}
              agentAvailable={state.agentAvailable}
              menuOpen={menuOpen}
              onMenuOpenChange={setMenuOpen}
              focusInputSeq={focusInputSeq}
              history={state.history}
              model={state.model}
              presetOffer={state.presetOffer}
            />
          ) : tab === "mcp" ? (
            <McpView mcp={state.mcp} useMcp={settings.autoApprove.actions.useMcp} />
          ) : (
            <RulesView rules={state.rules} />
          )}
        </div>
      </div>
    </BridgeContext.Provider>
  );
}
