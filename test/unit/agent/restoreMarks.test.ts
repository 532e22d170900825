import { describe, expect, it } from "vitest";
import { restoreMarks, rowOffer, type MarkStep } from "../../../src/shared/checkpointRows";
import type { TaskMessage } from "../../../src/shared/messages";

const tool = (seq: number, stepId = `tu_${seq}`): MarkStep => ({ stepId, seq, kind: "tool", changedFiles: 1 });
const restore = (seq: number, to: string, files = 1): MarkStep => ({
  stepId: `restore-${seq}`,
  seq,
  kind: "restore",
  restores: to,
  changedFiles: files,
});
const row = (stepId: string, seq: number): TaskMessage => ({
  id: seq,
  ts: 0,
  role: "say",
  kind: "tool",
  text: "",
  partial: false,
  tool: {
    name: "write_to_file",
    params: {},
    status: "done",
    checkpoint: { state: "recorded", stepId, seq, changedFiles: 1, skipped: { counts: {}, examples: [] } },
  },
});

describe("which rows were restored to, and what each offers", () => {
  it("a restore marks its row, which then offers its undo; once undone, the restore again", () => {
    const a = row("tu_1", 1);
    let marks = restoreMarks([tool(1), tool(2), restore(3, "tu_1", 2)]);
    expect(marks).toEqual({ tu_1: { undoStepId: "restore-3", undoSeq: 3, files: 2, undone: false, latest: true } });
    expect(rowOffer(a, marks)).toEqual({ undo: { stepId: "restore-3", seq: 3 }, mark: marks.tu_1 });
    expect(rowOffer(row("tu_2", 2), marks)).toEqual({ restore: { stepId: "tu_2", seq: 2 } });

    marks = restoreMarks([tool(1), tool(2), restore(3, "tu_1"), restore(4, "restore-3")]);
    expect(marks.tu_1).toMatchObject({ undone: true });
    expect(rowOffer(a, marks).restore).toEqual({ stepId: "tu_1", seq: 1 });
    expect(rowOffer(a, marks).undo).toBeUndefined();

    // Restored again: the newest restore counts, and a late undo of the old one does not mark the new one.
    marks = restoreMarks([tool(1), restore(2, "tu_1"), restore(3, "restore-2"), restore(4, "tu_1")]);
    expect(marks.tu_1).toMatchObject({ undoStepId: "restore-4", undone: false, latest: true });
    marks = restoreMarks([tool(1), restore(2, "tu_1"), restore(3, "tu_1"), restore(4, "restore-2")]);
    expect(marks.tu_1).toMatchObject({ undoStepId: "restore-3", undone: false, latest: false });
  });

  it("once anything was recorded after the restore, the row offers the restore again, not the undo", () => {
    const marks = restoreMarks([tool(1), restore(2, "tu_1"), tool(3)]);
    expect(marks.tu_1).toMatchObject({ undone: false, latest: false });
    expect(rowOffer(row("tu_1", 1), marks)).toEqual({ restore: { stepId: "tu_1", seq: 1 }, mark: marks.tu_1 });
  });

  it("records from before restores named their target, and ids like __proto__, mark nothing", () => {
    expect(restoreMarks([tool(1), { stepId: "restore-2", seq: 2, kind: "restore" }])).toEqual({});
    expect(rowOffer(row("__proto__", 1), {})).toEqual({ restore: { stepId: "__proto__", seq: 1 } });
    expect(rowOffer(row("toString", 1), {})).toEqual({ restore: { stepId: "toString", seq: 1 } });
  });
});
