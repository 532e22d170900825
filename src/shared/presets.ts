/**
 * The presets (DESIGN, Settings): named sets of the auto-approve switches, shown by name in the dropdown, and
 * "Custom" once any switch differs. Shared by host and webview; it holds no policy of its own — the gate decides
 * on the switches, never on a preset's name.
 */
import { DEFAULT_ACTIONS } from "../core/settingsModel";
import type { AutoApproveAction, Mode } from "./protocol";

export const PRESET_NAMES = ["Ask before changes", "Sandboxed autonomy", "Read-only"] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export interface Preset {
  readonly name: PresetName;
  /** One sentence of what it means, for the person choosing it. */
  readonly meaning: string;
  readonly mode: Mode;
  readonly actions: Readonly<Record<AutoApproveAction, boolean>>;
}

/** "Ask before changes" is the defaults (DESIGN, Settings): one definition, the settings model's. */
const ASK_ACTIONS: Readonly<Record<AutoApproveAction, boolean>> = DEFAULT_ACTIONS;

export const PRESETS: readonly Preset[] = [
  {
    name: "Ask before changes",
    meaning: "Reads and read-only commands run; every edit and every other command waits for you.",
    mode: "normal",
    actions: ASK_ACTIONS,
  },
  {
    name: "Sandboxed autonomy",
    meaning:
      "Edits and commands run inside the OS sandbox after a checkpoint; the network, outside files and deletion wait for you.",
    mode: "normal",
    actions: { ...ASK_ACTIONS, editFiles: true, executeInSandbox: true },
  },
  {
    name: "Read-only",
    meaning: "Plan mode: the agent reads and plans; edits and state-changing commands are refused.",
    mode: "plan",
    actions: ASK_ACTIONS,
  },
];

export interface SwitchState {
  readonly mode: Mode;
  readonly autoApprove: {
    readonly enabled: boolean;
    readonly all: boolean;
    readonly actions: Readonly<Record<AutoApproveAction, boolean>>;
  };
}

/** The preset these switches are, or undefined ("Custom"). */
export function presetOf(s: SwitchState): Preset | undefined {
  if (!s.autoApprove.enabled || s.autoApprove.all) return undefined;
  return PRESETS.find(
    (p) =>
      p.mode === s.mode &&
      (Object.keys(p.actions) as AutoApproveAction[]).every((k) => p.actions[k] === s.autoApprove.actions[k]),
  );
}

export function presetNamed(name: PresetName): Preset {
  const p = PRESETS.find((x) => x.name === name);
  if (!p) throw new Error(`unknown preset: ${name}`);
  return p;
}
