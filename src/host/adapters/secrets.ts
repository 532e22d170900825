/** API keys live only in SecretStorage (never in settings). The host's "set API key" command calls `promptForApiKey`. */
import * as vscode from "vscode";
import { SecretKey } from "../settings";

export type KeyedProvider = "openai" | "anthropic";

/** The secret each provider's key is stored under; the names are declared once, in ../settings. */
const KEY_NAMES: Readonly<Record<KeyedProvider, SecretKey>> = { openai: SecretKey.openAiCompatible, anthropic: SecretKey.anthropic };

const keyName = (p: KeyedProvider): SecretKey => KEY_NAMES[p];

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(provider: KeyedProvider): Promise<string | undefined> {
    return Promise.resolve(this.secrets.get(keyName(provider)));
  }

  async set(provider: KeyedProvider, key: string): Promise<void> {
    await this.secrets.store(keyName(provider), key.trim());
  }

  async clear(provider: KeyedProvider): Promise<void> {
    await this.secrets.delete(keyName(provider));
  }

  onDidChange(listener: (provider: KeyedProvider) => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      for (const p of ["openai", "anthropic"] as const) if (e.key === keyName(p)) listener(p);
    });
  }
}

/** Asks for a key (masked input) and stores it; returns false when the person cancelled. */
export async function promptForApiKey(store: ApiKeyStore, provider: KeyedProvider): Promise<boolean> {
  const label = provider === "openai" ? "OpenAI-compatible" : "Anthropic";
  const key = await vscode.window.showInputBox({
    title: `Toolgate: ${label} API key`,
    prompt: "Stored in VS Code's secret storage, never in settings.",
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === "" ? "Enter a key, or press Escape to cancel." : undefined),
  });
  if (key === undefined) return false;
  await store.set(provider, key);
  return true;
}
