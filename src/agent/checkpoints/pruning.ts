/**
 * Keeps a workspace's store under its size cap: the least recently used tasks go first (never the most
 * recent one), then the shadow repositories keep only the trees the remaining tasks name and compact.
 * Under the cap, many small packs or loose objects are only merged (nothing is dropped, which is cheap).
 */
import { readdir, stat } from "node:fs/promises";
import * as nodePath from "node:path";
import type { ShadowRepo } from "./shadowRepo";
import type { SkippedLists } from "./skippedLists";
import type { TaskLog, TaskRecord } from "./taskLog";
import type { PruneResult } from "./types";

/** Tasks kept per workspace at most, whatever their size. */
export const MAX_TASKS = 200;
const TIDY_PACKS = 20;
const TIDY_LOOSE = 2000;

async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const n of await readdir(dir).catch(() => [] as string[])) {
    const st = await stat(nodePath.join(dir, n)).catch(() => undefined);
    if (st?.isFile()) total += st.size;
  }
  return total;
}

export interface StoreParts {
  readonly log: TaskLog;
  readonly repos: readonly ShadowRepo[];
  readonly skippedLists: SkippedLists;
  readonly roots: readonly string[];
}

/**
 * Keeps only what `remaining` names: each shadow repository drops every tree (and blob) no remaining step
 * names, and the stored skip lists no step names go.
 */
export async function compactStore(o: StoreParts, remaining: readonly TaskRecord[]): Promise<void> {
  const liveTrees = o.repos.map(() => new Set<string>());
  const liveLists = new Set<string>();
  for (const t of remaining)
    for (const s of t.steps)
      o.roots.forEach((root, i) => {
        const st = s.roots[root];
        if (!st) return;
        liveTrees[i]!.add(st.before);
        if (st.after) liveTrees[i]!.add(st.after);
        liveLists.add(st.skipped);
      });
  for (let i = 0; i < o.repos.length; i++) await o.repos[i]!.keepOnly(liveTrees[i]!);
  await o.skippedLists.keepOnly(liveLists);
}

export async function pruneStore(
  o: StoreParts & {
    readonly workspaceDir: string;
    readonly maxBytes: number;
    /** git can merge packs geometrically (2.33+). */
    readonly geometricRepack: boolean;
  },
): Promise<PruneResult> {
  const tasks = (await o.log.all()).sort((a, b) => a.updatedAt - b.updatedAt);
  const size = async () => {
    let total = 0;
    for (const r of o.repos) total += await r.sizeBytes();
    const records = await dirBytes(nodePath.join(o.workspaceDir, "tasks"));
    return total + records + (await dirBytes(nodePath.join(o.workspaceDir, "skipped")));
  };
  const dropped: string[] = [];
  let compacted = false;

  const compact = async (remaining: readonly TaskRecord[]) => {
    await compactStore(o, remaining);
    compacted = true;
  };

  const drop = async (n: number) => {
    for (const t of tasks.splice(0, n)) {
      await o.log.remove(t.taskId);
      dropped.push(t.taskId);
    }
  };

  if (tasks.length > MAX_TASKS) await drop(tasks.length - MAX_TASKS);
  let bytes = await size();
  // Each round drops a quarter of the older tasks and compacts, since only compacting shows what was freed.
  for (let round = 0; bytes > o.maxBytes && tasks.length > 1 && round < 8; round++) {
    await drop(Math.max(1, Math.floor((tasks.length - 1) / 4)));
    await compact(tasks);
    bytes = await size();
  }
  if (!compacted && dropped.length > 0) {
    await compact(tasks);
    bytes = await size();
  } else if (!compacted) {
    for (const r of o.repos) {
      const c = await r.objectCounts();
      if (c.packs > TIDY_PACKS || c.loose > TIDY_LOOSE) await r.tidy(o.geometricRepack);
    }
  }
  return { droppedTasks: dropped, sizeBytes: bytes, gc: compacted };
}
