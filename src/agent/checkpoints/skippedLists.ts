/**
 * What each checkpoint left out, stored once per distinct list (consecutive checkpoints usually skip the
 * same things). Restore reads it to tell "absent at the checkpoint" from "not covered by it".
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import * as nodePath from "node:path";
import { writeFileAtomic } from "../history/atomicWrite";

export interface SkippedList {
  /** Root-relative; folders end in `/` and stand for everything below them. */
  readonly paths: readonly string[];
  /** More was skipped than `paths` holds: nothing absent from the checkpoint counts as known absent. */
  readonly truncated: boolean;
}

export class SkippedLists {
  private readonly cache = new Map<string, SkippedList>();

  constructor(private readonly dir: string) {}

  async save(list: SkippedList): Promise<string> {
    const text = JSON.stringify(list);
    const id = createHash("sha256").update(text).digest("hex").slice(0, 32);
    if (!this.cache.has(id)) {
      const file = nodePath.join(this.dir, id + ".json");
      if (!existsSync(file)) await writeFileAtomic(file, text);
      this.cache.set(id, list);
    }
    return id;
  }

  /** An unreadable list counts as truncated, so restore then deletes nothing it cannot vouch for. */
  async load(id: string): Promise<SkippedList> {
    const cached = this.cache.get(id);
    if (cached) return cached;
    try {
      const v = JSON.parse(await readFile(nodePath.join(this.dir, id + ".json"), "utf8")) as SkippedList;
      if (Array.isArray(v.paths) && typeof v.truncated === "boolean") {
        this.cache.set(id, v);
        return v;
      }
    } catch {
      // fall through
    }
    return { paths: [], truncated: true };
  }

  async keepOnly(live: ReadonlySet<string>): Promise<void> {
    for (const n of await readdir(this.dir).catch(() => [] as string[])) {
      const id = n.replace(/\.json$/, "");
      if (n.endsWith(".json") && !live.has(id)) {
        this.cache.delete(id);
        await rm(nodePath.join(this.dir, n), { force: true });
      }
    }
  }
}

/** Whether `path` was certainly absent when the list was taken (not under anything the checkpoint skipped). */
export function knownAbsent(list: SkippedList, path: string): boolean {
  if (list.truncated) return false;
  for (const s of list.paths) {
    if (s.endsWith("/") ? path.startsWith(s) : path === s) return false;
  }
  return true;
}
