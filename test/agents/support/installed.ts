/**
 * The agents scripts/agents/setup.mjs installed (pinned versions, outside the clone). The suite never installs:
 * a missing agent fails the suite with the command that installs it.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";

export type AgentName = "claude-code" | "gemini-cli" | "cline" | "codex";

export interface InstalledAgent {
  readonly dir: string;
  readonly bin: string;
  readonly version: string;
}

export const AGENTS_CACHE = process.env.TOOLGATE_AGENTS_CACHE ?? path.join(homedir(), ".cache", "toolgate-agents");

export function installedAgent(name: AgentName): InstalledAgent {
  const file = path.join(AGENTS_CACHE, "agents.json");
  let all: Record<string, InstalledAgent>;
  try {
    all = JSON.parse(readFileSync(file, "utf8")) as Record<string, InstalledAgent>;
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message} (run: node scripts/agents/setup.mjs)`);
  }
  const a = all[name];
  if (!a) throw new Error(`${name} is not in ${file} (run: node scripts/agents/setup.mjs)`);
  return a;
}
