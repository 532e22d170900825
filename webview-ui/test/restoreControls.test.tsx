// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { RowCheckpoint, TaskMessage } from "../../src/shared/messages";
import type { RestoreMarks } from "../../src/shared/messages";
import type { TaskView } from "../../src/shared/protocol";
import { ChatView } from "../src/chat/ChatView";
import { HistoryList } from "../src/chat/HistoryList";
import { TaskCheckpoints } from "../src/chat/TaskCheckpoints";
import { Row } from "../src/rows/Row";
import { message, settingsView, setup, tool } from "./support/render";

afterEach(cleanup);

const skipped = { counts: {}, examples: [] };
const recorded = (
  seq: number,
  changedFiles?: number,
  left: Extract<RowCheckpoint, { state: "recorded" }>["skipped"] = skipped,
): RowCheckpoint => ({
  state: "recorded",
  stepId: `tu_${seq}`,
  seq,
  skipped: left,
  ...(changedFiles !== undefined ? { changedFiles } : {}),
});
const edit = (checkpoint: RowCheckpoint | undefined, status: "done" | "running" = "done"): TaskMessage =>
  message({
    kind: "tool",
    tool: tool("write_to_file", { path: "src/a.ts", content: "x" }, { status, ...(checkpoint ? { checkpoint } : {}) }),
  });

describe("restore on a row", () => {
  it("a finished call that changed files offers the restore, which sends the intent and waits for the host", async () => {
    const s = setup();
    const m = edit(recorded(2, 3));
    s.view(<Row message={m} />);
    const button = screen.getByRole("button", { name: /Restore files to before this step/ });
    expect(screen.getByText("Checkpoint 2 · 3 files changed")).toBeTruthy();
    fireEvent.click(button);
    expect(s.intents()).toEqual([{ type: "restoreCheckpoint", messageId: m.id }]);
    expect(screen.getByRole("button", { name: /Reviewing the restore/ }).hasAttribute("disabled")).toBe(true);
    await s.reply(true);
    expect(screen.getByRole("button", { name: /Restore files to before this step/ }).hasAttribute("disabled")).toBe(
      false,
    );
  });

  it("no restore while the call runs, when it changed nothing, or without a checkpoint", () => {
    for (const m of [
      edit(recorded(1), "running"),
      edit(recorded(1, 0)),
      edit(undefined),
      edit({ state: "unavailable", reason: "git was not found" }),
    ]) {
      setup().view(<Row message={m} />);
      expect(screen.queryByRole("button", { name: /Restore files/ })).toBeNull();
      cleanup();
    }
  });
});

describe("the task's checkpoint line", () => {
  const task = (messages: TaskMessage[]) => ({ id: "t", state: "done" as const, messages });

  it("offers all changes of the task and says once what checkpoints leave out", () => {
    const s = setup();
    const left = {
      counts: { gitignored: 2, heavyFolder: 1 },
      examples: [
        { path: "dist/", reason: "gitignored" as const },
        { path: ".env", reason: "gitignored" as const },
        { path: "node_modules/", reason: "heavyFolder" as const },
      ],
    };
    s.view(<TaskCheckpoints task={task([edit(recorded(1, 1)), edit(recorded(2, 1, left))])} />);
    const group = screen.getByRole("group", { name: "Checkpoints" });
    fireEvent.click(within(group).getByRole("button", { name: /Show all changes of this task/ }));
    expect(s.intents()).toEqual([{ type: "showTaskChanges" }]);
    expect(
      within(group).getByText(
        "Not in checkpoints: 2 excluded by .gitignore (dist/, .env); 1 in dependency or cache folders (node_modules/)",
      ),
    ).toBeTruthy();
  });

  it("says why there are no checkpoints, and shows nothing for a task without file changes", () => {
    setup().view(
      <TaskCheckpoints
        task={task([
          edit({
            state: "unavailable",
            reason: "Restricted Mode: nothing is recorded or restored until the workspace is trusted.",
          }),
        ])}
      />,
    );
    const group = screen.getByRole("group", { name: "Checkpoints" });
    expect(within(group).getByRole("note").textContent).toContain("No checkpoints: Restricted Mode");
    expect(within(group).queryByRole("button")).toBeNull();
    cleanup();
    const r = setup().view(<TaskCheckpoints task={task([edit(recorded(1, 0))])} />);
    expect(r.container.textContent).toBe("");
  });
});

function chatView(task: TaskView) {
  return (
    <ChatView
      task={task}
      settings={settingsView()}
      agentAvailable
      menuOpen={false}
      onMenuOpenChange={() => undefined}
      focusInputSeq={0}
    />
  );
}

function chat(task: TaskView) {
  const s = setup();
  const r = s.view(chatView(task));
  return { ...s, rerender: (t: TaskView) => r.rerender(chatView(t)) };
}

const completion = (checkpoint: RowCheckpoint | undefined, command = "npm run build") =>
  message({
    kind: "completion",
    text: "Built the site.",
    tool: tool("attempt_completion", { command }, checkpoint ? { checkpoint } : {}),
  });

