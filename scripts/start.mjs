#!/usr/bin/env node
// `npm start`: builds the VSIX and opens it in a real VS Code in the browser (code-server, from the toolchain
// the e2e set-up caches), with a small demo workspace and its own profile, then prints the URL. Ctrl-C stops it.
//
//   npm start -- --openai-base-url http://127.0.0.1:11434/v1 [--model qwen2.5-coder] [--port 8080]
//
// --openai-base-url / --model are written into the demo profile's user settings (provider `openai`), so the
// agent talks to that endpoint (e.g. a local Ollama); without them the panel shows its first-run guidance.
// Everything lives in ~/.cache/toolgate-start (XDG_CACHE_HOME respected), never in the repository. The demo
// workspace is created once and kept, so what you try in it survives a restart.
// Off Linux x64 (the only platform the cached code-server is built for) it builds the VSIX and says how to
// install it into your own VS Code.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writeWhatRuns } from "./demoWhatRuns.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const say = (m) => console.log(`[start] ${m}`);

const { values: opts } = parseArgs({
  options: {
    "openai-base-url": { type: "string" },
    model: { type: "string" },
    port: { type: "string", default: "0" },
    help: { type: "boolean", short: "h" },
  },
});
if (opts.help) {
  console.log("npm start -- [--openai-base-url URL] [--model NAME] [--port N]");
  process.exit(0);
}
if (opts.model && !opts["openai-base-url"]) {
  console.error("[start] --model needs --openai-base-url (the endpoint that serves it)");
  process.exit(2);
}

// 1. The VSIX, exactly as a release builds it.
say("npm run package …");
const pkg = spawnSync("npm", ["run", "--silent", "package"], { cwd: repoRoot, stdio: "inherit" });
if (pkg.status !== 0) process.exit(pkg.status ?? 1);
const { name, version, publisher } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const vsix = join(repoRoot, `${name}-${version}.vsix`);

if (process.platform !== "linux" || process.arch !== "x64") {
  say(`built ${vsix}`);
  say("the browser VS Code this script starts exists for Linux x64 only. Install the VSIX into your VS Code:");
  console.log(`  code --install-extension ${vsix}`);
  say("then open the Toolgate view in the activity bar.");
  process.exit(0);
}

// 2. code-server + Node 24 from the e2e cache (set up on first use, ~2 min).
const { ensureSetup, SetupError } = await import("./e2e/setup.mjs");
let tc;
try {
  tc = await ensureSetup({ log: (m) => say(m) });
} catch (e) {
  console.error(e instanceof SetupError ? e.message : e);
  process.exit(e instanceof SetupError ? e.exitCode : 1);
}

// 3. The demo profile: its own user data, extensions, XDG folders and workspace.
const base = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "toolgate-start");
const dirs = {
  userData: join(base, "user-data"),
  extensions: join(base, "extensions"),
  home: join(base, "home"),
  workspace: join(base, "demo-workspace"),
};
for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
createDemoWorkspace(dirs.workspace);
const userSettings = join(dirs.userData, "User", "settings.json");
writeUserSettings(userSettings);
say(writeWhatRuns({ cli: join(repoRoot, "dist", "cli.js"), workspace: dirs.workspace, userSettings }));

const env = {
  ...process.env,
  XDG_CONFIG_HOME: join(dirs.home, "config"),
  XDG_DATA_HOME: join(dirs.home, "data"),
  XDG_CACHE_HOME: join(dirs.home, "cache"),
};
const common = ["--user-data-dir", dirs.userData, "--extensions-dir", dirs.extensions];
say(`installing ${vsix} into the demo profile`);
const install = spawnSync(tc.node, [tc.codeServerEntry, "--install-extension", vsix, "--force", ...common], {
  env,
  encoding: "utf8",
});
if (install.status !== 0 || !/successfully installed/i.test(install.stdout + install.stderr)) {
  console.error(`[start] code-server --install-extension failed:\n${install.stdout}${install.stderr}`);
  process.exit(1);
}
const installed = readdirSync(dirs.extensions).filter((d) => d.startsWith(`${publisher}.${name}-`));
if (!installed.includes(`${publisher}.${name}-${version}`)) {
  console.error(`[start] ${publisher}.${name}-${version} is not in ${dirs.extensions} after installing`);
  process.exit(1);
}

