/**
 * The five settings profiles the oracle decides every line under, written as a person writes settings.json,
 * and the gates built from them over one sandbox's workspace (the same `Gate` the CLI's `check` builds).
 */
import { BashAnalyzer } from "../../src/core/commands/analyzer";
import { locateGrammar } from "../../src/core/commands/defaultAnalyzer";
import type { Gate } from "../../src/core/gate";
import { gateWith } from "../support/gate";
import { RecordingAnalyzer } from "./instrument";

const TYPICAL = {
  "toolgate.commands.allow": ["npm test", "git", "make", "node scripts/check.js"],
  "toolgate.commands.deny": ["curl", "wget", "git push"],
  "toolgate.permissions.deny": ["Read(src/private.ts)"],
};

export const PROFILES: Readonly<Record<string, Record<string, unknown>>> = {
  defaults: {},
  typical: TYPICAL,
  "typical+all": {
    ...TYPICAL,
    "toolgate.autoApprove.actions": { executeSafeCommands: true, executeAllCommands: true },
  },
  plan: { "toolgate.mode": "plan" },
  auto: { ...TYPICAL, "toolgate.mode": "auto" },
};

export type ProfileName = keyof typeof PROFILES & string;

export interface ProfileGate {
  readonly name: string;
  readonly gate: Gate;
  readonly analyzer: RecordingAnalyzer;
  readonly deny: readonly string[];
  readonly readDenied: boolean;
}

export async function profileGates(ws: string, home: string): Promise<ProfileGate[]> {
  const out: ProfileGate[] = [];
  for (const [name, flat] of Object.entries(PROFILES)) {
    const analyzer = new RecordingAnalyzer(new BashAnalyzer({ grammarFiles: locateGrammar(), homeDir: home }));
    const gate = await gateWith(flat, [ws], { analyzer, headless: false });
    out.push({
      name,
      gate,
      analyzer,
      deny: (flat["toolgate.commands.deny"] as string[] | undefined) ?? [],
      readDenied: flat["toolgate.permissions.deny"] !== undefined,
    });
  }
  return out;
}
