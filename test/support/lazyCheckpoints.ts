import type { CheckpointService } from "../../src/agent/checkpoints/types";
import { cliCheckpointService } from "../../src/cli/checkpoints";
import { DEFAULT_CHECKPOINT_SETTINGS } from "../../src/core/checkpointSettings";

/**
 * A real git checkpoint service for a workspace that does not exist yet when the harness is configured (the
 * harness makes it): built on first use, from `dir()`.
 */
export function lazyCheckpoints(dir: () => string, storageDir: string): CheckpointService {
  let inner: CheckpointService | undefined;
  const service = (): CheckpointService =>
    (inner ??= cliCheckpointService({
      roots: [dir()],
      settings: DEFAULT_CHECKPOINT_SETTINGS,
      ignoreFile: ".toolgateignore",
      trusted: true,
      storageDir,
    }));
  return new Proxy({} as CheckpointService, {
    get: (_, key) => {
      const s = service();
      const v: unknown = Reflect.get(s, key);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(s) : v;
    },
  });
}
