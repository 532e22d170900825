/**
 * `toolgate run -p TEXT`: one task, headless. The flags are one more settings layer (settingsLayers.ts):
 * `--allow/--ask/--exclude` add rules in the settings' `Tool(arg-pattern)` syntax, parsed by the same code;
 * deny beats ask beats allow across all layers, and the refusals and hard asks hold in every mode, so
 * `--auto --ask 'Bash(git push)'` still refuses `git push` (headless, an ask is a deny).
 */
import { AnthropicProvider } from "../agent/providers/anthropic";
import { OpenAiCompatibleProvider } from "../agent/providers/openai";
import type { ModelProvider } from "../agent/providers/types";
import { parseCheckpointSettings } from "../core/checkpointSettings";
import { parseRule, type RuleEffect } from "../core/permissionRules";
import type { HostSettings, SettingsLayer } from "../core/settingsLayers";
import { AGENT_SETTING_KEYS, SETTING_KEYS } from "../core/settingsModel";
import { parseFlags, SETTINGS_FLAGS, SETTINGS_USAGE, settingsArgs, UsageError, type FlagSpec } from "./args";
import type { CliCommand, CliIo } from "./command";
import { cliCheckpointService, formatRestoreHint } from "./checkpoints";
import { runHeadless, type RunCheckpoints } from "./headlessTask";
import { RUN_SUMMARY } from "./runSummary";
import { ConfigError, loadPolicy, strictPolicy } from "./loadGate";

const FLAGS: FlagSpec = {
  ...SETTINGS_FLAGS,
  "-p": "value",
  "--prompt": "value",
  "--allow": "list",
  "--ask": "list",
  "--exclude": "list",
  "--plan": "bool",
  "--auto": "bool",
  "--provider": "value",
  "--base-url": "value",
  "--model": "value",
  "--max-requests": "value",
  "--json": "bool",
};

const USAGE = `usage: toolgate run -p TEXT [options]
  runs one agent task without VS Code; every tool call passes the gate, and what would ask is refused
  (the model is told why; the refusal is printed on stderr).
  -p, --prompt TEXT     the task
  --allow PATTERN       allow calls matching Tool(arg-pattern) (repeatable)
  --ask PATTERN         calls matching it are refused headless (an ask with no one to ask; repeatable)
  --exclude PATTERN     refuse, and hide a whole tool (e.g. Bash) from the model (repeatable)
  --plan | --auto       the mode (unless the managed policy does not allow it)
${SETTINGS_USAGE}
  --provider openai|anthropic   default: toolgate.provider, else openai
  --base-url URL        the provider's endpoint (default: toolgate.openai.baseUrl / toolgate.anthropic.baseUrl)
  --model NAME          default: toolgate.openai.model / toolgate.anthropic.model
  --max-requests N      refuse calls once N were auto-approved in the task, and stop the run
  --json                JSON Lines events on stdout (assistant_text, tool_call, decision, tool_result, usage,
                        checkpoints, end)
Every call that may change files is checkpointed first (toolgate.checkpoints.*; needs git): the run prints how
to undo its changes (toolgate restore TASK STEP; toolgate checkpoints TASK lists the steps).
API keys: TOOLGATE_API_KEY, else OPENAI_API_KEY / ANTHROPIC_API_KEY (never on the command line).
exit codes: 0 the task completed (even if some calls were refused), 1 task error, 2 usage or configuration
error, 3 the task ended without completing after a refusal`;

const DEFAULTS = {
  openai: { baseUrl: "https://api.openai.com/v1", model: "gpt-4.1" },
  anthropic: { baseUrl: "https://api.anthropic.com", model: "claude-sonnet-4-5" },
} as const;

/** The flags as a settings layer; each pattern is checked by the rule parser the settings use. */
export function flagsLayer(
  lists: Readonly<Record<string, readonly string[]>>,
  o: {
    readonly mode?: "plan" | "auto";
    readonly maxRequests?: number;
  },
): SettingsLayer {
  const rules = (flag: string, effect: RuleEffect): string[] => {
    const out = [...(lists[flag] ?? [])];
    for (const source of out) {
      const r = parseRule(source, effect, "flags");
      if (!r.ok) throw new UsageError(`${flag}: ${r.error}`);
    }
    return out;
  };
  return {
    source: "command-line flags",
    flat: {
      [SETTING_KEYS.permissionsAllow]: rules("--allow", "allow"),
      [SETTING_KEYS.permissionsAsk]: rules("--ask", "ask"),
      [SETTING_KEYS.permissionsDeny]: rules("--exclude", "deny"),
      ...(o.mode ? { [SETTING_KEYS.mode]: o.mode } : {}),
      ...(o.maxRequests !== undefined ? { [SETTING_KEYS.maxRequests]: o.maxRequests } : {}),
    },
  };
}

function isLoopback(url: string): boolean {
  try {
    const h = new URL(url).hostname;
    return h === "localhost" || h === "127.0.0.1" || h === "[::1]";
  } catch {
    return false;
  }
}

