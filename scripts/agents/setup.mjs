// Installs the pinned agents the real-agent suite drives (test/agents), outside the clone, once:
// ~/.cache/toolgate-agents/<agent>@<version>, from npm with --ignore-scripts, each checked with --version.
// Nothing here runs at test time: the suite only reads what this left behind (agents.json).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";

const CACHE = process.env.TOOLGATE_AGENTS_CACHE ?? path.join(homedir(), ".cache", "toolgate-agents");

/** Each agent: its npm package, the pinned version, and the executable inside the install folder. */
export const AGENTS = {
  "claude-code": {
    pkg: "@anthropic-ai/claude-code",
    version: "2.1.332",
    // The npm `bin` is a stub its postinstall replaces; with --ignore-scripts the native binary is run directly.
    bin: "node_modules/@anthropic-ai/claude-code-linux-x64/claude",
  },
  "gemini-cli": { pkg: "@google/gemini-cli", version: "0.61.0", bin: "node_modules/.bin/gemini" },
  cline: { pkg: "cline", version: "3.0.65", bin: "node_modules/.bin/cline" },
  codex: { pkg: "@openai/codex", version: "0.171.0", bin: "node_modules/.bin/codex" },
};

function install(name, a) {
  const dir = path.join(CACHE, `${name}@${a.version}`);
  const bin = path.join(dir, a.bin);
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "package.json"), '{"private": true}\n');
    console.log(`agents: installing ${a.pkg}@${a.version} into ${dir}`);
    execFileSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", `${a.pkg}@${a.version}`], {
      cwd: dir,
      stdio: ["ignore", "inherit", "inherit"],
    });
  }
  const version = execFileSync(bin, ["--version"], { encoding: "utf8", timeout: 60000 }).trim();
  if (!version.includes(a.version)) throw new Error(`${name}: ${bin} --version says ${version}, not ${a.version}`);
  return { dir, bin, version };
}

const installed = Object.fromEntries(Object.entries(AGENTS).map(([name, a]) => [name, install(name, a)]));
writeFileSync(path.join(CACHE, "agents.json"), JSON.stringify(installed, null, 2) + "\n");
for (const [name, i] of Object.entries(installed)) console.log(`agents: ${name} ${i.version} at ${i.bin}`);
