/**
 * Claude Code's side of the sandbox rewrite (sandboxRewrite.ts): which tools carry a command line, which input
 * fields would leave the sandbox, which versions are verified to apply `updatedInput`, and Claude Code's own
 * permission rules (claudePermissions.ts).
 *
 * Facts (2.1.332, verified with the real binary through the real-agent suite, test/agents/claudeSandbox.test.ts):
 * a PreToolUse `allow` with `updatedInput` replaces the whole `tool_input` in every permission mode (default,
 * acceptEdits, bypassPermissions, plan, auto, dontAsk), also with a second hook installed that answers nothing,
 * `{}` or a plain allow, before or after ours. Claude Code puts its version in the hooks' environment as
 * `AI_AGENT=claude-code_<version with dashes>_<surface>` (it replaces any inherited value starting with
 * `claude-code_`). `Bash` carries `command`; `dangerouslyDisableSandbox` asks Claude Code's own sandbox to step
 * aside. `Workflow` carries a JavaScript orchestration script, not a command line; `Monitor` (deferred behind
 * ToolSearch in 2.1.332) is not verified yet, so only `Bash` is rewritten.
 */
import type { AgentCall, CommandRewrite } from "./adapter";
import { claudeRuleFor, claudeSettingsPlaces } from "./claudePermissions";

/** Versions whose application of a rewritten `Bash` input the real-agent suite checked, per permission mode. */
export const CLAUDE_REWRITE_VERIFIED: readonly string[] = ["2.1.332"];

const COMMAND_FIELDS: Readonly<Record<string, string>> = { Bash: "command" };

/** The version in `AI_AGENT` (`claude-code_2-1-332_harness` → `2.1.332`); undefined when it does not say. */
export function claudeVersionFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const m = /^claude-code[_/](\d+)-(\d+)-(\d+)(?:[_/]|$)/.exec(env.AI_AGENT ?? "");
  return m ? `${m[1]}.${m[2]}.${m[3]}` : undefined;
}

function ownRules(call: AgentCall, line: string, env: NodeJS.ProcessEnv) {
  const dirs = [...call.workspaces, call.cwd];
  if (env.CLAUDE_PROJECT_DIR && env.CLAUDE_PROJECT_DIR.startsWith("/")) dirs.push(env.CLAUDE_PROJECT_DIR);
  return claudeRuleFor(line, ["Bash", call.toolName], claudeSettingsPlaces(env, dirs));
}

export const claudeCommandRewrite: CommandRewrite = {
  commandField: (toolName) =>
    Object.prototype.hasOwnProperty.call(COMMAND_FIELDS, toolName) ? COMMAND_FIELDS[toolName] : undefined,
  dropFields: ["dangerouslyDisableSandbox"],
  verifiedVersions: CLAUDE_REWRITE_VERIFIED,
  ownRules,
};
