// @vitest-environment jsdom
import "./support/shims";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Decision } from "../../src/shared/messages";
import type { HostState } from "../../src/shared/protocol";
import { App } from "../src/App";
import { Bridge } from "../src/state/bridge";
import { Store } from "../src/state/store";
import { fakeApi, message, settingsView, tool } from "./support/render";

afterEach(cleanup);

function mount() {
  const { api, posted } = fakeApi();
  const store = new Store((fn) => fn());
  const bridge = new Bridge(api, store);
  render(<App store={store} bridge={bridge} />);
  const host = (m: Parameters<Store["receive"]>[0]) => act(() => store.receive(m));
  return { api, posted, store, host };
}

/** An `execute_command` ask waiting for the person, with the gate's decision on it. */
function pendingCommand(command: string, decision: Decision) {
  return message({
    kind: "tool",
    role: "ask",
    askState: "pending",
    tool: tool("execute_command", { command }, { status: "pending", decision }),
  });
}

function state(over: Partial<HostState> = {}): HostState {
  return { task: null, settings: settingsView(), mcp: { servers: [], live: false }, agentAvailable: true, ...over };
}

describe("app", () => {
  it("shows 'connecting' until the host's snapshot arrives", () => {
    const { host } = mount();
    expect(screen.getByRole("status").textContent).toContain("Connecting");
    host({ type: "state", state: state() });
    expect(screen.getByRole("tab", { name: /Chat/ }).getAttribute("aria-selected")).toBe("true");
  });

  it("renders a task with a pending ask from a snapshot (what a reload brings back)", () => {
    const { host } = mount();
    const ask = pendingCommand("make deploy", {
      decision: "ask",
      reason: "`make` is not in your allow list",
      rule: "r",
    });
    host({
      type: "state",
      state: state({ task: { id: "t", state: "waiting", messages: [message({ kind: "user", text: "deploy" }), ask] } }),
    });
    expect(screen.getByText("Run this command?")).toBeTruthy();
    expect(screen.getByText("Action required: approve or reject. Run command: make deploy.")).toBeTruthy();
  });

  it("says in Restricted Mode, in one line, that every call asks, with a way to trust the folder", () => {
    const { host, posted } = mount();
    host({ type: "state", state: state({ settings: settingsView({ workspaceTrusted: false }) }) });
    const banner = screen.getByRole("note", { name: /Restricted Mode: this folder is not trusted/ });
    expect(banner.textContent).toBe("Restricted ModeTrust this folder…");
    fireEvent.click(within(banner).getByRole("button", { name: "Trust this folder…" }));
    expect(posted).toContainEqual({ type: "manageTrust" });
  });

  it("names Restricted Mode once, in the banner: the card and the auto-approve dropdown only point at it", () => {
    const { host } = mount();
    const ask = pendingCommand("rm -rf build", {
      decision: "ask",
      reason: "the workspace is not trusted (Restricted Mode), so nothing is auto-approved",
      rule: "workspace:untrusted",
      danger: ["deletes"],
      ifTrusted: { decision: "ask", reason: "`rm` deletes files", rule: "commands:deletes", danger: ["deletes"] },
    });
    host({
      type: "state",
      state: state({
        settings: settingsView({ workspaceTrusted: false }),
        task: { id: "t", state: "waiting", messages: [message({ kind: "user", text: "clean" }), ask] },
      }),
    });
    fireEvent.click(screen.getByRole("button", { name: /^Auto-approve:/ }));
    const said = (document.body.textContent ?? "").match(/Restricted Mode/g) ?? [];
    expect(said).toHaveLength(1);
    const banner = screen.getByRole("note", { name: /^Restricted Mode/ });
    expect(banner.textContent).toContain("Restricted Mode");
    const why = screen.getByRole("group", { name: "Why it asks" });
    expect(why.querySelector(".tg-why-text")!.textContent).toBe(
      "Every call asks until this folder is trusted (see the banner above).",
    );
    expect(within(why).getByRole("group", { name: "Its own risks" }).textContent).toContain("rm deletes files");
    const menu = screen.getByRole("region", { name: "Auto-approve settings" });
    expect(within(menu).getByRole("note").textContent).toBe(" These switches apply once you trust this folder.");
    expect(screen.getByRole("button", { name: /^Auto-approve:/ }).textContent).toContain(
      "Off until the folder is trusted",
    );
  });

  it("the feedback keybinding's reveal puts the focus in the waiting card's feedback box", async () => {
    const { host } = mount();
    const ask = pendingCommand("make deploy", {
      decision: "ask",
      reason: "`make` is not in your allow list",
      rule: "r",
    });
    host({ type: "state", state: state({ task: { id: "t", state: "waiting", messages: [ask] } }) });
    host({ type: "reveal", target: "askFeedback" });
    await act(() => new Promise((r) => setTimeout(r, 5)));
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: /Feedback for the agent/ }));
  });

  it("a reveal from the status bar opens the dropdown; another switches to MCP", () => {
    const { host } = mount();
    host({ type: "state", state: state() });
    host({ type: "reveal", target: "autoApprove" });
    expect(screen.getByRole("region", { name: "Auto-approve settings" })).toBeTruthy();
    host({ type: "reveal", target: "mcp" });
    expect(screen.getByRole("tab", { name: /MCP servers/ }).getAttribute("aria-selected")).toBe("true");
  });

  it("New Task from the title bar with the dropdown open: the dropdown closes and the input has the focus", () => {
    const { host } = mount();
    host({ type: "state", state: state() });
    fireEvent.click(screen.getByText("Auto-approve:"));
    screen.getByRole("checkbox", { name: /Auto-approve/ }).focus();
    host({ type: "reveal", target: "input" });
    expect(screen.queryByRole("region", { name: "Auto-approve settings" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText("Task"));
  });

  it("tabs work with arrow keys", () => {
    const { host } = mount();
    host({ type: "state", state: state() });
    fireEvent.keyDown(screen.getByRole("tab", { name: /Chat/ }), { key: "ArrowRight" });
    expect(screen.getByRole("tab", { name: /MCP servers/ }).getAttribute("aria-selected")).toBe("true");
    expect(document.activeElement?.id).toBe("tg-tab-mcp");
  });

  it("the shortcut toggles auto-approve by writing the opposite of what it shows", () => {
    const { host, posted } = mount();
    host({ type: "state", state: state() });
    const mac = /Mac/.test(navigator.platform);
    fireEvent.keyDown(window, { code: "KeyA", altKey: true, ctrlKey: !mac, metaKey: mac });
    expect(posted.at(-1)).toMatchObject({ type: "setSetting", change: { key: "autoApprove.enabled", value: false } });
  });

  it("shows the host's error for a failed request", async () => {
    const { host, posted } = mount();
    host({ type: "state", state: state({ agentAvailable: true }) });
    fireEvent.change(screen.getByLabelText("Task"), { target: { value: "do it" } });
    fireEvent.keyDown(screen.getByLabelText("Task"), { key: "Enter" });
    const req = posted.at(-1) as { type: string; requestId: number; text: string };
    expect(req).toMatchObject({ type: "newTask", text: "do it" });
    await act(async () =>
      host({ type: "result", requestId: req.requestId, ok: false, error: "A task is still running. Cancel it first." }),
    );
    expect(screen.getByRole("alert").textContent).toContain("A task is still running");
  });

  it("without an agent runtime the input says so and cannot send", () => {
    const { host } = mount();
    host({ type: "state", state: state({ agentAvailable: false }) });
    expect(screen.getAllByText(/agent runtime is not connected yet/).length).toBeGreaterThan(0);
    expect((screen.getByLabelText("Task") as HTMLTextAreaElement).disabled).toBe(true);
  });

  it("settings errors: the panel says nothing is auto-approved until they are fixed", () => {
    const { host } = mount();
    host({
      type: "state",
      state: state({
        settings: settingsView({
          errors: ['user settings: `toolgate.mode` must be "normal", "plan" or "auto", got "yolo"'],
          ignoredWorkspaceKeys: ["toolgate.autoApprove.all"],
        }),
      }),
    });
    expect(screen.getByText(/nothing is auto-approved until it is fixed/)).toBeTruthy();
    expect(screen.getByText(/got "yolo"/)).toBeTruthy();
    expect(screen.getByText(/This workspace’s settings try to set toolgate.autoApprove.all/)).toBeTruthy();
  });

  it("an idle task continues with a follow-up message; New task clears it", () => {
    const { host, posted } = mount();
    host({
      type: "state",
      state: state({ task: { id: "t", state: "done", messages: [message({ kind: "user", text: "x" })] } }),
    });
    fireEvent.change(screen.getByLabelText("Task"), { target: { value: "also add docs" } });
    fireEvent.keyDown(screen.getByLabelText("Task"), { key: "Enter" });
    expect(posted.at(-1)).toMatchObject({ type: "sendMessage", text: "also add docs" });
    fireEvent.click(screen.getByText("New task"));
    expect(posted.at(-1)).toMatchObject({ type: "clearTask" });
  });

  it("a Send right after New task starts a new task, before the host's state catches up; a refused clear undoes it", async () => {
    const { host, posted, store } = mount();
    host({
      type: "state",
      state: state({ task: { id: "t", state: "cancelled", messages: [message({ kind: "user", text: "x" })] } }),
    });
    fireEvent.click(screen.getByText("New task"));
    const clear = posted.at(-1) as { type: string; requestId: number };
    expect(clear.type).toBe("clearTask");
    // No `task: null` from the host yet: the input already starts a task, it does not continue the old one.
    expect(screen.getByLabelText("Task").getAttribute("placeholder")).toBe("Describe a task…");
    fireEvent.change(screen.getByLabelText("Task"), { target: { value: "write cut.txt" } });
    fireEvent.keyDown(screen.getByLabelText("Task"), { key: "Enter" });
    expect(posted.at(-1)).toMatchObject({ type: "newTask", text: "write cut.txt" });

    // The host refusing the clear (the task still running somewhere) puts the task back in the input's hands.
    await act(async () =>
      store.receive({ type: "result", requestId: (posted.at(-1) as { requestId: number }).requestId, ok: true }),
    );
    host({
      type: "state",
      state: state({ task: { id: "u", state: "done", messages: [message({ kind: "user", text: "y" })] } }),
    });
    fireEvent.click(screen.getByText("New task"));
    const refused = posted.at(-1) as { requestId: number };
    await act(async () =>
      store.receive({ type: "result", requestId: refused.requestId, ok: false, error: "still running" }),
    );
    expect(screen.getByLabelText("Task").getAttribute("placeholder")).toBe(
      "Reply to continue this task, or start a new one…",
    );
  });

  it("after New task, reopening that same task from Recent tasks and replying continues it", async () => {
    const { host, posted, store } = mount();
    const done = { id: "t", state: "done" as const, messages: [message({ kind: "user", text: "list the files" })] };
    host({ type: "state", state: state({ task: done }) });
    fireEvent.click(screen.getByText("New task"));
    const clear = posted.at(-1) as { requestId: number };
    await act(async () => store.receive({ type: "result", requestId: clear.requestId, ok: true }));
    host({ type: "task", task: null });
    // The top entry of Recent tasks is the task just cleared: the host opens it again under its own id.
    host({ type: "task", task: { ...done, fromHistory: true } });
    const input = screen.getByLabelText("Task");
    expect(input.getAttribute("placeholder")).toBe("Reply to continue this task…");
    fireEvent.change(input, { target: { value: "now count them" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(posted.at(-1)).toMatchObject({ type: "sendMessage", text: "now count them" });
  });

  it("a follow-up question is answered from the input", () => {
    const { host, posted } = mount();
    const q = message({ kind: "followup", role: "ask", askState: "pending", text: "Which branch?" });
    host({ type: "state", state: state({ task: { id: "t", state: "waiting", messages: [q] } }) });
    fireEvent.change(screen.getByLabelText("Your answer"), { target: { value: "main" } });
    fireEvent.click(screen.getByText("Answer"));
    expect(posted.at(-1)).toMatchObject({
      type: "answerAsk",
      messageId: q.id,
      response: { kind: "message", text: "main" },
    });
  });

  it("tells the host where focus is, and marks the root only once the host has answered, latest focus winning", async () => {
    const { posted, store } = mount();
    const focusMessages = () =>
      posted.filter((m): m is Extract<typeof m, { type: "focusChanged" }> => m.type === "focusChanged");
    const answer = (m: { requestId: number }) =>
      act(async () => store.receive({ type: "result", requestId: m.requestId, ok: true }));
    act(() => void window.dispatchEvent(new Event("focus")));
    act(() => void window.dispatchEvent(new Event("blur")));
    const [focus, blur] = focusMessages().slice(-2);
    expect([focus?.focused, blur?.focused]).toEqual([true, false]);
    expect(document.documentElement.dataset["answerKeys"]).toBeUndefined();
    // The blur's answer arrives first: the older focus answer must not mark the root "on" after it.
    await answer(blur!);
    expect(document.documentElement.dataset["answerKeys"]).toBe("off");
    await answer(focus!);
    expect(document.documentElement.dataset["answerKeys"]).toBe("off");
    act(() => void window.dispatchEvent(new Event("focus")));
    await answer(focusMessages().at(-1)!);
    expect(document.documentElement.dataset["answerKeys"]).toBe("on");
  });
});
