/**
 * Atomic file replacement: write a temp file next to the target, flush it to disk, rename over the target.
 * A crash leaves either the old file or the new one, never half of one. Temp names are unique per process
 * and call, so concurrent writers never share a temp file.
 */
import { open, rename, rm, mkdir } from "node:fs/promises";
import * as nodePath from "node:path";

let seq = 0;

export interface WriteCounter {
  writes: number;
  bytes: number;
  /** Writes per file name (e.g. "index.json"), for the bench. */
  readonly byFile: Record<string, number>;
}

/**
 * `durable: false` skips the flush: the rename still replaces the file whole, but a power cut may leave the
 * old content. For records whose loss costs less than a flush on every write (a checkpoint step's record names
 * git trees that git itself writes without a flush).
 */
export async function writeFileAtomic(
  path: string,
  data: string,
  counter?: WriteCounter,
  durable = true,
): Promise<void> {
  await mkdir(nodePath.dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${++seq}`;
  const fh = await open(tmp, "w");
  try {
    await fh.writeFile(data, "utf8");
    if (durable) await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  if (counter) {
    counter.writes++;
    counter.bytes += Buffer.byteLength(data);
    const name = nodePath.basename(path);
    counter.byFile[name] = (counter.byFile[name] ?? 0) + 1;
  }
}
