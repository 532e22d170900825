// Builds the bundles: the extension host's start-up bundle (extension.js: what activation loads), the agent
// runtime (runtime.js: loaded when the panel opens), the HTML-to-text converter (htmlToText.js: loaded when
// web_fetch runs), the CLI and the webview. Grammar .wasm files are copied next to them so nothing downloads.
//
// Options: --production (minified, no source maps), --watch, --metafile (writes dist/meta-<bundle>.json for
// `npm run size`), --outdir=DIR (default dist), --only=host (extension, runtime and htmlToText only),
// --only=cli (the CLI's bundles only).
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

/**
 * The CLI is an entry (dist/cli.js: the command table, nothing else) and one bundle per command, required only
 * when that command runs, so `toolgate hook` loads the gate and not the agent runtime, the MCP client or the
 * HTML converter, and `toolgate sandbox` loads no gate. The command analyzer (grammar binding and catalogue)
 * is its own bundle too, required on the first command a gate decides (core/commands/defaultAnalyzer.ts).
 * The error classes are one shared bundle, so the entry's `instanceof` holds for errors thrown in a command.
 * Each bundle holds its own copy of what it imports; one process loads one command bundle.
 */
const CLI_SPLIT = [
  { filter: /^\.\/cli\/check$/, file: "./cli-check.js", entry: "src/cli/check.ts" },
  { filter: /^\.\/cli\/runTask$/, file: "./cli-run.js", entry: "src/cli/runTask.ts" },
  { filter: /^\.\/cli\/hook$/, file: "./cli-hook.js", entry: "src/cli/hook.ts" },
  { filter: /^\.\/cli\/checkpoints$/, file: "./cli-checkpoints.js", entry: "src/cli/checkpoints.ts" },
  { filter: /^\.\/cli\/sandbox$/, file: "./cli-sandbox.js", entry: "src/cli/sandbox.ts" },
];
const CLI_SHARED = [
  { filter: /^(\.\/|\.\/cli\/)errors$/, file: "./cli-errors.js", entry: "src/cli/errors.ts" },
  { filter: /^\.\/analyzer$/, file: "./cli-analyzer.js", entry: "src/core/commands/analyzer.ts", dynamicOnly: true },
];
function cliBundles(self) {
  return {
    name: "cli-bundles",
    setup(build) {
      for (const b of [...CLI_SPLIT, ...CLI_SHARED]) {
        if (b.entry === self) continue;
        build.onResolve({ filter: b.filter }, (args) => {
          if (b.dynamicOnly && args.kind !== "dynamic-import") return undefined;
          if (b.file === "./cli-errors.js" && !/src\/cli(\.ts|\/)/.test(args.importer)) return undefined;
          return { path: b.file, external: true };
        });
      }
    },
  };
}
const cliBuild = (entry, outfile, extra = {}) => ({
  ...common,
  ...node,
  name: nodePathName(outfile),
  entryPoints: [entry],
  outfile: join(outdir, outfile),
  plugins: [separateBundles, cliBundles(entry)],
  ...extra,
});
function nodePathName(file) {
  return file.replace(/\.js$/, "");
}

const hostBuilds = [
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
const builds = only === "cli" ? [] : hostBuilds;
if (only !== "host") {
  builds.push(
    cliBuild("src/cli.ts", "cli.js", { banner: { js: "#!/usr/bin/env node" } }),
    ...[...CLI_SPLIT, ...CLI_SHARED].map((b) => cliBuild(b.entry, b.file.slice(2))),
  );
}
if (only === undefined) {
  builds.push({
    ...common,
    name: "webview",
    entryPoints: ["webview-ui/src/main.tsx"],
    outfile: join(outdir, "webview.js"),
    platform: "browser",
    format: "esm",
    target: "es2022",
    loader: { ".ttf": "file" },
  });
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
