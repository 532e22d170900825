/**
 * The `toolgate.checkpoints.*` settings: whether the agent's changes are recorded so they can be undone, and
 * how much a checkpoint may read and keep.
 *
 * Parsing fails closed: a value of the wrong shape is reported, and the key takes the value that reads and
 * keeps the least — `enabled` off (nothing is read into a store the person did not clearly agree to),
 * `includeGitignored` off, the sizes at their defaults (never larger).
 */

export interface CheckpointSettings {
  readonly enabled: boolean;
  /** Total size of the checkpoint store per workspace; the oldest tasks are dropped past it. */
  readonly maxSizeMB: number;
  /** Files larger than this are left out of checkpoints (and reported). */
  readonly maxFileSizeMB: number;
  /** Also record files the person's `.gitignore` files exclude (build output, `.env`). */
  readonly includeGitignored: boolean;
}

export const DEFAULT_CHECKPOINT_SETTINGS: CheckpointSettings = {
  enabled: true,
  maxSizeMB: 500,
  maxFileSizeMB: 5,
  includeGitignored: false,
};

export const CHECKPOINT_SETTING_KEYS = {
  enabled: "toolgate.checkpoints.enabled",
  maxSizeMB: "toolgate.checkpoints.maxSizeMB",
  maxFileSizeMB: "toolgate.checkpoints.maxFileSizeMB",
  includeGitignored: "toolgate.checkpoints.includeGitignored",
} as const;

/** Upper bounds that keep a typo (an extra zero or three) from filling a disk. */
const MAX_STORE_MB = 100_000;
const MAX_FILE_MB = 1024;

export interface CheckpointSettingsResult {
  readonly value: CheckpointSettings;
  /** One message per malformed key; the key then has its fail-closed value. */
  readonly errors: readonly string[];
}

function sizeIn(v: unknown, max: number): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v > 0 && v <= max ? v : undefined;
}

/** Parses the flat keys of one settings object (keys outside `toolgate.checkpoints.` are not looked at). */
export function parseCheckpointSettings(
  flat: Readonly<Record<string, unknown>>,
  source = "settings",
): CheckpointSettingsResult {
  const errors: string[] = [];
  const fail = (key: string, expected: string, got: unknown): void => {
    errors.push(`${source}: \`${key}\` must be ${expected}, got ${JSON.stringify(got)}`);
  };
  const d = DEFAULT_CHECKPOINT_SETTINGS;
  const K = CHECKPOINT_SETTING_KEYS;

  let enabled = d.enabled;
  const enabledRaw = flat[K.enabled];
  if (enabledRaw !== undefined) {
    if (typeof enabledRaw === "boolean") enabled = enabledRaw;
    else {
      fail(K.enabled, "true or false", enabledRaw);
      enabled = false;
    }
  }

  let includeGitignored = d.includeGitignored;
  const includeRaw = flat[K.includeGitignored];
  if (includeRaw !== undefined) {
    if (typeof includeRaw === "boolean") includeGitignored = includeRaw;
    else fail(K.includeGitignored, "true or false", includeRaw);
  }

  const size = (key: string, raw: unknown, fallback: number, max: number): number => {
    if (raw === undefined) return fallback;
    const v = sizeIn(raw, max);
    if (v !== undefined) return v;
    fail(key, `a number of megabytes above 0 and at most ${max}`, raw);
    return fallback;
  };

  return {
    value: {
      enabled,
      includeGitignored,
      maxSizeMB: size(K.maxSizeMB, flat[K.maxSizeMB], d.maxSizeMB, MAX_STORE_MB),
      maxFileSizeMB: size(K.maxFileSizeMB, flat[K.maxFileSizeMB], d.maxFileSizeMB, MAX_FILE_MB),
    },
    errors,
  };
}
