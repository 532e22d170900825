/** API keys live only in SecretStorage (never in settings); the "Set API Key" command (commands.ts) stores them. */
import type * as vscode from "vscode";
import { SecretKey } from "../settingsBridge";

export type KeyedProvider = "openai" | "anthropic";

/** The secret each provider's key is stored under; the names are declared once, in ../settings. */
const KEY_NAMES: Readonly<Record<KeyedProvider, SecretKey>> = {
  openai: SecretKey.openAiCompatible,
  anthropic: SecretKey.anthropic,
};

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
