// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { RowCheckpoint, TaskMessage } from "../../src/shared/messages";
import { TaskCheckpoints } from "../src/chat/TaskCheckpoints";
import { Row } from "../src/rows/Row";
import { message, setup, tool } from "./support/render";

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
