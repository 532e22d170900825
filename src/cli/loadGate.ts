/**
 * The gate the CLI decides with, built from a loaded policy (policy.ts) with the same options as the VS Code
 * host's. The policy loader is re-exported, so a command needs one import.
 */
import type { Availability, SandboxAvailability } from "../core/sandboxTier";
import { Gate } from "../core/gate";
import { nodeGitConfig } from "../agent/git/gitConfigReader";
import type { CommandAnalyzer } from "../core/commands/types";
import type { FsFacts } from "../core/fsFacts";
import type { ToolCall } from "../core/types";
import { allowListOf } from "../core/sandbox/sandboxSettings";
import { ConfigError } from "./errors";
import type { Policy } from "./policy";

export { ConfigError } from "./errors";
export { loadPolicy, resolveWorkspaces, strictPolicy, type Policy } from "./policy";

export async function gateFor(
  policy: Policy,
  o: {
    readonly headless: boolean;
    readonly trusted?: boolean;
    readonly analyzer?: CommandAnalyzer;
    /** For the sandboxed tier; absent (a hook: Toolgate runs nothing itself), that tier asks. */
    readonly sandbox?: SandboxAvailability;
    readonly checkpoints?: Availability;
    /**
     * The task's file-system facts: `watchedFacts(policy.roots).facts` for a process that decides many times
     * (`check`, `run`); absent, each decision sees the file system afresh (a hook decides once and exits).
     */
    readonly facts?: FsFacts;
    /**
     * The one call this gate will decide (a hook): the command analyzer is loaded only if that call has a
     * command. Without it the analyzer is loaded up front, for any call.
     */
    readonly forCall?: ToolCall;
  },
): Promise<Gate> {
  try {
    const gate = await Gate.create({
      settings: policy.loaded.settings,
      roots: policy.roots,
      trusted: o.trusted !== false,
      headless: o.headless,
      settingsErrors: policy.loaded.errors,
      sandboxNetwork: allowListOf(policy.loaded.values),
      gitConfig: nodeGitConfig,
      ...(o.analyzer ? { analyzer: o.analyzer } : {}),
      ...(o.sandbox ? { sandbox: o.sandbox } : {}),
      ...(o.checkpoints ? { checkpoints: o.checkpoints } : {}),
      ...(o.facts ? { facts: o.facts } : {}),
      ...(o.forCall ? { deferAnalyzer: true } : {}),
    });
    if (o.forCall) await gate.prepare(o.forCall);
    return gate;
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}
