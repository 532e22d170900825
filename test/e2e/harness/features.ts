/**
 * What the scenarios need from this build, checked against what is actually installed (the manifest
 * code-server extracted from our VSIX). A scenario names the features it needs; the runner FAILS it, with
 * the reason, when one is missing or broken. Nothing is skipped: a renamed setting, view or container makes
 * every scenario that relies on it fail instead of quietly not running.
 */
import type { Manifest, PackageResult } from "./vsix";

export type Feature = "vsix" | "panel" | "agent" | "scriptedModel";

export type FeatureState =
  | { readonly ok: true; readonly note?: string }
  /** `after`: missing only because that other feature is (so a report names the root cause once). */
  | { readonly ok: false; readonly reason: string; readonly after?: Feature };

export type Features = Readonly<Record<Feature, FeatureState>>;

const missing = (reason: string, after?: Feature): FeatureState => ({ ok: false, reason, after });

/** The names the scenarios drive; each must be in the installed manifest exactly. */
export const CONTAINER_ID = "toolgate";
export const VIEW_ID = "toolgate.chatView";
/** The agent is pointed at the loopback scripted model through this setting (and its sibling `.model`). */
export const BASE_URL_SETTING = "toolgate.openai.baseUrl";

export interface InstallOutcome {
  readonly packaged: PackageResult;
  /** Set when the VSIX was built: the installed manifest, or why installing failed. */
  readonly manifest?: Manifest;
  readonly installError?: string;
  /** Why the scripted model server (test/support/scriptedModel.ts) could not be loaded, if it could not. */
  readonly scriptedModelError?: string;
}

export function detectFeatures(o: InstallOutcome): Features {
  let vsix: FeatureState;
  if (o.packaged.status === "failed") vsix = missing(`the VSIX cannot be built: ${o.packaged.reason}`);
  else if (o.installError) vsix = missing(`code-server --install-extension failed: ${o.installError}`);
  else if (!o.manifest) vsix = missing("the VSIX installed but its folder is missing from the extensions dir");
  else vsix = { ok: true };

  const m = o.manifest;
  let panel: FeatureState;
  if (!vsix.ok || !m) panel = missing("needs the installed VSIX", "vsix");
  else if (!m.contributes?.viewsContainers?.activitybar?.some((c) => c.id === CONTAINER_ID))
    panel = missing(`the manifest has no activity-bar view container \`${CONTAINER_ID}\``);
  else if (!(m.contributes.views?.[CONTAINER_ID] ?? []).some((v) => v.id === VIEW_ID && v.type === "webview"))
    panel = missing(`the \`${CONTAINER_ID}\` container has no webview view \`${VIEW_ID}\``);
  else panel = { ok: true };

  const props = m?.contributes?.configuration?.properties ?? {};
  const modelSetting = BASE_URL_SETTING.replace(/baseUrl$/, "model");
  let agent: FeatureState;
  if (!vsix.ok) agent = missing("needs the installed VSIX", "vsix");
  else if (!(BASE_URL_SETTING in props) || !(modelSetting in props))
    agent = missing(
      `the manifest has no \`${BASE_URL_SETTING}\` / \`${modelSetting}\` setting: the e2e cannot point the agent at the scripted model`,
    );
  else agent = { ok: true, note: BASE_URL_SETTING };

  const scriptedModel: FeatureState = o.scriptedModelError
    ? missing(`test/support/scriptedModel.ts cannot be loaded: ${o.scriptedModelError}`)
    : { ok: true };

  return { vsix, panel, agent, scriptedModel };
}
