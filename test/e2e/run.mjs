#!/usr/bin/env node
// `npm run test:e2e`: makes sure the cached toolchain is there (scripts/e2e/setup.mjs), bundles the
// TypeScript e2e suite with esbuild (the project's own bundler; node_modules stay external) and runs it.
// Exit code: 0 when no scenario failed, 1 when one did, 2 when the set-up needs a root command first.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { ensureSetup, SetupError } from "../../scripts/e2e/setup.mjs";

process.setSourceMapsEnabled(true);
const startedAt = Date.now();
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
process.chdir(repoRoot);

let toolchain;
try {
  toolchain = await ensureSetup();
} catch (e) {
  console.error(e instanceof SetupError ? e.message : e);
  console.error("e2e: set-up failed, no scenario ran");
  process.exit(e instanceof SetupError ? e.exitCode : 1);
}
const setupMs = Date.now() - startedAt;

const outDir = join(repoRoot, "test-results", ".e2e-build");
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, "main.mjs");
await build({
  entryPoints: [join(repoRoot, "test", "e2e", "main.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "inline",
  logLevel: "warning",
});
const { main } = await import(pathToFileURL(outfile).href);
process.exitCode = await main(toolchain, repoRoot, setupMs, startedAt);
