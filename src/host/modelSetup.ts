/**
 * Which model new tasks use, described for the panel's model line and first-run card, and the "choose a
 * provider" flow. Kept apart from providerChoice.ts (which builds the providers) so the host's start-up bundle
 * does not load the agent's provider code just to show a line of text.
 *
 * Every provider setting is read from user scope only (global value, else the default): a repository must
 * never redirect your model traffic — or your API key — to its own server.
 */
import * as vscode from "vscode";
import { AGENT_SETTING_KEYS } from "../core/settingsModel";
import type { ModelView } from "../shared/protocol";
import type { ApiKeyStore } from "./adapters/secrets";

export function userValue<T>(key: string): T | undefined {
  const v = vscode.workspace.getConfiguration().inspect<T>(key);
  return v?.globalValue ?? v?.defaultValue;
}

export const DEFAULT_OPENAI_BASE = "https://api.openai.com/v1";
export const DEFAULT_OPENAI_MODEL = "gpt-4.1";
export const DEFAULT_ANTHROPIC_BASE = "https://api.anthropic.com";
export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";

export type ProviderKind = "auto" | "vscode-lm" | "openai" | "anthropic";

/** The provider settings as new tasks read them. */
export interface ProviderSettings {
  readonly kind: ProviderKind;
  /** The OpenAI-compatible base URL as set ("" when not set). */
  readonly openAiBase: string;
  readonly openAiModel: string;
  readonly anthropicBase: string;
  readonly anthropicModel: string;
}

export function readProviderSettings(): ProviderSettings {
  const kind = userValue<string>(AGENT_SETTING_KEYS.provider);
  return {
    kind: kind === "vscode-lm" || kind === "openai" || kind === "anthropic" ? kind : "auto",
    openAiBase: (userValue<string>(AGENT_SETTING_KEYS.openAiBaseUrl) ?? "").trim(),
    openAiModel: userValue<string>(AGENT_SETTING_KEYS.openAiModel) || DEFAULT_OPENAI_MODEL,
    anthropicBase: userValue<string>(AGENT_SETTING_KEYS.anthropicBaseUrl) || DEFAULT_ANTHROPIC_BASE,
    anthropicModel: userValue<string>(AGENT_SETTING_KEYS.anthropicModel) || DEFAULT_ANTHROPIC_MODEL,
  };
}

/** Which HTTP provider the settings pick, if any (else a VS Code chat model is looked for). */
export function httpProviderOf(s: ProviderSettings): "openai" | "anthropic" | undefined {
  if (s.kind === "openai" || (s.kind === "auto" && s.openAiBase !== "")) return "openai";
  if (s.kind === "anthropic") return "anthropic";
  return undefined;
}

/** What the panel shows: the same choice `chooseProvider` makes, without building anything. */
export async function describeModel(keys: ApiKeyStore): Promise<ModelView> {
  const s = readProviderSettings();
  const http = httpProviderOf(s);
  if (http === "openai") {
    const endpoint = s.openAiBase || DEFAULT_OPENAI_BASE;
    const key = await keys.get("openai");
    // A local server (Ollama, LM Studio) needs no key; OpenAI's own API does.
    const needsKey = endpoint === DEFAULT_OPENAI_BASE && !key;
    return {
      configured: !needsKey,
      provider: "OpenAI-compatible",
      model: s.openAiModel,
      endpoint,
      ...(needsKey ? { problem: "No OpenAI API key is set." } : {}),
    };
  }
  if (http === "anthropic") {
    const key = await keys.get("anthropic");
    return {
      configured: key !== undefined && key !== "",
      provider: "Anthropic",
      model: s.anthropicModel,
      endpoint: s.anthropicBase,
      ...(key ? {} : { problem: "No Anthropic API key is set." }),
    };
  }
  const models = await Promise.resolve(vscode.lm.selectChatModels({})).catch(() => []);
  const chat = models[0];
  if (chat) return { configured: true, provider: "VS Code language model", model: `${chat.vendor}/${chat.family}` };
  return {
    configured: false,
    provider: "No model",
    problem:
      s.kind === "vscode-lm"
        ? "No chat model is installed in VS Code."
        : "No chat model is installed in VS Code, and no OpenAI-compatible server is set.",
  };
}

async function setUser(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
}

/**
 * "Choose a provider": the kind, then what that kind needs (an endpoint and model, or a key). Written to user
 * settings; keys go to SecretStorage through the "Set API Key" command.
 */
export async function chooseProviderFlow(setApiKey: () => Thenable<unknown>): Promise<void> {
  const s = readProviderSettings();
  const items: Array<vscode.QuickPickItem & { provider: ProviderKind }> = [
    {
      label: vscode.l10n.t("OpenAI-compatible server"),
      detail: vscode.l10n.t("OpenAI, OpenRouter, or a local server such as Ollama, LM Studio or vLLM."),
      provider: "openai",
    },
    {
      label: vscode.l10n.t("Anthropic"),
      detail: vscode.l10n.t("Anthropic's Messages API (needs an API key)."),
      provider: "anthropic",
    },
    {
      label: vscode.l10n.t("VS Code language model"),
      detail: vscode.l10n.t("A chat model installed in VS Code by another extension."),
      provider: "vscode-lm",
    },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t("Toolgate: choose a model provider"),
    placeHolder: vscode.l10n.t("Which model should the agent talk to?"),
  });
  if (!pick) return;
  if (pick.provider === "openai") {
    const base = await vscode.window.showInputBox({
      title: vscode.l10n.t("OpenAI-compatible base URL"),
      prompt: vscode.l10n.t("For example {0} or http://127.0.0.1:11434/v1 (Ollama).", DEFAULT_OPENAI_BASE),
      value: s.openAiBase || DEFAULT_OPENAI_BASE,
      ignoreFocusOut: true,
      validateInput: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : vscode.l10n.t("Enter an http(s) URL.")),
    });
    if (base === undefined) return;
    const model = await vscode.window.showInputBox({
      title: vscode.l10n.t("Model name"),
      value: s.openAiModel,
      ignoreFocusOut: true,
    });
    if (model === undefined) return;
    await setUser(AGENT_SETTING_KEYS.provider, "openai");
    await setUser(AGENT_SETTING_KEYS.openAiBaseUrl, base.trim());
    if (model.trim()) await setUser(AGENT_SETTING_KEYS.openAiModel, model.trim());
    return;
  }
  await setUser(AGENT_SETTING_KEYS.provider, pick.provider);
  if (pick.provider === "anthropic") await setApiKey();
}
