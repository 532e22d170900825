/**
 * One operation at a time per workspace store, across processes (two windows on one folder, the CLI next to
 * the editor): a lock file created exclusively, holding the owner's pid. A lock whose owner is gone, or that
 * is older than `staleMs`, is taken over.
 */
import { open, readFile, rename, rm, stat } from "node:fs/promises";
import { CheckpointError } from "./types";
import { processAlive } from "../processAlive";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function isStale(file: string, staleMs: number): Promise<boolean> {
  try {
    const [text, st] = await Promise.all([readFile(file, "utf8"), stat(file)]);
    const pid = Number(JSON.parse(text).pid);
    return Date.now() - st.mtimeMs > staleMs || (Number.isInteger(pid) && pid > 0 && !processAlive(pid));
  } catch {
    // Being written right now (empty) or already gone: not stale, try again.
    return false;
  }
}

export async function withWorkspaceLock<T>(
  file: string,
  f: () => Promise<T>,
  { waitMs = 60_000, staleMs = 10 * 60_000 } = {},
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fh = await open(file, "wx");
      try {
        await fh.writeFile(JSON.stringify({ pid: process.pid, at: Date.now() }));
      } finally {
        await fh.close();
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (await isStale(file, staleMs)) {
        // Renaming first makes the takeover atomic: of two waiters, one moves the stale file away.
        const aside = `${file}.stale-${process.pid}-${Date.now()}`;
        await rename(file, aside).then(
          () => rm(aside, { force: true }),
          () => undefined,
        );
        continue;
      }
      if (Date.now() > deadline)
        throw new CheckpointError("The checkpoint store is busy: another window or command is using it.");
      await sleep(40);
    }
  }
  try {
    return await f();
  } finally {
    await rm(file, { force: true });
  }
}
