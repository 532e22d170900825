/**
 * Settings for tests that run under one of the product's presets: the preset's own switches (src/shared/presets.ts),
 * so a change to the preset is a change to what these tests check.
 */
import { presetNamed } from "../../src/shared/presets";

/** "Sandboxed autonomy" as flat settings: edits and commands inside the sandbox auto-approved. */
export const SANDBOXED_AUTONOMY: Readonly<Record<string, unknown>> = {
  "toolgate.autoApprove.actions": presetNamed("Sandboxed autonomy").actions,
};
