// Builds the bundles: the extension host's start-up bundle (extension.js: what activation loads), the agent
// runtime (runtime.js: loaded when the panel opens), the HTML-to-text converter (htmlToText.js: loaded when
// web_fetch runs), the CLI and the webview. Grammar .wasm files are copied next to them so nothing downloads.
//
// Options: --production (minified, no source maps), --watch, --metafile (writes dist/meta-<bundle>.json for
// `npm run size`), --outdir=DIR (default dist), --only=host (extension, runtime and htmlToText only).
import * as esbuild from "esbuild";
import { chmodSync, copyFileSync, mkdirSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const arg = (name) =>
  process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.split("=")
    .slice(1)
    .join("=");
const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");
const metafile = process.argv.includes("--metafile");
const outdir = arg("outdir") ?? "dist";
const only = arg("only");

const common = { bundle: true, sourcemap: !production, minify: production, logLevel: "info", legalComments: "none" };
// web-tree-sitter's ESM build needs import.meta.url, which a cjs bundle does not have: node bundles use its cjs build.
const nodeAlias = { "web-tree-sitter": "./node_modules/web-tree-sitter/tree-sitter.cjs" };
// Dynamic imports become require() calls: the editor's loader hooks (the `vscode` module) see only require.
const node = {
  platform: "node",
  format: "cjs",
  target: "node20",
  alias: nodeAlias,
  supported: { "dynamic-import": false },
};

/**
 * Imports that stay out of the importing bundle: each is its own bundle in the same folder, required only
 * when the importing code runs. Without this plugin (tests bundling a single entry) they are simply inlined.
 */
const SEPARATE = [
  { filter: /^\.\/host\/runtime$/, file: "./runtime.js" },
  { filter: /^\.\.\/htmlToText$/, file: "./htmlToText.js" },
];
const separateBundles = {
  name: "separate-bundles",
  setup(build) {
    for (const { filter, file } of SEPARATE) build.onResolve({ filter }, () => ({ path: file, external: true }));
  },
};

const builds = [
  {
    ...common,
    ...node,
    name: "extension",
    entryPoints: ["src/extension.ts"],
    outfile: join(outdir, "extension.js"),
    external: ["vscode"],
    plugins: [separateBundles],
  },
  {
    ...common,
    ...node,
    name: "runtime",
    entryPoints: ["src/host/runtime.ts"],
    outfile: join(outdir, "runtime.js"),
    external: ["vscode"],
    plugins: [separateBundles],
  },
  {
    ...common,
    ...node,
    name: "htmlToText",
    entryPoints: ["src/agent/tools/htmlToText.ts"],
    outfile: join(outdir, "htmlToText.js"),
  },
];
if (only !== "host") {
  builds.push(
    {
      ...common,
      ...node,
      name: "cli",
      entryPoints: ["src/cli.ts"],
      outfile: join(outdir, "cli.js"),
      banner: { js: "#!/usr/bin/env node" },
      plugins: [separateBundles],
    },
    {
      ...common,
      name: "webview",
      entryPoints: ["webview-ui/src/main.tsx"],
      outfile: join(outdir, "webview.js"),
      platform: "browser",
      format: "esm",
      target: "es2022",
      loader: { ".ttf": "file" },
    },
  );
}

function copyAssets() {
  mkdirSync(outdir, { recursive: true });
  copyFileSync("node_modules/web-tree-sitter/tree-sitter.wasm", join(outdir, "tree-sitter.wasm"));
  copyFileSync("node_modules/tree-sitter-bash/tree-sitter-bash.wasm", join(outdir, "tree-sitter-bash.wasm"));
  for (const f of ["codicon.css", "codicon.ttf"]) {
    copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, join(outdir, f));
  }
}

/** The esbuild options of a build: everything but its `name`. */
function options(b) {
  const o = { ...b, metafile };
  delete o.name;
  return o;
}

copyAssets();
if (watch) {
  for (const b of builds) await (await esbuild.context(options(b))).watch();
} else {
  await Promise.all(
    builds
      .filter((b) => existsSync(b.entryPoints[0]))
      .map(async (b) => {
        const result = await esbuild.build(options(b));
        if (metafile) writeFileSync(join(outdir, `meta-${b.name}.json`), JSON.stringify(result.metafile));
      }),
  );
  // The CLI is the package's `bin`: executable, so `toolgate` runs it through its #!/usr/bin/env node line.
  const cli = join(outdir, "cli.js");
  if (existsSync(cli)) chmodSync(cli, 0o755);
}
