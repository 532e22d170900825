import * as vscode from "vscode";
import { AnthropicProvider } from "../agent/providers/anthropic";
import { OpenAiCompatibleProvider } from "../agent/providers/openai";
import type { ModelProvider } from "../agent/providers/types";
import { AGENT_SETTING_KEYS } from "../core/settingsModel";
import { pickLmModel, VscodeLmProvider } from "./adapters/lmProvider";
import type { ApiKeyStore } from "./adapters/secrets";

/**
 * Which model a new task talks to. Every provider setting is read from user scope only (global value, else
 * the default): a repository must never redirect your model traffic — or your API key — to its own server.
 */
function userValue<T>(key: string): T | undefined {
  const v = vscode.workspace.getConfiguration().inspect<T>(key);
  return v?.globalValue ?? v?.defaultValue;
}

export class NoModelError extends Error {}

export async function chooseProvider(keys: ApiKeyStore): Promise<ModelProvider> {
  const kind = userValue<string>(AGENT_SETTING_KEYS.provider) ?? "auto";
  const openAiBase = (userValue<string>(AGENT_SETTING_KEYS.openAiBaseUrl) ?? "").trim();
  const openAi = async () =>
    new OpenAiCompatibleProvider({
      baseUrl: openAiBase || "https://api.openai.com/v1",
      model: userValue<string>(AGENT_SETTING_KEYS.openAiModel) ?? "gpt-4.1",
      ...(await keys.get("openai").then((k) => (k ? { apiKey: k } : {}))),
    });
  if (kind === "openai" || (kind === "auto" && openAiBase !== "")) return openAi();
  if (kind === "anthropic") {
    const apiKey = await keys.get("anthropic");
    if (!apiKey) throw new NoModelError("No Anthropic API key: run “Toolgate: Set API Key”.");
    return new AnthropicProvider({
      baseUrl: userValue<string>(AGENT_SETTING_KEYS.anthropicBaseUrl) ?? "https://api.anthropic.com",
      model: userValue<string>(AGENT_SETTING_KEYS.anthropicModel) ?? "claude-sonnet-4-5",
      apiKey,
    });
  }
  const chat = await pickLmModel();
  if (chat) return new VscodeLmProvider(chat);
  throw new NoModelError(
    "No model is available: install a chat model in VS Code, or set `toolgate.openai.baseUrl` (and an API key) in your user settings.",
  );
}
