/** Every agent `toolgate hook <agent>` answers for: one line per agent (docs/architecture.md, "Adding an agent"). */
import type { AgentAdapter } from "./adapter";
import { claudeCodeAdapter } from "./claudeCode";
import { clineAdapter } from "./cline";
import { codexAdapter } from "./codex";
import { cursorAdapter } from "./cursor";
import { geminiCliAdapter } from "./geminiCli";

export const AGENTS: Readonly<Record<string, AgentAdapter>> = {
  [claudeCodeAdapter.name]: claudeCodeAdapter,
  [geminiCliAdapter.name]: geminiCliAdapter,
  [clineAdapter.name]: clineAdapter,
  [codexAdapter.name]: codexAdapter,
  [cursorAdapter.name]: cursorAdapter,
};

export function agentAdapter(name: string): AgentAdapter | undefined {
  return Object.prototype.hasOwnProperty.call(AGENTS, name) ? AGENTS[name] : undefined;
}
