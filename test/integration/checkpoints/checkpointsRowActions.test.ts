/**
 * The editor's restore actions (host/checkpointActions.ts) over a real task, real bash and real git: the
 * completion's command changed files, its row offers the restore, the host accepts it and brings every
 * covered file back byte for byte; then the row is marked restored and "Undo restore" brings the command's
 * result back. The host refuses what the row does not offer.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CheckpointActions } from "../../../src/host/checkpointActions";
import type { CheckpointDiffs, CheckpointFileDiff } from "../../../src/host/diffView";
import { rowOffer } from "../../../src/shared/checkpointRows";
import type { TaskMessage } from "../../../src/shared/messages";
import { startHarness, type Harness } from "../../support/agentHarness";
import { fileState, late, makeService, type Fixture } from "./checkpointsFixture";

const ui = vi.hoisted(() => ({
  /** The button the person clicks in the next modal (undefined: they close it). */
  choice: [] as (string | undefined)[],
  modals: [] as { text: string; detail: string; buttons: string[] }[],
  infos: [] as string[],
  /** The button the person clicks on the next notification that has buttons. */
  toast: [] as (string | undefined)[],
  root: "",
}));

vi.mock("vscode", () => {
  const format = (s: string, ...args: unknown[]) => s.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[+i]));
  return {
    l10n: { t: format },
    workspace: {
      get workspaceFolders() {
        return [{ uri: { fsPath: ui.root } }];
      },
      asRelativePath: (abs: string) => path.relative(ui.root, abs),
    },
    window: {
      showWarningMessage: (text: string, o: { detail: string }, ...buttons: string[]) => {
        ui.modals.push({ text, detail: o.detail, buttons });
        return Promise.resolve(ui.choice.shift());
      },
      showInformationMessage: (text: string, ...buttons: string[]) => {
        ui.infos.push(text);
        return Promise.resolve(buttons.length > 0 ? ui.toast.shift() : undefined);
      },
      showErrorMessage: (text: string) => {
        ui.infos.push(`error: ${text}`);
        return Promise.resolve(undefined);
      },
    },
  };
});

const open: (Harness | Fixture)[] = [];
beforeEach(() => {
  ui.choice = [];
  ui.modals = [];
  ui.infos = [];
  ui.toast = [];
});
afterEach(async () => {
  for (const x of open.splice(0)) {
    if ("close" in x) await x.close();
    else x.cleanup();
  }
});

function recordingDiffs() {
  const opened: { title: string; files: readonly CheckpointFileDiff[] }[] = [];
  const diffs = {
    open: (title: string, files: readonly CheckpointFileDiff[]) => {
      opened.push({ title, files });
      return Promise.resolve();
    },
  } as unknown as CheckpointDiffs;
  return { diffs, opened };
}

// Bytes a text editor would mangle: CRLF, a NUL, no final newline, and an executable bit.
const BINARY = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x41]);