describe("restore on every row that changed files", () => {
  it("a completion whose command changed files offers the restore in its own row", () => {
    const done = completion(recorded(3, 2));
    const s = chat({ id: "t", state: "done", messages: [edit(recorded(1, 1)), done] });
    const row = screen.getByRole("article", { name: "Task result" });
    expect(within(row).getByText("Built the site.")).toBeTruthy();
    expect(within(row).getByText("Checkpoint 3 · 2 files changed")).toBeTruthy();
    fireEvent.click(within(row).getByRole("button", { name: /Restore files to before this step/ }));
    expect(s.intents()).toEqual([{ type: "restoreCheckpoint", messageId: done.id }]);
  });

  it("a completion without a command, or whose command changed nothing, offers none", () => {
    chat({ id: "t", state: "done", messages: [completion(undefined, ""), completion(recorded(2, 0))] });
    for (const row of screen.getAllByRole("article", { name: "Task result" }))
      expect(within(row).queryByRole("button", { name: /Restore files/ })).toBeNull();
  });
});

describe("a row after its restore", () => {
  const m = edit(recorded(2, 1));
  const stepId = "tu_2";
  const mark = { undoStepId: "restore-3", undoSeq: 3, files: 1, undone: false, latest: true };
  const task = (marks: RestoreMarks): TaskView => ({ id: "t", state: "done", messages: [m], restoreMarks: marks });

  it("says it was restored and offers the undo instead of the same restore", async () => {
    const s = chat(task({ [stepId]: mark }));
    const row = screen.getByRole("article", { name: /Tool call write_to_file/ });
    expect(within(row).getByRole("status").textContent?.trim()).toBe("Restored to before this step (1 file)");
    expect(within(row).queryByRole("button", { name: /Restore files to before this step/ })).toBeNull();
    fireEvent.click(within(row).getByRole("button", { name: "Undo restore" }));
    expect(s.intents()).toEqual([{ type: "undoRestore", messageId: m.id }]);
    expect(
      within(row)
        .getByRole("button", { name: /Reviewing the undo/ })
        .hasAttribute("disabled"),
    ).toBe(true);
    await s.reply(true);
    // The host's new marks arrive: the restore was undone, so the row offers the restore again.
    s.rerender(task({ [stepId]: { ...mark, undone: true } }));
    const again = screen.getByRole("article", { name: /Tool call write_to_file/ });
    expect(within(again).getByRole("status").textContent).toContain("Restore undone");
    expect(within(again).getByRole("button", { name: /Restore files to before this step/ })).toBeTruthy();
    expect(within(again).queryByRole("button", { name: "Undo restore" })).toBeNull();
  });

  it("once more was recorded after the restore, it says so and offers the restore again, not the undo", () => {
    chat(task({ [stepId]: { ...mark, latest: false } }));
    const row = screen.getByRole("article", { name: /Tool call write_to_file/ });
    expect(within(row).getByRole("status").textContent).toContain("Restored to before this step");
    expect(within(row).getByRole("button", { name: /Restore files to before this step/ })).toBeTruthy();
    expect(within(row).queryByRole("button", { name: "Undo restore" })).toBeNull();
  });

  it("marks of another step change nothing", () => {
    chat(task({ tu_9: mark }));
    const row = screen.getByRole("article", { name: /Tool call write_to_file/ });
    expect(within(row).queryByRole("status")).toBeNull();
    expect(within(row).getByRole("button", { name: /Restore files to before this step/ })).toBeTruthy();
  });
});

describe("deleting a task from the history", () => {
  const items = [
    { id: "t-1", title: "refactor the parser", updatedAt: Date.now(), state: "done" as const, costUsd: 0 },
    { id: "t-2", title: "write docs", updatedAt: Date.now(), state: "done" as const, costUsd: 0 },
  ];

  it("asks in place, naming the task and what goes, and only then sends the delete", async () => {
    const s = setup();
    s.view(<HistoryList items={items} />);
    fireEvent.click(screen.getByRole("button", { name: "Delete task", description: "refactor the parser" }));
    const confirm = screen.getByRole("group", { name: "Delete “refactor the parser”?" });
    expect(confirm.textContent).toContain("Its transcript and its checkpoints");
    expect(confirm.textContent).toContain("The files in your workspace stay as they are.");
    expect(s.intents()).toEqual([]);
    fireEvent.click(within(confirm).getByRole("button", { name: "Keep it" }));
    expect(screen.queryByRole("group", { name: /Delete “refactor the parser”/ })).toBeNull();
    expect(s.intents()).toEqual([]);

    fireEvent.click(screen.getByRole("button", { name: "Delete task", description: "refactor the parser" }));
    const again = screen.getByRole("group", { name: "Delete “refactor the parser”?" });
    fireEvent.click(within(again).getByRole("button", { name: "Delete task" }));
    expect(s.intents()).toEqual([{ type: "deleteHistoryTask", id: "t-1" }]);
    await s.reply(true);
    expect(screen.queryByRole("group", { name: /Delete “refactor the parser”/ })).toBeNull();
    expect(screen.getByRole("button", { name: /^write docs/ })).toBeTruthy();
  });
});
