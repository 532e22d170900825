import { AnthropicProvider } from "../agent/providers/anthropic";
import { OpenAiCompatibleProvider } from "../agent/providers/openai";
import type { ModelProvider } from "../agent/providers/types";
import { pickLmModel, VscodeLmProvider } from "./adapters/lmProvider";
import type { ApiKeyStore } from "./adapters/secrets";
import { DEFAULT_OPENAI_BASE, httpProviderOf, readProviderSettings } from "./modelSetup";

/**
 * Which model a new task talks to: the choice modelSetup.ts describes to the panel. Every provider setting is
 * read from user scope only (see modelSetup.ts).
 */
export class NoModelError extends Error {}

export async function chooseProvider(keys: ApiKeyStore): Promise<ModelProvider> {
  const s = readProviderSettings();
  const http = httpProviderOf(s);
  if (http === "openai") {
    const apiKey = await keys.get("openai");
    return new OpenAiCompatibleProvider({
      baseUrl: s.openAiBase || DEFAULT_OPENAI_BASE,
      model: s.openAiModel,
      ...(apiKey ? { apiKey } : {}),
    });
  }
  if (http === "anthropic") {
    const apiKey = await keys.get("anthropic");
    if (!apiKey) throw new NoModelError("No Anthropic API key: run “Toolgate: Set API Key”.");
    return new AnthropicProvider({ baseUrl: s.anthropicBase, model: s.anthropicModel, apiKey });
  }
  const chat = await pickLmModel();
  if (chat) return new VscodeLmProvider(chat);
  throw new NoModelError(
    "No model is available: install a chat model in VS Code, or set `toolgate.openai.baseUrl` (and an API key) in your user settings.",
  );
}
