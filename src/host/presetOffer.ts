/**
 * The first-run preset card's state, kept by the host (the webview only renders it and sends the choice).
 * Shown until the person answers it once — a preset, or "Decide later" — then never again, unless a command
 * asks for it (`toolgate.choosePreset`). No `vscode` import: the memento is `ExtensionContext.globalState`.
 *
 * Invariant: choosing writes exactly the preset's switches at user scope through `SettingsBridge.applyPreset`
 * (which refuses what the managed policy fixes); the card never decides anything itself.
 */
import type { PresetChoice, PresetOffer } from "../shared/protocol";
import { presetNamed } from "../shared/presets";
import type { SettingsBridge } from "./settingsBridge";

/** The slice of `vscode.Memento` used here. */
export interface Memento {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** `ExtensionContext.globalState` key: the card was answered (any answer). */
export const PRESETS_ANSWERED_KEY = "toolgate.presetsAnswered";

export class PresetOfferState {
  /** Asked for again by the command, until answered. */
  private reopened = false;

  constructor(
    private readonly memento: Memento,
    private readonly settings: SettingsBridge,
  ) {}

  /** What the card shows, or undefined when it is not to be shown. */
  offer(): PresetOffer | undefined {
    if (!this.reopened && this.memento.get(PRESETS_ANSWERED_KEY) === true) return undefined;
    const sandbox = this.settings.view().sandbox;
    const works = sandbox !== undefined && sandbox.available && sandbox.mode !== "off";
    return {
      suggested: works ? "Sandboxed autonomy" : "Ask before changes",
      sandboxWorks: works,
      ...(!works && sandbox
        ? { sandboxReason: sandbox.mode === "off" ? "toolgate.sandbox.mode is off" : sandbox.reason }
        : {}),
    };
  }

  /** The command: show the card again (the caller reveals the panel and broadcasts the state). */
  reopen(): void {
    this.reopened = true;
  }

  /** The person's answer: a preset is written first; the card is marked answered only once that worked. */
  async choose(choice: PresetChoice): Promise<void> {
    if (choice !== null) await this.settings.applyPreset(presetNamed(choice));
    this.reopened = false;
    await this.memento.update(PRESETS_ANSWERED_KEY, true);
  }
}
