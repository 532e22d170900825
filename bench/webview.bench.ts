/**
 * Webview rendering benchmark (jsdom, React production build):
 * 1. render a 2,000-message task from a host snapshot;
 * 2. stream 1 MB into the last row (a command's live output) in 8,000 chunks, one chunk per virtual
 *    millisecond, through the host's real DeltaBatcher (one post per 16 ms) and the webview's real Store,
 *    one React commit per frame.
 * Prints the longest frame (host message → DOM committed), the render (commit) count and bytes posted.
 * Figures, not pass/fail: jsdom has no layout or paint, so frames here are script + DOM work only.
 * React runs its profiling build (production code paths, plus commit counts from <Profiler>).
 */
import { createRequire } from "node:module";
import type * as ReactDomClient from "react-dom/client";
import type * as ReactDom from "react-dom";
import type { MessageDelta as Delta, TaskMessage as Msg } from "../src/shared/messages";
import type { HostToWebview as Host } from "../src/shared/protocol";
import { join } from "node:path";

/** jsdom reads its own files at run time, so it cannot be bundled: load it from node_modules as is. */
interface JsdomModule {
  JSDOM: new (
    html: string,
    options: { pretendToBeVisual: boolean; url: string },
  ) => { window: Window & typeof globalThis };
}
const { JSDOM } = createRequire(join(process.cwd(), "package.json"))("jsdom") as JsdomModule;

const MESSAGES = 2000;
const STREAM_BYTES = 1_000_000;
const CHUNKS = 8000;

