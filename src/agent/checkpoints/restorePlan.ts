/**
 * What restoring one root to before step K does, and what it must leave alone.
 *
 * The task's snapshots form a chain: before(K) → after(K) → before(K+1) → … → after(n) → now. A change inside
 * a step (before → after, or before → next before when `after` is unknown) is the agent's; a change in a gap
 * (after(i) → before(i+1), after(n) → now) is someone else's — the person's. A file changed by the person,
 * or by no recorded step at all, is kept unless the caller chose to overwrite it.
 *
 * Invariants:
 * - A file is deleted only when the checkpoint knew it was absent (the path was not among what it skipped).
 * - A file is written only where nothing excluded now sits (an ignored or over-size file is never replaced),
 *   no folder is in the way, and no parent is a file or a link (nothing is written through a link).
 */
import { lstat } from "node:fs/promises";
import * as nodePath from "node:path";
import type { ShadowRepo, TreeEntry } from "./shadowRepo";
import { knownAbsent, type SkippedList } from "./skippedLists";
import type { StepRecord } from "./taskLog";
import type { KeepReason, PlannedFile, RestoreAction, RestoreOptions } from "./types";

export interface RootPlan {
  readonly root: string;
  readonly files: PlannedFile[];
  /** The tree the root will have after restoring (`current` with the applied changes). */
  readonly result: string;
  readonly current: string;
  readonly target: string;
  /** Applied changes, by root-relative path. */
  readonly writes: string[];
  readonly deletes: string[];
}

async function kind(abs: string): Promise<"none" | "file" | "dir" | "link" | "other"> {
  try {
    const st = await lstat(abs);
    return st.isSymbolicLink() ? "link" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
  } catch {
    return "none";
  }
}

function ancestors(path: string): string[] {
  const parts = path.split("/");
  const out: string[] = [];
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join("/"));
  return out;
}

/** Why writing `path` is not possible now (undefined: it is), given the deletions that will happen first. */
export async function writeBlocked(
  root: string,
  path: string,
  deleting: ReadonlySet<string>,
): Promise<KeepReason | undefined> {
  for (const a of ancestors(path)) {
    if (deleting.has(a)) continue;
    const k = await kind(nodePath.join(root, a));
    if (k !== "none" && k !== "dir") return "blocked";
  }
  const self = await kind(nodePath.join(root, path));
  if (self === "dir") {
    const prefix = path + "/";
    return [...deleting].some((d) => d.startsWith(prefix)) ? undefined : "blocked";
  }
  return self === "other" ? "blocked" : undefined;
}

export async function planRoot(args: {
  readonly repo: ShadowRepo;
  readonly root: string;
  /** Steps K..n of the task (K first). */
  readonly steps: readonly StepRecord[];
  readonly current: string;
  readonly skippedAtTarget: SkippedList;
  readonly options: RestoreOptions;
}): Promise<RootPlan | undefined> {
  const { repo, root, steps, current, options } = args;
  const target = steps[0]?.roots[root]?.before;
  if (target === undefined) return undefined;
  const agentPairs: [string, string][] = [];
  const personPairs: [string, string][] = [];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!.roots[root];
    if (!s) continue;
    const next = steps[i + 1]?.roots[root]?.before ?? current;
    if (s.after !== undefined) {
      agentPairs.push([s.before, s.after]);
      personPairs.push([s.after, next]);
    } else agentPairs.push([s.before, next]);
  }
  const diffs = await repo.changesMany([...agentPairs, ...personPairs, [target, current]]);
  const pathsOf = (pairs: readonly [string, string][]) =>
    new Set(pairs.flatMap(([a, b]) => (diffs.get(`${a} ${b}`) ?? []).map((c) => c.path)));
  const agent = pathsOf(agentPairs);
  const person = pathsOf(personPairs);

  const overwrite = new Set(options.overwrite ?? []);
  const changes = diffs.get(`${target} ${current}`) ?? [];
  const files: PlannedFile[] = [];
  const deletes: string[] = [];
  const pendingWrites: { path: string; action: RestoreAction; editedByPerson: boolean }[] = [];
  const keep = (path: string, action: RestoreAction, editedByPerson: boolean, kept?: KeepReason) =>
    files.push({
      abs: nodePath.join(root, path),
      path,
      root,
      action,
      editedByPerson,
      ...(kept ? { kept } : {}),
    });

  for (const c of changes) {
    const action: RestoreAction = c.status === "A" ? "delete" : c.status === "D" ? "recreate" : "revert";
    const editedByPerson = person.has(c.path) || !agent.has(c.path);
    const chosen = options.force === true || overwrite.has(nodePath.join(root, c.path));
    if (editedByPerson && !chosen) keep(c.path, action, true, "editedByPerson");
    else if (action === "delete") {
      if (!knownAbsent(args.skippedAtTarget, c.path)) keep(c.path, action, editedByPerson, "notCovered");
      else {
        deletes.push(c.path);
        keep(c.path, action, editedByPerson);
      }
    } else if (action === "recreate" && !["none", "dir"].includes(await kind(nodePath.join(root, c.path)))) {
      // On disk but not in the current checkpoint: excluded now (ignored, too large, a heavy folder).
      // A folder in its place is judged with the writes below (it may be emptied by this restore).
      keep(c.path, action, editedByPerson, "excludedNow");
    } else pendingWrites.push({ path: c.path, action, editedByPerson });
  }

  const deleting = new Set(deletes);
  const writes: string[] = [];
  for (const w of pendingWrites) {
    const blocked = await writeBlocked(root, w.path, deleting);
    if (!blocked) writes.push(w.path);
    keep(w.path, w.action, w.editedByPerson, blocked);
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  let result = current;
  if (writes.length > 0 || deletes.length > 0) {
    const targetFiles = await repo.lsTree(target);
    const set = new Map<string, TreeEntry>();
    for (const p of writes) set.set(p, targetFiles.get(p)!);
    result = await repo.edit(current, set, deletes);
  }
  return { root, files, result, current, target, writes, deletes };
}
