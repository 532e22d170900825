// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { SettingsView } from "../../src/shared/protocol";
import { AutoApproveMenu, autoApproveSummary } from "../src/chat/AutoApproveMenu";
import { isToggleShortcut } from "../src/util/shortcut";
import { commitValue, isDisabled, settingsView, setup } from "./support/render";

afterEach(cleanup);

function Harness({ settings, startOpen = true }: { readonly settings: SettingsView; readonly startOpen?: boolean }) {
  const [open, setOpen] = useState(startOpen);
  return <AutoApproveMenu settings={settings} open={open} onOpenChange={setOpen} />;
}

const box = (name: string | RegExp) => screen.getByRole("checkbox", { name }) as HTMLElement & { checked: boolean };

describe("auto-approve dropdown", () => {
  it("summarises what runs without asking, and opens as a disclosure", () => {
    setup().view(<Harness settings={settingsView()} startOpen={false} />);
    const bar = screen.getByRole("button", { name: /Auto-approve:/ });
    expect(bar.textContent).toContain("Read, Safe commands");
    expect(bar.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(bar);
    expect(bar.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("region", { name: "Auto-approve settings" })).toBeTruthy();
  });

  it("lists every fine-grained action, and each toggle writes its setting", () => {
    const s = setup();
    s.view(<Harness settings={settingsView()} />);
    const labels = [
      "Read files in the workspace",
      "Edit files in the workspace (protected paths still ask)",
      "Run safe commands (allow list and read-only programs)",
      "Run all commands (deletion still asks)",
      "Use MCP tools marked \u201calways allow\u201d",
      "Fetch web pages",
    ];
    for (const l of labels) expect(box(l)).toBeTruthy();
    expect(screen.getAllByRole("checkbox", { name: "…and outside the workspace" })).toHaveLength(2);
    fireEvent.click(box("Fetch web pages"));
    fireEvent.click(box("Read files in the workspace"));
    expect(s.intents()).toEqual([
      { type: "setSetting", change: { key: "autoApprove.action", action: "webFetch", value: true } },
      { type: "setSetting", change: { key: "autoApprove.action", action: "readFiles", value: false } },
    ]);
  });

  it("'Run other commands in the sandbox' sits under safe commands, needs them on, and writes its setting", () => {
    const s = setup();
    s.view(<Harness settings={settingsView()} />);
    const sandboxed = box("Run other commands in the sandbox (boundaries still ask)");
    expect(sandboxed.checked).toBe(false);
    expect(isDisabled(sandboxed)).toBe(false);
    fireEvent.click(sandboxed);
    expect(s.intents()).toEqual([
      { type: "setSetting", change: { key: "autoApprove.action", action: "executeInSandbox", value: true } },
    ]);
    cleanup();
    setup().view(<Harness settings={settingsView({}, {}, { executeSafeCommands: false, executeInSandbox: true })} />);
    expect(isDisabled(box("Run other commands in the sandbox (boundaries still ask)"))).toBe(true);
    cleanup();
    setup().view(
      <Harness settings={settingsView({}, {}, { executeInSandbox: true, editFiles: true })} startOpen={false} />,
    );
    expect(screen.getByRole("button", { name: /Auto-approve:/ }).textContent).toContain("Sandboxed commands");
  });

  it("names the preset the switches are, and says Custom once one differs", () => {
    expect(autoApproveSummary(settingsView())).toBe("Ask before changes: Read, Safe commands");
    expect(autoApproveSummary(settingsView({}, {}, { editFiles: true, executeInSandbox: true }))).toBe(
      "Sandboxed autonomy: Read, Edit, Safe commands, Sandboxed commands",
    );
    expect(autoApproveSummary(settingsView({ mode: "plan" }))).toBe("Read-only");
    expect(autoApproveSummary(settingsView({}, {}, { editFiles: true }))).toBe("Custom: Read, Edit, Safe commands");
    expect(autoApproveSummary(settingsView({ mode: "plan" }, {}, { editFiles: true }))).toBe(
      "Custom: Plan · Read, Edit, Safe commands",
    );
  });

  it("the master switch off keeps every action's state, shown but disabled", () => {
    const s = setup();
    s.view(<Harness settings={settingsView({}, { enabled: false }, { editFiles: true })} />);
    expect(box("Edit files in the workspace (protected paths still ask)").checked).toBe(true);
    expect(isDisabled(box("Edit files in the workspace (protected paths still ask)"))).toBe(true);
    fireEvent.click(box(/^Auto-approve/));
    expect(s.intents()).toEqual([{ type: "setSetting", change: { key: "autoApprove.enabled", value: true } }]);
    cleanup();
    setup().view(<Harness settings={settingsView({}, { enabled: false })} startOpen={false} />);
    expect(screen.getByRole("button", { name: /Auto-approve:/ }).textContent).toContain("Off");
  });

  it("an 'outside the workspace' switch is disabled while its inside switch is off", () => {
    setup().view(<Harness settings={settingsView({}, {}, { editFiles: false, readFiles: true })} />);
    const [readOut, editOut] = screen.getAllByRole("checkbox", { name: "…and outside the workspace" });
    expect(isDisabled(readOut!)).toBe(false);
    expect(isDisabled(editOut!)).toBe(true);
  });

  it("YOLO and approve-all need an explicit confirmation; YOLO shows a clear warning", () => {
    const s = setup();
    const r = s.view(<Harness settings={settingsView()} />);
    fireEvent.click(screen.getByText("Auto (YOLO)"));
    expect(s.posted).toEqual([]);
    expect(screen.getByRole("alertdialog").textContent).toContain("Switch to YOLO mode?");
    fireEvent.click(screen.getByText("Cancel"));
    expect(s.posted).toEqual([]);
    fireEvent.click(box(/^Approve all/));
    fireEvent.click(screen.getByText("Approve all", { selector: "button" }));
    expect(s.intents()).toEqual([{ type: "setSetting", change: { key: "autoApprove.all", value: true } }]);
    r.rerender(<Harness settings={settingsView({ mode: "auto" })} />);
    expect(screen.getByText(/YOLO mode: every tool call that no deny rule refuses runs without asking/)).toBeTruthy();
    expect(screen.getByRole("button", { name: /Auto-approve:/ }).textContent).toContain("YOLO");
  });

  it("plan and normal mode switch without confirmation", () => {
    const s = setup();
    s.view(<Harness settings={settingsView()} />);
    fireEvent.click(screen.getByText("Plan (read-only)"));
    expect(s.intents()).toEqual([{ type: "setSetting", change: { key: "mode", value: "plan" } }]);
  });

  it("limits: a valid number is written, anything else is refused with a message", () => {
    const s = setup();
    s.view(<Harness settings={settingsView()} />);
    const [requests, cost] = [
      screen.getByRole("textbox", { name: "Max requests" }),
      screen.getByRole("textbox", { name: "Max cost (USD)" }),
    ];
    commitValue(requests!, "25");
    commitValue(cost!, "$1.50");
    commitValue(requests!, "2.5");
    expect(s.intents()).toEqual([
      { type: "setSetting", change: { key: "autoApprove.maxRequests", value: 25 } },
      { type: "setSetting", change: { key: "autoApprove.maxCost", value: 1.5 } },
    ]);
    expect(screen.getByRole("alert").textContent).toMatch(/whole number/);
  });

  it("Escape closes the panel; Open settings sends the intent", () => {
    const s = setup();
    s.view(<Harness settings={settingsView()} />);
    fireEvent.click(screen.getByText("Open settings"));
    expect(s.posted).toEqual([{ type: "openSettings" }]);
    fireEvent.keyDown(screen.getByRole("region", { name: "Auto-approve settings" }), { key: "Escape" });
    expect(screen.queryByRole("region", { name: "Auto-approve settings" })).toBeNull();
  });

  it("in Restricted Mode says the switches wait for trust, leaving the name to the panel's banner", () => {
    setup().view(<Harness settings={settingsView({ workspaceTrusted: false })} />);
    const region = screen.getByRole("region", { name: "Auto-approve settings" });
    expect(within(region).getByRole("note").textContent).toBe(" These switches apply once you trust this folder.");
    expect(region.textContent).not.toContain("Restricted Mode");
    expect(autoApproveSummary(settingsView({ workspaceTrusted: false }))).toBe("Off until the folder is trusted");
  });
});

describe("toggle shortcut", () => {
  it("is Ctrl+Alt+A, or ⌥⌘A on macOS, matched by key code", () => {
    const ev = (o: Partial<KeyboardEvent>) => ({
      code: "KeyA",
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      ...o,
    });
    expect(isToggleShortcut(ev({ ctrlKey: true, altKey: true }), false)).toBe(true);
    expect(isToggleShortcut(ev({ ctrlKey: true }), false)).toBe(false);
    expect(isToggleShortcut(ev({ ctrlKey: true, altKey: true, shiftKey: true }), false)).toBe(false);
    expect(isToggleShortcut(ev({ metaKey: true, altKey: true }), true)).toBe(true);
    expect(isToggleShortcut(ev({ ctrlKey: true, altKey: true }), true)).toBe(false);
  });
});
