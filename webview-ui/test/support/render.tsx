/**
 * Renders webview components the way the app does: inside BridgeContext, with a fake VS Code API that
 * records what the webview posts, and a Store whose frames run synchronously.
 */
import "./shims";
import { act, render } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import type { TaskMessage, ToolInfo } from "../../../src/shared/messages";
import type { HostToWebview, SettingsView, WebviewToHost } from "../../../src/shared/protocol";
import { Bridge, type VsCodeApi } from "../../src/state/bridge";
import { BridgeContext } from "../../src/state/context";
import { Store } from "../../src/state/store";

export function fakeApi() {
  const posted: WebviewToHost[] = [];
  let ui: unknown;
  const api: VsCodeApi = {
    postMessage: (m) => void posted.push(m as WebviewToHost),
    getState: () => ui,
    setState: (s) => {
      ui = s;
    },
  };
  return { api, posted };
}

export function setup() {
  const { api, posted } = fakeApi();
  const store = new Store((fn) => fn());
  const bridge = new Bridge(api, store);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>
  );
  const view = (ui: ReactElement) => render(ui, { wrapper });
  /** The host answering the last request. */
  const reply = async (ok: boolean, error?: string) => {
    const last = [...posted].reverse().find((m) => "requestId" in m) as { requestId: number } | undefined;
    if (!last) throw new Error("no request was posted");
    // async act: the component awaits the result, so its follow-up state change lands in a microtask
    await act(async () =>
      store.receive({ type: "result", requestId: last.requestId, ok, ...(error ? { error } : {}) }),
    );
  };
  const host = (m: HostToWebview) => act(() => store.receive(m));
  const lastPosted = () => posted[posted.length - 1];
  /** Posted messages without request ids (they are random), for exact comparisons. */
  const intents = () =>
    posted.map((m) => ("requestId" in m ? (({ requestId: _r, ...rest }) => rest)(m) : m) as Record<string, unknown>);
  return { api, posted, store, bridge, view, reply, host, lastPosted, intents };
}

let nextId = 1;
export function message(m: Partial<TaskMessage> & Pick<TaskMessage, "kind">): TaskMessage {
  return { id: nextId++, ts: 1_700_000_000_000, role: "say", text: "", partial: false, ...m };
}

export function tool(name: string, params: Record<string, string>, more: Partial<ToolInfo> = {}): ToolInfo {
  return { name, params, status: "done", ...more };
}

export function settingsView(
  over: Partial<SettingsView> = {},
  aa: Partial<SettingsView["autoApprove"]> = {},
  actions: Partial<SettingsView["autoApprove"]["actions"]> = {},
): SettingsView {
  return {
    mode: "normal",
    workspaceTrusted: true,
    errors: [],
    ignoredWorkspaceKeys: [],
    toggleShortcut: "Ctrl+Alt+A",
    ...over,
    autoApprove: {
      enabled: true,
      all: false,
      maxRequests: 0,
      maxCost: 0,
      ...aa,
      actions: {
        readFiles: true,
        readFilesExternally: false,
        editFiles: false,
        editFilesExternally: false,
        executeSafeCommands: true,
        executeInSandbox: false,
        executeAllCommands: false,
        useMcp: false,
        webFetch: false,
        ...actions,
      },
    },
  };
}

/** Sets a field's value and fires `change`, as a person committing an edit (Enter or blur) does. */
export function commitValue(el: Element, value: string): void {
  act(() => {
    (el as HTMLElement & { value: string }).value = value;
    el.dispatchEvent(new Event("change"));
  });
}

/** Reads the `disabled` property (what the element does), not the attribute. */
export function isDisabled(el: Element): boolean {
  return (el as HTMLElement & { disabled: boolean }).disabled === true;
}
