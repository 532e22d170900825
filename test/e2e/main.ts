/**
 * The e2e run, after test/e2e/run.mjs made sure the toolchain is cached: build the VSIX with
 * `npm run package`, install it into a fresh extensions folder, find out which features this build has,
 * launch Chromium, run every scenario (each with its own code-server and user-data folder), print the
 * report and the timings. Returns the exit code: 1 when any scenario failed.
 *
 * Environment: E2E_ONLY=a,b,s1 runs only those ids (the others are not listed); E2E_KEEP=1 keeps the
 * run's temp folder (user-data dirs, code-server logs) for debugging.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium } from "./harness/browser";
import { installVsix, type Toolchain } from "./harness/codeServer";
import { detectFeatures, type Features } from "./harness/features";
import { loadScriptedModel, type StartScriptedModel } from "./harness/model";
import { cleanupAll, installSignalHandlers, liveGroups, onCleanup } from "./harness/processes";
import { printSummary, runScenarios } from "./harness/runner";
import type { RunInfo } from "./harness/scenario";
import { EXTENSION_ID } from "./harness/webview";
import { installedManifest, packageVsix, type Manifest } from "./harness/vsix";
import { scenarios } from "./scenarios/index";

const secs = (ms: number): string =>
  ms >= 60_000
    ? `${Math.floor(ms / 60_000)} min ${((ms % 60_000) / 1000).toFixed(0)} s`
    : `${(ms / 1000).toFixed(1)} s`;

function printFeatures(features: Features): void {
  console.log("[e2e] features of this build:");
  for (const [name, st] of Object.entries(features)) {
    const text = st.ok ? `yes${st.note ? ` (${st.note})` : ""}` : `MISSING: ${st.reason.split("\n")[0]}`;
    console.log(`[e2e]   ${name.padEnd(13)} ${text}`);
  }
}

export async function main(
  toolchain: Toolchain,
  repoRoot: string,
  setupMs: number,
  startedAt: number,
): Promise<number> {
  installSignalHandlers();
  const timings: Array<[string, number]> = [["set-up", setupMs]];
  const resultsDir = join(repoRoot, "test-results", "e2e");
  rmSync(resultsDir, { recursive: true, force: true });
  mkdirSync(resultsDir, { recursive: true });
  const runDir = mkdtempSync(join(tmpdir(), "toolgate-e2e-"));
  if (process.env.E2E_KEEP === "1") console.log(`[e2e] keeping the run folder ${runDir}`);
  else onCleanup(() => rmSync(runDir, { recursive: true, force: true }));

  try {
    let t = Date.now();
    console.log("[e2e] npm run package …");
    const packaged = await packageVsix(repoRoot, join(resultsDir, "package.log"));
    timings.push(["npm run package", Date.now() - t]);
    console.log(
      `[e2e] package: ${packaged.status === "built" ? packaged.vsix : `${packaged.status.toUpperCase()}: ${packaged.reason}`}`,
    );

    const extensionsDir = join(runDir, "extensions");
    mkdirSync(extensionsDir, { recursive: true });
    let manifest: Manifest | undefined;
    let installError: string | undefined;
    if (packaged.status === "built") {
      t = Date.now();
      try {
        const listed = await installVsix(
          toolchain,
          packaged.vsix,
          extensionsDir,
          join(runDir, "install"),
          join(resultsDir, "install.log"),
        );
        manifest = installedManifest(extensionsDir, EXTENSION_ID);
        const line = listed.split("\n").find((l) => l.toLowerCase().startsWith(`${EXTENSION_ID}@`));
        if (!line) installError = `--list-extensions does not list ${EXTENSION_ID}:\n${listed}`;
        else console.log(`[e2e] installed: ${line.trim()}`);
      } catch (e) {
        installError = e instanceof Error ? e.message : String(e);
      }
      timings.push(["install VSIX", Date.now() - t]);
    }

    let startScriptedModel: StartScriptedModel | undefined;
    let scriptedModelError: string | undefined;
    try {
      startScriptedModel = await loadScriptedModel(repoRoot, join(runDir, "build"));
    } catch (e) {
      scriptedModelError = e instanceof Error ? e.message : String(e);
    }
    const features = detectFeatures({ packaged, manifest, installError, scriptedModelError });
    printFeatures(features);

    const info: RunInfo = {
      repoRoot,
      features,
      manifest,
      startScriptedModel,
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [
            join(repoRoot, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"),
            "stdio",
          ],
        },
      },
    };

    const only = process.env.E2E_ONLY?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const selected = only ? scenarios.filter((s) => only.includes(s.id)) : scenarios;
    t = Date.now();
    const browser = await launchChromium(runDir);
    timings.push(["launch Chromium", Date.now() - t]);

    t = Date.now();
    const outcomes = await runScenarios(selected, info, { toolchain, browser, extensionsDir, resultsDir }, runDir);
    timings.push(["scenarios", Date.now() - t]);

    const counts = printSummary(outcomes);
    await cleanupAll();
    const leftovers = liveGroups();
    if (leftovers.length > 0)
      console.log(`[e2e] WARNING: process groups still registered after cleanup: ${leftovers.join(", ")}`);
    console.log(`[e2e] screenshots and logs: ${resultsDir}`);
    console.log(`[e2e] timings: ${timings.map(([k, v]) => `${k} ${secs(v)}`).join(", ")}`);
    console.log(`[e2e] total ${secs(Date.now() - startedAt)}`);
    // The plain closing line CI reads.
    console.log(`e2e: ${counts.passed} passed (${counts.flaky} on a retry), ${counts.failed} failed`);
    return counts.failed > 0 ? 1 : 0;
  } finally {
    await cleanupAll();
  }
}