// 4. code-server on loopback, no password (it listens on 127.0.0.1 only), until Ctrl-C.
const server = spawn(
  tc.node,
  [
    tc.codeServerEntry,
    "--auth",
    "none",
    "--bind-addr",
    `127.0.0.1:${opts.port}`,
    "--disable-telemetry",
    "--disable-update-check",
    "--config",
    join(dirs.home, "config.yaml"),
    ...common,
    dirs.workspace,
  ],
  { env, stdio: ["ignore", "pipe", "pipe"] },
);
let seen = "";
let announced = false;
const onOutput = (d) => {
  if (announced) return;
  seen += d.toString();
  const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
  if (!m) return;
  announced = true;
  const url = `${m[1]}/?folder=${encodeURIComponent(dirs.workspace)}`;
  say("VS Code is running with Toolgate installed. Open:");
  console.log(`\n  ${url}\n`);
  say(
    opts["openai-base-url"]
      ? `the agent uses ${opts["openai-base-url"]}${opts.model ? ` (${opts.model})` : ""}; set a key with "Toolgate: Set API Key" if it needs one`
      : "no model is configured: the panel says how to set one (or restart with --openai-base-url URL [--model M])",
  );
  say(`demo profile and workspace: ${base}. Ctrl-C stops the server.`);
};
server.stdout.on("data", onOutput);
server.stderr.on("data", onOutput);
server.on("exit", (code, signal) => {
  if (!announced) console.error(`[start] code-server exited (${signal ?? code}) before listening:\n${seen}`);
  process.exit(announced ? 0 : 1);
});
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => server.kill("SIGTERM"));

function createDemoWorkspace(dir) {
  if (readdirSync(dir).length > 0) return;
  const files = {
    "README.md":
      "# Toolgate demo workspace\n\nA small project to try the agent on. Ask it, for example:\n\n" +
      "- *Add a `--shout` option to `src/greet.js` and a test for it.*\n" +
      "- *Run the tests and explain what they check.*\n\n" +
      "What runs without asking depends on the preset you choose in the Toolgate panel: `WHAT-RUNS.md`\n" +
      "(rewritten each time `npm start` runs) lists what this project's everyday calls do under your settings.\n",
    "package.json": JSON.stringify(
      { name: "toolgate-demo", private: true, type: "module", scripts: { test: "node --test" } },
      null,
      2,
    ),
    "src/greet.js": "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n",
    "test/greet.test.js":
      'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { greet } from "../src/greet.js";\n\n' +
      'test("greets by name", () => {\n  assert.equal(greet("Ada"), "Hello, Ada!");\n});\n',
    ".toolgateignore": "# Paths the agent may never read or write (gitignore syntax).\n.env\n",
    ".env": "DEMO_SECRET=the agent cannot read this file\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text.endsWith("\n") ? text : `${text}\n`);
  }
  spawnSync("git", ["init", "-q"], { cwd: dir });
}

/** Merges the demo's settings into the profile's user settings.json (other keys a person set are kept). */
function writeUserSettings(file) {
  mkdirSync(dirname(file), { recursive: true });
  let settings = {};
  if (existsSync(file)) {
    try {
      settings = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      say(`${file} is not plain JSON (comments?): leaving it as it is`);
      return;
    }
  }
  settings["workbench.startupEditor"] ??= "readme";
  if (opts["openai-base-url"]) {
    settings["toolgate.provider"] = "openai";
    settings["toolgate.openai.baseUrl"] = opts["openai-base-url"];
    if (opts.model) settings["toolgate.openai.model"] = opts.model;
  }
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}
