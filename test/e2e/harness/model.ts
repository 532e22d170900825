/**
 * The loopback scripted model server is test/support/scriptedModel.ts. It is loaded at run time — compiled
 * with esbuild on the spot, as the unit tests' TypeScript is — and the shape we rely on is spelled out here
 * and checked when it loads; a load failure fails every scenario that drives the agent.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

export interface ScriptedModelLike {
  readonly openAiBaseUrl: string;
  readonly anthropicBaseUrl: string;
  readonly requests: ReadonlyArray<{ readonly format: string; readonly body: Record<string, unknown> }>;
  push(...turns: unknown[]): void;
  remaining(): number;
  close(): Promise<void>;
}

export type StartScriptedModel = (turns: unknown[]) => Promise<ScriptedModelLike>;

export async function loadScriptedModel(repoRoot: string, buildDir: string): Promise<StartScriptedModel> {
  const source = join(repoRoot, "test", "support", "scriptedModel.ts");
  if (!existsSync(source)) throw new Error(`${source} is missing`);
  const outfile = join(buildDir, "scriptedModel.mjs");
  await build({
    entryPoints: [source],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "silent",
  });
  const mod = (await import(pathToFileURL(outfile).href)) as { startScriptedModel?: StartScriptedModel };
  if (typeof mod.startScriptedModel !== "function") throw new Error(`${source} no longer exports startScriptedModel`);
  return mod.startScriptedModel;
}
