// Builds the three bundles: the extension host (cjs/node, vscode external), the CLI (cjs/node),
// and the webview (esm/browser). Grammar .wasm files are copied next to them so nothing downloads.
import * as esbuild from "esbuild";
import { chmodSync, copyFileSync, mkdirSync, existsSync } from "node:fs";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");

const common = { bundle: true, sourcemap: !production, minify: production, logLevel: "info", legalComments: "none" };
// web-tree-sitter's ESM build needs import.meta.url, which a cjs bundle does not have: node bundles use its cjs build.
const nodeAlias = { "web-tree-sitter": "./node_modules/web-tree-sitter/tree-sitter.cjs" };

const builds = [
  {
    ...common,
    entryPoints: ["src/extension.ts"],
    outfile: "dist/extension.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    alias: nodeAlias,
  },
  {
    ...common,
    entryPoints: ["src/cli.ts"],
    outfile: "dist/cli.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
    alias: nodeAlias,
  },
].filter((b) => existsSync(b.entryPoints[0]));

if (existsSync("webview-ui/src/main.tsx")) {
  builds.push({
    ...common,
    entryPoints: ["webview-ui/src/main.tsx"],
    outfile: "dist/webview.js",
    platform: "browser",
    format: "esm",
    target: "es2022",
    loader: { ".ttf": "file" },
  });
}

function copyAssets() {
  mkdirSync("dist", { recursive: true });
  copyFileSync("node_modules/web-tree-sitter/tree-sitter.wasm", "dist/tree-sitter.wasm");
  copyFileSync("node_modules/tree-sitter-bash/tree-sitter-bash.wasm", "dist/tree-sitter-bash.wasm");
  for (const f of ["codicon.css", "codicon.ttf"]) {
    copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/${f}`);
  }
}

copyAssets();
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // The CLI is the package's `bin`: executable, so `toolgate` runs it through its #!/usr/bin/env node line.
  if (existsSync("dist/cli.js")) chmodSync("dist/cli.js", 0o755);
}
