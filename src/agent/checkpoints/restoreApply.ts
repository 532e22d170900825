/**
 * Carries out a root's restore plan: deletions first (so a file can give way to a folder and back), then the
 * writes from the checkpoint's tree. Every condition the plan checked is checked again right before acting,
 * since files may have changed since it was made; what fails the check is kept and reported.
 */
import { lstat, realpath, rmdir, unlink } from "node:fs/promises";
import * as nodePath from "node:path";
import { writeBlocked, type RootPlan } from "./restorePlan";
import type { ShadowRepo } from "./shadowRepo";
import type { KeepReason } from "./types";

export interface AppliedRoot {
  readonly changed: string[];
  readonly kept: { abs: string; reason: KeepReason }[];
}

function inside(parent: string, child: string): boolean {
  const rel = nodePath.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !nodePath.isAbsolute(rel));
}

export async function applyRootPlan(repo: ShadowRepo, plan: RootPlan): Promise<AppliedRoot> {
  const root = plan.root;
  const realRoot = await realpath(root);
  const changed: string[] = [];
  const kept: { abs: string; reason: KeepReason }[] = [];
  for (const f of plan.files) if (f.kept) kept.push({ abs: f.abs, reason: f.kept });

  const deleted = new Set<string>();
  const parents = new Set<string>();
  for (const p of plan.deletes) {
    const abs = nodePath.join(root, p);
    const st = await lstat(abs).catch(() => undefined);
    if (!st) {
      deleted.add(p);
      continue;
    }
    // Only files and links are deleted, and only when no parent on the way is a link out of the root.
    const parentReal = await realpath(nodePath.dirname(abs)).catch(() => undefined);
    if ((!st.isFile() && !st.isSymbolicLink()) || !parentReal || !inside(realRoot, parentReal)) {
      kept.push({ abs, reason: "blocked" });
      continue;
    }
    await unlink(abs);
    deleted.add(p);
    changed.push(abs);
    for (let d = nodePath.posix.dirname(p); d !== "." && d !== ""; d = nodePath.posix.dirname(d)) parents.add(d);
  }
  // Folders the deletions emptied go too (git records no empty folders, so the checkpoint had none there).
  for (const d of [...parents].sort((a, b) => b.length - a.length))
    await rmdir(nodePath.join(root, d)).catch(() => undefined);

  const writes: string[] = [];
  for (const p of plan.writes) {
    const blocked = await writeBlocked(root, p, deleted);
    if (blocked || (await lstat(nodePath.join(root, p)).catch(() => undefined))?.isDirectory())
      kept.push({ abs: nodePath.join(root, p), reason: blocked ?? "blocked" });
    else writes.push(p);
  }
  await repo.checkout(plan.target, writes);
  for (const p of writes) changed.push(nodePath.join(root, p));
  return { changed, kept };
}
