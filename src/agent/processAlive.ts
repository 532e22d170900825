/**
 * Whether a process with this pid exists (signal 0 probes without sending). EPERM means it exists but belongs
 * to someone else: alive, so nothing of it is taken for stale.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