describe("restoring from a completion row in the editor", () => {
  it("the completion's command changes are restored byte for byte, marked on the row, and the restore is undone", async () => {
    const ref: { fx?: Fixture } = {};
    const before: { state?: Map<string, string> } = {};
    const command = "printf 'rewritten\\r\\n' > a.txt && rm bin.dat && mkdir -p out && printf made > out/new.txt";
    const h = await startHarness({
      files: { "a.txt": "original\nline two", "keep.txt": "kept\n", "bin.dat": BINARY.toString("latin1") },
      turns: [{ steps: [{ tool: "attempt_completion", args: { result: "Rebuilt the output.", command } }] }],
      answer: (m) => {
        // The command's approval: the files as they were just before it ran.
        if (m.tool?.status !== "done") before.state ??= fileState(h.dir);
        return { kind: "approve" };
      },
      deps: { checkpoints: late(() => ref.fx!.service) },
    });
    open.push(h);
    writeFileSync(path.join(h.dir, "bin.dat"), BINARY);
    const fx = (ref.fx = makeService([h.dir]));
    open.push(fx);
    ui.root = h.dir;
    expect(await h.task.run()).toBe("completed");
    expect(h.read("a.txt")).toBe("rewritten\r\n");

    const row = (): TaskMessage => h.task.store.messages.find((m) => m.kind === "completion")!;
    await expect.poll(() => row().tool?.checkpoint).toMatchObject({ state: "recorded", seq: 1, changedFiles: 3 });
    expect(rowOffer(row())).toEqual({ restore: { stepId: expect.any(String), seq: 1 } });
    const commandResult = fileState(h.dir);

    const { diffs, opened } = recordingDiffs();
    const actions = new CheckpointActions(() => fx.service, diffs);
    const told: string[] = [];
    actions.onDidRestore((id) => told.push(id));

    // The diff of what is undone opens first; closing the modal changes nothing.
    ui.choice = [undefined];
    expect(await actions.restore(h.task.id, row())).toBeUndefined();
    expect(opened[0]!.title).toBe("now ↔ before step 1");
    expect(opened[0]!.files.map((f) => path.relative(h.dir, f.abs)).sort()).toEqual([
      "a.txt",
      "bin.dat",
      "out/new.txt",
    ]);
    expect(ui.modals[0]!.detail).toMatch(/a\.txt: restore its earlier content/);
    expect(ui.modals[0]!.detail).toMatch(/bin\.dat: recreate/);
    expect(ui.modals[0]!.detail).toMatch(/out\/new\.txt: delete/);
    expect(fileState(h.dir)).toEqual(commandResult);

    ui.choice = ["Restore files"];
    expect(await actions.restore(h.task.id, row())).toBeUndefined();
    expect(fileState(h.dir)).toEqual(before.state);
    expect(ui.infos.at(-1)).toBe("Restored 3 file(s) to before step 1.");
    expect(told).toEqual([h.task.id]);

    // The row is marked restored; it offers the undo, not the same restore again (the host refuses that).
    const marks = await actions.marks(h.task.id);
    expect(marks[(row().tool!.checkpoint as { stepId: string }).stepId]).toMatchObject({
      files: 3,
      undone: false,
      latest: true,
    });
    expect(rowOffer(row(), marks).restore).toBeUndefined();
    expect(rowOffer(row(), marks).undo).toBeDefined();
    expect(await actions.restore(h.task.id, row())).toMatch(/undo that restore instead/);

    ui.choice = ["Undo restore"];
    expect(await actions.undoRestore(h.task.id, row())).toBeUndefined();
    expect(ui.modals.at(-1)!.text).toBe("Undo the restore of the files to before step 1?");
    expect(fileState(h.dir)).toEqual(commandResult);
    expect(ui.infos.at(-1)).toBe("Undid the restore (3 file(s)).");
    const after = await actions.marks(h.task.id);
    expect(Object.values(after)).toEqual([expect.objectContaining({ undone: true })]);
    expect(rowOffer(row(), after).restore).toBeDefined();
    expect(await actions.undoRestore(h.task.id, row())).toBe("There is no restore to undo on this step.");
    expect(fileState(h.dir)).toEqual(commandResult);

    // The notification's "Undo restore" goes through the same review, and only while nothing came after it.
    ui.choice = ["Restore files", "Undo restore"];
    ui.toast = ["Undo restore"];
    expect(await actions.restore(h.task.id, row())).toBeUndefined();
    await expect.poll(() => ui.infos.at(-1), { timeout: 15_000 }).toBe("Undid the restore (3 file(s)).");
    expect(fileState(h.dir)).toEqual(commandResult);
    expect(ui.modals.at(-1)!.text).toBe("Undo the restore of the files to before step 1?");
    expect(told).toEqual([h.task.id, h.task.id, h.task.id, h.task.id]);
  });

  it("a completion whose command the gate judged read-only records nothing and offers nothing", async () => {
    const ref: { fx?: Fixture } = {};
    const h = await startHarness({
      files: { "a.txt": "a\n" },
      turns: [{ steps: [{ tool: "attempt_completion", args: { result: "Shown.", command: "cat a.txt" } }] }],
      answer: () => ({ kind: "approve" }),
      deps: { checkpoints: late(() => ref.fx!.service) },
    });
    open.push(h);
    const fx = (ref.fx = makeService([h.dir]));
    open.push(fx);
    ui.root = h.dir;
    expect(await h.task.run()).toBe("completed");
    const row = h.task.store.messages.find((m) => m.kind === "completion")!;
    expect(row.tool?.checkpoint).toBeUndefined();
    expect(rowOffer(row)).toEqual({});
    const actions = new CheckpointActions(() => fx.service, recordingDiffs().diffs);
    expect(await actions.restore(h.task.id, row)).toMatch(/no checkpoint|No checkpoints/);
    expect(ui.modals).toEqual([]);
  });
});
