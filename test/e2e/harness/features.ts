/**
 * Which product features this build has, read from what is actually installed (the manifest code-server
 * extracted from our VSIX) and from the tree. A scenario names the features it needs; the runner skips it
 * with the reason when one is absent, and fails it when one is broken (present but unusable).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Manifest, PackageResult } from "./vsix";

export type Feature = "vsix" | "panel" | "agent" | "scriptedModel";

export type FeatureState =
  | { readonly ok: true; readonly note?: string }
  /** `after`: absent only because that other feature is (so a report names the root cause once). */
  | { readonly ok: false; readonly kind: "absent" | "broken"; readonly reason: string; readonly after?: Feature };

export type Features = Readonly<Record<Feature, FeatureState>>;

const absent = (reason: string, after?: Feature): FeatureState => ({ ok: false, kind: "absent", reason, after });
const broken = (reason: string): FeatureState => ({ ok: false, kind: "broken", reason });

export interface InstallOutcome {
  readonly packaged: PackageResult;
  /** Set when the VSIX was built: the installed manifest, or why installing failed. */
  readonly manifest?: Manifest;
  readonly installError?: string;
}

export function detectFeatures(repoRoot: string, o: InstallOutcome): Features {
  let vsix: FeatureState;
  if (o.packaged.status === "absent") vsix = absent(o.packaged.reason);
  else if (o.packaged.status === "failed") vsix = broken(`the VSIX cannot be built: ${o.packaged.reason}`);
  else if (o.installError) vsix = broken(`code-server --install-extension failed: ${o.installError}`);
  else if (!o.manifest) vsix = broken("the VSIX installed but its folder is missing from the extensions dir");
  else vsix = { ok: true };

  const m = o.manifest;
  let panel: FeatureState;
  if (!vsix.ok) panel = absent("needs the installed VSIX", "vsix");
  else if (!m?.contributes?.viewsContainers?.activitybar?.some((c) => c.id === "toolgate")) {
    panel = absent(
      "the manifest has no `contributes.viewsContainers.activitybar` entry `toolgate`: the approval UI (issue 5) is not on this branch yet",
    );
  } else if (
    !Object.values(m.contributes.views ?? {})
      .flat()
      .some((v) => v.type === "webview")
  ) {
    panel = broken("the Toolgate view container has no webview view");
  } else panel = { ok: true };

  // The agent runtime drives tasks against an OpenAI-compatible endpoint; the e2e points it at the loopback
  // scripted model through that endpoint's base-URL setting, so without such a setting nothing can run.
  const props = Object.keys(m?.contributes?.configuration?.properties ?? {});
  const baseUrlKey = props.find((k) => /openai.*baseurl/i.test(k)) ?? props.find((k) => /baseurl/i.test(k));
  let agent: FeatureState;
  if (!vsix.ok) agent = absent("needs the installed VSIX", "vsix");
  else if (!existsSync(join(repoRoot, "src", "agent", "task")))
    agent = absent("src/agent/task is not on this branch yet: the agent runtime (issue 4) has not landed");
  else if (!baseUrlKey)
    agent = absent(
      "no OpenAI-compatible base-URL setting (`toolgate.*baseUrl`) in the manifest: the e2e cannot point the agent at the scripted model yet",
    );
  else agent = { ok: true, note: baseUrlKey };

  const scriptedModel = existsSync(join(repoRoot, "test", "support", "scriptedModel.ts"))
    ? ({ ok: true } as const)
    : absent("test/support/scriptedModel.ts (the loopback scripted model server, issue 4) is not on this branch yet");

  return { vsix, panel, agent, scriptedModel };
}
