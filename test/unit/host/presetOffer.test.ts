/**
 * The first-run preset card through the host: offered in the state until answered once, choosing writes the
 * preset's switches at user scope (and the dropdown then names it), "Decide later" writes nothing, the command
 * offers it again, and a preset the managed policy contradicts is refused before anything is written.
 */
import { describe, expect, it } from "vitest";
import { settingsFromInspect } from "../../../src/core/settingsLayers";
import { PresetOfferState, PRESETS_ANSWERED_KEY } from "../../../src/host/presetOffer";
import { SECTION, SettingsBridge, type SettingKey } from "../../../src/host/settingsBridge";
import { presetOf } from "../../../src/shared/presets";
import { FakeConfigStore, FakeMemento } from "./fakes";
import { makeHost } from "./harness";

const choose = (preset: string | null) => ({ type: "choosePreset", requestId: 7, preset });

describe("first-run presets: host state and intents", () => {
  it("offered on first run, with the suggestion the sandbox allows; choosing writes it and ends the offer", async () => {
    const h = makeHost({ presets: true });
    const w = h.webview("view");
    await w.send({ type: "ready" });
    const offer = w.store.getState().presetOffer;
    const works = h.settings.view().sandbox?.available === true;
    expect(offer).toMatchObject({
      suggested: works ? "Sandboxed autonomy" : "Ask before changes",
      sandboxWorks: works,
    });

    await w.send(choose("Sandboxed autonomy"));
    expect(w.fake.ofType("result").at(-1)).toMatchObject({ requestId: 7, ok: true });
    expect(h.config.global.get("autoApprove.actions")).toMatchObject({ editFiles: true, executeInSandbox: true });
    expect(h.config.global.get("mode")).toBe("normal");
    expect(presetOf(h.settings.view())?.name).toBe("Sandboxed autonomy");
    expect(w.store.getState().presetOffer).toBeNull();
    expect(h.globalState.get(PRESETS_ANSWERED_KEY)).toBe(true);

    // Shown once: a new panel does not get it again.
    const w2 = h.webview("tab");
    await w2.send({ type: "ready" });
    expect(w2.store.getState().presetOffer).toBeNull();
  });

  it("Read-only writes plan mode; Decide later writes nothing; the command offers the card again", async () => {
    const h = makeHost({ presets: true });
    const w = h.webview("view");
    await w.send({ type: "ready" });
    await w.send(choose(null));
    expect(h.config.writes).toEqual([]);
    expect(w.store.getState().presetOffer).toBeNull();

    h.controller.offerPresets();
    expect(w.store.getState().presetOffer).not.toBeNull();
    await w.send(choose("Read-only"));
    expect(h.config.global.get("mode")).toBe("plan");
    expect(presetOf(h.settings.view())?.name).toBe("Read-only");
    expect(w.store.getState().presetOffer).toBeNull();
  });

  it("a preset name the schema does not know is dropped, and nothing is written", async () => {
    const h = makeHost({ presets: true });
    const w = h.webview("view");
    await w.send({ type: "ready" });
    await w.send(choose("Everything"));
    expect(h.config.writes).toEqual([]);
    expect(h.logs.some((l) => /malformed/.test(l))).toBe(true);
    expect(w.store.getState().presetOffer).not.toBeNull();
  });
});

describe("applyPreset under a managed policy", () => {
  const bridge = (c: FakeConfigStore, managed: Record<string, unknown>) => {
    const s = new SettingsBridge(c, () => true);
    s.useReader(() =>
      settingsFromInspect(
        (key) => (key.startsWith(`${SECTION}.`) ? c.inspect(key.slice(SECTION.length + 1) as SettingKey) : undefined),
        [{ source: "managed", flat: managed }],
      ),
    );
    return s;
  };

  it("refuses a preset that needs a switch the policy fixed off, writing nothing and keeping the offer", async () => {
    const c = new FakeConfigStore();
    const memento = new FakeMemento();
    const s = bridge(c, { "toolgate.autoApprove.actions": { executeInSandbox: false } });
    const state = new PresetOfferState(memento, s);
    await expect(state.choose("Sandboxed autonomy")).rejects.toThrow(/administrator/);
    expect(c.writes).toEqual([]);
    expect(memento.get(PRESETS_ANSWERED_KEY)).toBeUndefined();
    await state.choose("Ask before changes");
    expect(memento.get(PRESETS_ANSWERED_KEY)).toBe(true);
  });
});
