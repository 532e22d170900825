/**
 * Webview entry (esbuild → dist/webview.js, dist/webview.css). Reads the bootstrap attribute, connects the
 * store to the host's messages, renders, then says `ready`: the host posts nothing before that.
 */
import { createRoot } from "react-dom/client";
import type { HostToWebview, WebviewBootstrap } from "../../src/shared/protocol";
import { App } from "./App";
import { Bridge } from "./state/bridge";
import { Store } from "./state/store";
import "./styles.css";

function readBootstrap(el: HTMLElement): WebviewBootstrap {
  try {
    const parsed: unknown = JSON.parse(el.dataset.bootstrap ?? "{}");
    const surface = (parsed as { surface?: unknown }).surface;
    return { surface: surface === "editor" ? "editor" : "sidebar" };
  } catch {
    return { surface: "sidebar" };
  }
}

function isHostMessage(data: unknown): data is HostToWebview {
  return typeof data === "object" && data !== null && typeof (data as { type?: unknown }).type === "string";
}

const root = document.getElementById("root")!;
const bootstrap = readBootstrap(root);
document.body.classList.add(`tg-surface-${bootstrap.surface}`);
const store = new Store();
const bridge = new Bridge(acquireVsCodeApi(), store);
window.addEventListener("message", (e: MessageEvent) => {
  if (isHostMessage(e.data)) store.receive(e.data);
});
createRoot(root).render(<App store={store} bridge={bridge} bootstrap={bootstrap} />);
bridge.post({ type: "ready" });