function installDom(): void {
  const dom = new JSDOM("<!DOCTYPE html><html><head></head><body><div id=root></div></body></html>", {
    pretendToBeVisual: true,
    url: "http://localhost/",
  });
  const w = dom.window as unknown as Record<string, unknown>;
  const g = globalThis as unknown as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(w)) {
    if (key in g) continue;
    try {
      g[key] = w[key];
    } catch {
      // read-only globals stay Node's
    }
  }
  g.window = dom.window;
  g.document = dom.window.document;
  Object.defineProperty(globalThis, "navigator", { value: dom.window.navigator, configurable: true });
  (dom.window as unknown as { matchMedia: unknown }).matchMedia = () => ({
    matches: false,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
  });
  g.matchMedia = (dom.window as unknown as { matchMedia: unknown }).matchMedia;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  process.env.NODE_ENV = "production";
  installDom();
  const React = await import("react");
  // The profiling build: production speed, but <Profiler> reports commits.
  // @ts-expect-error -- react-dom ships profiling.js without its own types; it is react-dom/client + flushSync
  const { createRoot, flushSync } = (await import("react-dom/profiling")) as typeof ReactDomClient & typeof ReactDom;
  const { App } = await import("../webview-ui/src/App");
  const { Store } = await import("../webview-ui/src/state/store");
  const { Bridge } = await import("../webview-ui/src/state/bridge");
  const { DeltaBatcher } = await import("../src/host/deltaBatcher");

  // --- a 2,000-message task: every kind of row, the last one a running command's output ---
  const kinds: Array<Partial<Msg>> = [
    { kind: "text", text: "I will look at the build script and then run the tests to see what fails." },
    {
      kind: "tool",
      tool: {
        name: "read_file",
        params: { path: "src/index.ts" },
        status: "done",
        decision: { decision: "allow", reason: "reading inside the workspace", rule: "autoApprove.readFiles" },
      },
    },
    {
      kind: "tool",
      tool: {
        name: "execute_command",
        params: { command: "npm test -- --run" },
        status: "done",
        result: "ok\n".repeat(20),
      },
    },
    { kind: "api_request", usage: { inputTokens: 12000, outputTokens: 300, costUsd: 0.04 } },
    {
      kind: "tool",
      tool: {
        name: "use_mcp_tool",
        params: { server_name: "gh", tool_name: "search", arguments: '{"q":"x"}' },
        status: "done",
      },
    },
  ];
  const messages: Msg[] = [];
  for (let i = 0; i < MESSAGES - 1; i++)
    messages.push({
      id: i + 1,
      ts: 0,
      role: "say",
      text: "",
      partial: false,
      ...kinds[i % kinds.length]!,
      kind: kinds[i % kinds.length]!.kind!,
    });
  const outputId = MESSAGES;
  messages.push({ id: outputId, ts: 0, role: "say", kind: "command_output", text: "", partial: true });

  const settings = {
    mode: "normal" as const,
    autoApprove: {
      enabled: true,
      all: false,
      maxRequests: 0,
      maxCost: 0,
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
      },
    },
    workspaceTrusted: true,
    errors: [],
    ignoredWorkspaceKeys: [],
    toggleShortcut: "Ctrl+Alt+A",
  };

  // Frames are driven by hand: one store flush (= one React commit) per host post.
  const frames: Array<() => void> = [];
  const store = new Store((fn) => void frames.push(fn));
  const bridge = new Bridge({ postMessage() {}, getState: () => undefined, setState() {} }, store);
  let commits = 0;
  const root = createRoot(document.getElementById("root")!);
  flushSync(() =>
    root.render(
      React.createElement(
        React.Profiler,
        { id: "app", onRender: () => void commits++ },
        React.createElement(App, { store, bridge }),
      ),
    ),
  );

  let bytesPosted = 0;
  // Wall time per frame, and CPU time (this process only: on a shared machine, wall time also counts the
  // time other processes held the CPU).
  const cpuTimes: number[] = [];
  const deliver = (m: Host): number => {
    const wire = JSON.stringify(m); // what postMessage would carry
    bytesPosted += wire.length;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    store.receive(JSON.parse(wire) as Host);
    flushSync(() => frames.splice(0).forEach((f) => f()));
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpuTimes.push((c.user + c.system) / 1000);
    return wall;
  };

  const initialMs = deliver({
    type: "state",
    state: {
      task: { id: "t", state: "running", messages },
      settings,
      mcp: { servers: [], live: true },
      agentAvailable: true,
    },
  });
  const rowsInDom = document.querySelectorAll("[role=article]").length;
  cpuTimes.length = 0;
  const commitsAfterInitial = commits;
  bytesPosted = 0;

  // --- stream 1 MB into the last row: host batcher on a virtual clock, chunk every 1 ms ---
  let now = 0;
  const timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let timerId = 0;
  const frameTimes: number[] = [];
  const batcher = new DeltaBatcher(
    (deltas: readonly Delta[]) => frameTimes.push(deliver({ type: "deltas", taskId: "t", deltas })),
    16,
    {
      set: (fn, ms) => {
        timers.push({ at: now + ms, fn, id: ++timerId });
        return timerId;
      },
      clear: (h) => {
        const i = timers.findIndex((t) => t.id === h);
        if (i >= 0) timers.splice(i, 1);
      },
    },
  );
  const line = "0123456789abcdefghijklmnopqrstuvwxyz ".repeat(4).slice(0, 124) + "\n";
  const chunk = line.repeat(Math.ceil(STREAM_BYTES / CHUNKS / line.length)).slice(0, STREAM_BYTES / CHUNKS);
  const t0 = performance.now();
  for (let i = 0; i < CHUNKS; i++) {
    now += 1;
    for (const t of timers.filter((x) => x.at <= now)) {
      timers.splice(timers.indexOf(t), 1);
      t.fn();
    }
    batcher.push({ type: "append", id: outputId, text: chunk });
  }
  batcher.flush();
  const streamMs = performance.now() - t0;

  const last = store.getState().task!.messages.at(-1)!;
  const shown = document.querySelector(`[data-id="${outputId}"] .tg-output`)?.textContent?.length ?? 0;
  const sorted = [...frameTimes].sort((a, b) => a - b);
  console.log(
    `task: ${MESSAGES} messages; initial render ${initialMs.toFixed(1)} ms; rows in DOM ${rowsInDom} (windowed)`,
  );
  console.log(
    `stream: ${(STREAM_BYTES / 1e6).toFixed(1)} MB in ${CHUNKS} chunks → ${frameTimes.length} frames (host posts), ${streamMs.toFixed(0)} ms total`,
  );
  const worst = frameTimes
    .map((ms, i) => ({ ms, i }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3);
  console.log(
    `frame time: longest ${sorted.at(-1)!.toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms, p50 ${percentile(sorted, 50).toFixed(2)} ms`,
  );
  console.log(`slowest frames: ${worst.map((w) => `#${w.i} ${w.ms.toFixed(1)} ms`).join(", ")}`);
  const cpu = [...cpuTimes].sort((a, b) => a - b);
  console.log(
    `frame CPU time: longest ${cpu.at(-1)!.toFixed(2)} ms, p95 ${percentile(cpu, 95).toFixed(2)} ms, p50 ${percentile(cpu, 50).toFixed(2)} ms (GC included)`,
  );
  console.log(
    `renders: ${commits - commitsAfterInitial} React commits for ${frameTimes.length} frames (store flushes ${store.flushCount - 1}); initial ${commitsAfterInitial}`,
  );
  console.log(`bytes posted while streaming: ${bytesPosted} (${(bytesPosted / STREAM_BYTES).toFixed(3)} × content)`);
  console.log(`last row holds ${last.text.length} chars; ${shown} rendered (tail)`);
  if (last.text.length !== STREAM_BYTES) throw new Error(`stream lost data: ${last.text.length}`);
  root.unmount();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
