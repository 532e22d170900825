// Runs every bench/*.bench.ts (or only those whose name contains argv[2]): each is bundled with esbuild
// and run in its own Node process, so one benchmark's heap and JIT state never colour another's figures.
// Benchmarks print figures; they never pass or fail on time.
import * as esbuild from "esbuild";
import { readdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";

const filter = process.argv[2] ?? "";
const files = readdirSync("bench")
  .filter((f) => f.endsWith(".bench.ts") && f.includes(filter))
  .sort();
const out = mkdtempSync(join(tmpdir(), "toolgate-bench-"));
let failed = 0;
for (const f of files) {
  const outfile = join(out, f.replace(/\.ts$/, ".cjs"));
  await esbuild.build({
    entryPoints: [join("bench", f)],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    logLevel: "error",
    alias: { "web-tree-sitter": "./node_modules/web-tree-sitter/tree-sitter.cjs" },
  });
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ["--expose-gc", outfile], {
    stdio: "inherit",
    env: { ...process.env, TOOLGATE_DIST: join(process.cwd(), "dist") },
  });
  if (r.status !== 0) failed++;
}
// The bundles were only for this run: no folder is left in the temp directory.
rmSync(out, { recursive: true, force: true });
if (failed) {
  console.error(`${failed} benchmark(s) crashed`);
  process.exit(1);
}
