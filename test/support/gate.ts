import { Gate, type GateOptions } from "../../src/core/gate";
import { parseSettings } from "../../src/core/settingsModel";
import type { Decision } from "../../src/core/types";
import { nodeGitConfig } from "../../src/agent/git/gitConfigReader";

/** Builds a gate from flat settings as a person would write them in settings.json. */
export async function gateWith(
  flat: Record<string, unknown>,
  roots: readonly string[],
  extra: Partial<GateOptions> = {},
): Promise<Gate> {
  const parsed = parseSettings(flat);
  if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
  return Gate.create({ settings: parsed.value, roots, gitConfig: nodeGitConfig, ...extra });
}

export function call(tool: string, params: Record<string, unknown>): { tool: string; params: Record<string, unknown> } {
  return { tool, params };
}

export const kind = (d: Decision) => d.decision;
