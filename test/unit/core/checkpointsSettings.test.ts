import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CHECKPOINT_SETTING_KEYS,
  DEFAULT_CHECKPOINT_SETTINGS,
  parseCheckpointSettings,
} from "../../../src/core/checkpointSettings";
import { parseSettings } from "../../../src/core/settingsModel";

describe("toolgate.checkpoints.* settings", () => {
  it("defaults: on, 500 MB store, 5 MB files, gitignored files left out", () => {
    expect(parseCheckpointSettings({})).toEqual({ value: DEFAULT_CHECKPOINT_SETTINGS, errors: [] });
    expect(DEFAULT_CHECKPOINT_SETTINGS).toEqual({
      enabled: true,
      maxSizeMB: 500,
      maxFileSizeMB: 5,
      includeGitignored: false,
    });
  });

  it("reads valid values", () => {
    const r = parseCheckpointSettings({
      "toolgate.checkpoints.enabled": false,
      "toolgate.checkpoints.maxSizeMB": 50,
      "toolgate.checkpoints.maxFileSizeMB": 0.5,
      "toolgate.checkpoints.includeGitignored": true,
    });
    expect(r).toEqual({
      value: { enabled: false, maxSizeMB: 50, maxFileSizeMB: 0.5, includeGitignored: true },
      errors: [],
    });
  });

  it("fails closed: a malformed value is reported and reads and keeps the least", () => {
    const r = parseCheckpointSettings(
      {
        "toolgate.checkpoints.enabled": "yes",
        "toolgate.checkpoints.includeGitignored": 1,
        "toolgate.checkpoints.maxSizeMB": -3,
        "toolgate.checkpoints.maxFileSizeMB": 1e9,
      },
      "user settings",
    );
    expect(r.value).toEqual({ enabled: false, includeGitignored: false, maxSizeMB: 500, maxFileSizeMB: 5 });
    expect(r.errors).toHaveLength(4);
    expect(r.errors[0]).toContain("user settings: `toolgate.checkpoints.enabled` must be true or false");
    for (const bad of [Number.NaN, Infinity, 0, "10", null])
      expect(parseCheckpointSettings({ "toolgate.checkpoints.maxSizeMB": bad }).value.maxSizeMB).toBe(500);
  });

  it("the gate's settings parser knows the keys (a settings file holding them is not an error)", () => {
    const flat = Object.fromEntries(Object.values(CHECKPOINT_SETTING_KEYS).map((k) => [k, true]));
    const r = parseSettings({ ...flat, "toolgate.checkpoints.maxSizeMB": 10, "toolgate.checkpoints.maxFileSizeMB": 1 });
    expect(r.ok).toBe(true);
  });

  it("the manifest declares the keys with the same defaults", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    const props = pkg.contributes.configuration.properties as Record<string, { default: unknown }>;
    const flat = Object.fromEntries(Object.values(CHECKPOINT_SETTING_KEYS).map((k) => [k, props[k]?.default]));
    expect(parseCheckpointSettings(flat)).toEqual({ value: DEFAULT_CHECKPOINT_SETTINGS, errors: [] });
  });
});
