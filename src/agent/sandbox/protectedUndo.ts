/**
 * Undoing a protected-path change a sandboxed command made, from plain data saved with the task (so a reload
 * can still undo it). Each change records the state the command left the path in; "remove" undoes only that
 * state. Invariant: a path that changed again after the command (the person edited the new hook, ran `git add`
 * in the new repository) is never deleted or overwritten: it is kept, and the outcome says so.
 */
import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import type { BigIntStats } from "node:fs";
import * as nodePath from "node:path";
import type { ProtectedChangeView } from "../../shared/messages";
import { HASH_BYTES, type ChangeKind, type ProtectedChange, type ProtectedSnapshot } from "./protectedSnapshot";

/** What undoing one change needs, as plain data (it is saved with the task, so a reload can still undo it). */
export interface ProtectedUndo {
  readonly path: string;
  readonly kind: ChangeKind;
  /** The content before the run (base64), when it was kept: a changed or vanished file can be restored. */
  readonly content?: string;
  readonly mode?: number;
  /** The path's state right after the command (`pathState`); absent in data saved by older versions. */
  readonly left?: string;
}

/** Entries of an appeared directory that make up its state; past it the state says it was cut. */
const TREE_ENTRY_LIMIT = 20_000;

const sha256 = (data: Buffer | string): string => createHash("sha256").update(data).digest("hex");

function fileState(abs: string, st: BigIntStats): string {
  const mode = Number(st.mode);
  if (st.size > BigInt(HASH_BYTES)) return `file:${st.size}:${st.mtimeNs}:${st.ino}:${mode}`;
  try {
    return `file:${sha256(readFileSync(abs))}:${mode}`;
  } catch {
    return `unreadable:${st.size}:${st.mtimeNs}`;
  }
}

/** One line per entry below `dir` (links not followed), in a fixed order: names, types, modes, sizes, mtimes. */
function treeState(dir: string): string {
  const hash = createHash("sha256");
  let left = TREE_ENTRY_LIMIT;
  const walk = (abs: string, rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(abs).sort();
    } catch {
      hash.update(`${rel}\0unreadable\n`);
      return;
    }
    for (const name of names) {
      if (--left < 0) return;
      const childAbs = nodePath.join(abs, name);
      const childRel = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(childAbs, { throwIfNoEntry: false, bigint: true });
      if (!st) continue;
      const mode = Number(st.mode);
      if (st.isSymbolicLink()) hash.update(`${childRel}\0link\0${safeReadlink(childAbs)}\n`);
      else if (st.isDirectory()) {
        hash.update(`${childRel}\0dir\0${mode}\n`);
        walk(childAbs, childRel);
      } else hash.update(`${childRel}\0file\0${mode}\0${st.size}\0${st.mtimeNs}\0${st.ino}\n`);
    }
  };
  walk(dir, "");
  return `dir:${sha256(hash.digest("hex") + (left < 0 ? ":cut" : ""))}`;
}

function safeReadlink(abs: string): string {
  try {
    return readlinkSync(abs);
  } catch {
    return "?";
  }
}

/** The state of one path now: "absent", a link's target, a file's content hash and mode, a directory's tree. */
export function pathState(abs: string): string {
  const st = lstatSync(abs, { throwIfNoEntry: false, bigint: true });
  if (!st) return "absent";
  if (st.isSymbolicLink()) return `link:${safeReadlink(abs)}`;
  if (st.isDirectory()) return treeState(abs);
  if (st.isFile()) return fileState(abs, st);
  return `other:${Number(st.mode)}`;
}

/** The undo data of one change, taken right after the command (so `left` is what the command left). */
export function undoData(change: ProtectedChange, before: ProtectedSnapshot): ProtectedUndo {
  const was = before.entries.get(change.path);
  return {
    path: change.path,
    kind: change.kind,
    ...(change.kind !== "added" && was?.content !== undefined ? { content: was.content.toString("base64") } : {}),
    ...(was?.mode !== undefined ? { mode: was.mode } : {}),
    left: pathState(change.path),
  };
}

export type UndoOutcome = "removed" | "restored" | "failed" | "changedSince";

/** The state the path had before the command, when it is known (a kept small file). */
function stateBefore(u: ProtectedUndo): string | undefined {
  if (u.kind === "added") return "absent";
  if (u.content === undefined || u.mode === undefined) return undefined;
  return `file:${sha256(Buffer.from(u.content, "base64"))}:${u.mode}`;
}

/**
 * Undoes one change from its saved data, if the path is still as the command left it. Already back as it
 * was before: nothing to do ("removed"/"restored"). Changed since (or not checkable): "changedSince", untouched.
 */
export function applyUndo(u: ProtectedUndo): UndoOutcome {
  const done: UndoOutcome = u.kind === "added" ? "removed" : "restored";
  const now = pathState(u.path);
  if (now === stateBefore(u)) return done;
  if (u.left === undefined || now !== u.left) return "changedSince";
  if (u.kind === "added") {
    rmSync(u.path, { recursive: true, force: true });
    return lstatSync(u.path, { throwIfNoEntry: false }) === undefined ? "removed" : "failed";
  }
  if (u.content === undefined) return "failed";
  rmSync(u.path, { recursive: true, force: true });
  mkdirSync(nodePath.dirname(u.path), { recursive: true });
  writeFileSync(u.path, Buffer.from(u.content, "base64"), { flag: "wx" });
  if (u.mode !== undefined) chmodSync(u.path, u.mode & 0o7777);
  return "restored";
}

/**
 * A change as the runner reports it: the shape of env.ts's `FoundProtectedChange`, stated here so that this
 * file does not import env.ts (which imports `ProtectedUndo` from here).
 */
interface UndoableChange {
  readonly view: ProtectedChangeView;
  readonly undo?: ProtectedUndo;
}

/**
 * Undoes every change of one command (the person chose "remove", or nobody could be asked), and says what
 * became of each. Entries listed inside an appeared directory share its outcome.
 */

export function undoProtectedChanges(found: readonly UndoableChange[]): ProtectedChangeView[] {
  const done = new Map<string, NonNullable<ProtectedChangeView["outcome"]>>();
  return found.map((f): ProtectedChangeView => {
    if (!f.undo) {
      const parent = f.view.within !== undefined ? done.get(f.view.within) : undefined;
      return { ...f.view, outcome: parent ?? "failed" };
    }
    let outcome: UndoOutcome;
    try {
      outcome = applyUndo(f.undo);
    } catch {
      outcome = "failed";
    }
    done.set(f.view.path, outcome);
    return { ...f.view, outcome };
  });
}