/** The model provider from flags, settings and the environment. The managed policy's endpoints are fixed. */
export function providerFor(
  v: Readonly<Record<string, string>>,
  loaded: HostSettings,
  env: NodeJS.ProcessEnv,
): ModelProvider {
  const setting = loaded.values[AGENT_SETTING_KEYS.provider];
  const kind = v["--provider"] ?? (setting === "anthropic" ? "anthropic" : "openai");
  if (kind !== "openai" && kind !== "anthropic") throw new UsageError("--provider must be openai or anthropic");
  const urlKey = kind === "openai" ? AGENT_SETTING_KEYS.openAiBaseUrl : AGENT_SETTING_KEYS.anthropicBaseUrl;
  const modelKey = kind === "openai" ? AGENT_SETTING_KEYS.openAiModel : AGENT_SETTING_KEYS.anthropicModel;
  for (const [flag, key] of [
    ["--base-url", urlKey],
    ["--model", modelKey],
  ] as const) {
    if (v[flag] !== undefined && loaded.locked.includes(key) && v[flag] !== loaded.values[key])
      throw new ConfigError(`the managed policy fixes ${key}; ${flag} cannot change it`);
  }
  const fromSettings = (key: string): string | undefined => {
    const s = loaded.values[key];
    return typeof s === "string" && s !== "" ? s : undefined;
  };
  const baseUrl = v["--base-url"] ?? fromSettings(urlKey) ?? DEFAULTS[kind].baseUrl;
  const model = v["--model"] ?? fromSettings(modelKey) ?? DEFAULTS[kind].model;
  const apiKey = env.TOOLGATE_API_KEY || (kind === "openai" ? env.OPENAI_API_KEY : env.ANTHROPIC_API_KEY) || "";
  if (apiKey === "" && !isLoopback(baseUrl))
    throw new ConfigError(
      `no API key: set TOOLGATE_API_KEY (or ${kind === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY"})`,
    );
  return kind === "openai"
    ? new OpenAiCompatibleProvider({ baseUrl, model, ...(apiKey ? { apiKey } : {}) })
    : new AnthropicProvider({ baseUrl, model, apiKey });
}

async function runMain(argv: readonly string[], io: CliIo): Promise<number> {
  const f = parseFlags(argv, FLAGS);
  if (f.help) {
    io.stdout.write(USAGE + "\n");
    return 0;
  }
  const v = f.values;
  if (v["-p"] !== undefined && v["--prompt"] !== undefined) throw new UsageError("give -p or --prompt, not both");
  const prompt = v["-p"] ?? v["--prompt"];
  if (prompt === undefined || prompt.trim() === "") throw new UsageError("-p TEXT (the task) is required");
  if (f.bools.has("--plan") && f.bools.has("--auto")) throw new UsageError("give --plan or --auto, not both");
  const mode = f.bools.has("--plan") ? "plan" : f.bools.has("--auto") ? "auto" : undefined;
  const maxText = v["--max-requests"];
  const maxRequests = maxText === undefined ? undefined : Number(maxText);
  if (maxRequests !== undefined && !(Number.isInteger(maxRequests) && maxRequests > 0))
    throw new UsageError("--max-requests must be a whole number above 0");
  const flags = flagsLayer(f.lists, { ...(mode ? { mode } : {}), ...(maxRequests ? { maxRequests } : {}) });
  const policy = strictPolicy(loadPolicy(settingsArgs(f), { flags, cwd: io.cwd, env: io.env }));
  const say = (text: string): void => void io.stderr.write(`toolgate: ${text}\n`);
  policy.loaded.notices.forEach(say);
  const provider = providerFor(v, policy.loaded, io.env);
  const json = f.bools.has("--json");
  const ckpt = parseCheckpointSettings(policy.loaded.values);
  ckpt.errors.forEach(say);
  const checkpoints = cliCheckpointService({
    roots: policy.roots,
    settings: ckpt.value,
    ignoreFile: policy.loaded.settings.ignoreFile,
    // A headless run is started by the person in a folder they chose: it is trusted as its gate is.
    trusted: true,
  });
  const reportCheckpoints = (c: RunCheckpoints): void => {
    if ("unavailable" in c) {
      if (json)
        io.stdout.write(JSON.stringify({ type: "checkpoints", taskId: c.taskId, unavailable: c.unavailable }) + "\n");
      else say(`no checkpoints were recorded: ${c.unavailable}`);
      return;
    }
    const hint = formatRestoreHint(c.taskId, 1);
    if (json)
      io.stdout.write(
        JSON.stringify({
          type: "checkpoints",
          taskId: c.taskId,
          steps: c.steps,
          changedFiles: c.changedFiles,
          restore: hint,
        }) + "\n",
      );
    else say(`${c.steps} checkpoint(s) recorded. ${hint}`);
  };
  const result = await runHeadless({
    prompt,
    settings: policy.loaded.settings,
    values: policy.loaded.values,
    roots: policy.roots,
    provider,
    emit: (e) => {
      if (json) io.stdout.write(JSON.stringify(e) + "\n");
      else if (e.type === "assistant_text") io.stdout.write(`${String(e.text)}\n`);
      else if (e.type === "tool_result" && e.tool === "attempt_completion") io.stdout.write(`${String(e.result)}\n`);
    },
    onRefusal: (tool, reason, rule) => say(`refused ${tool}: ${reason} [${rule}]`),
    onNotice: say,
    ...(ckpt.value.enabled ? { checkpoints } : {}),
    onCheckpoints: reportCheckpoints,
  });
  if (!json && result.exitCode !== 0)
    say(
      result.exitCode === 3
        ? `the task ended without completing after ${result.refusals} refused call(s)`
        : `the task ended without completing (${result.state})`,
    );
  return result.exitCode;
}

export const runCommand: CliCommand = {
  summary: RUN_SUMMARY,
  usage: USAGE,
  main: runMain,
};
