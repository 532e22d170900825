/**
 * ModelProvider over the VS Code Language Model API (`vscode.lm`), with tools. The API has no system role,
 * so the system prompt goes first as a user message. Tool calls arrive whole (not as fragments): each is
 * replayed as start / one delta / end through the same streaming path as the HTTP providers.
 */
import * as vscode from "vscode";
import { inputSchema } from "../../agent/tools/definitions";
import {
  ProviderError,
  type ConversationMessage,
  type ModelProvider,
  type ModelRequest,
  type StreamEvent,
} from "../../agent/providers/types";

export async function pickLmModel(
  selector: vscode.LanguageModelChatSelector = {},
): Promise<vscode.LanguageModelChat | undefined> {
  const models = await vscode.lm.selectChatModels(selector);
  return models[0];
}

function toLmMessages(system: string, messages: readonly ConversationMessage[]): vscode.LanguageModelChatMessage[] {
  const out = [vscode.LanguageModelChatMessage.User(system)];
  for (const m of messages) {
    if (m.role === "assistant") {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      for (const c of m.content) {
        if (c.type === "text") parts.push(new vscode.LanguageModelTextPart(c.text));
        else if (c.type === "tool_use") parts.push(new vscode.LanguageModelToolCallPart(c.id, c.name, c.input));
      }
      out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    } else {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[] = [];
      for (const c of m.content) {
        if (c.type === "tool_result")
          parts.push(
            new vscode.LanguageModelToolResultPart(c.toolUseId, [new vscode.LanguageModelTextPart(c.content)]),
          );
      }
      for (const c of m.content) if (c.type === "text") parts.push(new vscode.LanguageModelTextPart(c.text));
      out.push(vscode.LanguageModelChatMessage.User(parts));
    }
  }
  return out;
}

export class VscodeLmProvider implements ModelProvider {
  readonly id: string;
  readonly model: string;
  readonly contextWindow: number;

  constructor(private readonly chat: vscode.LanguageModelChat) {
    this.id = `vscode-lm:${chat.vendor}/${chat.id}`;
    this.model = chat.family;
    this.contextWindow = chat.maxInputTokens;
  }

  stream(request: ModelRequest): AsyncIterable<StreamEvent> {
    return this.attempt(request);
  }

  private async *attempt(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const cts = new vscode.CancellationTokenSource();
    const onAbort = (): void => cts.cancel();
    request.signal.addEventListener("abort", onAbort, { once: true });
    const messages = toLmMessages(request.system, request.messages);
    try {
      let response: vscode.LanguageModelChatResponse;
      try {
        response = await this.chat.sendRequest(
          messages,
          {
            tools: request.tools.map((d) => ({
              name: d.name,
              description: d.description,
              inputSchema: inputSchema(d),
            })),
            toolMode: vscode.LanguageModelChatToolMode.Auto,
          },
          cts.token,
        );
      } catch (e) {
        throw new ProviderError(e instanceof vscode.LanguageModelError ? `${e.code}: ${e.message}` : String(e), "api");
      }
      let index = 0;
      let output = "";
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          output += part.value;
          yield { type: "text", text: part.value };
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          const i = index++;
          const json = JSON.stringify(part.input ?? {});
          output += json;
          yield { type: "tool_start", index: i, id: part.callId, name: part.name };
          yield { type: "tool_delta", index: i, json };
          yield { type: "tool_end", index: i };
        }
      }
      if (request.signal.aborted) throw new ProviderError("cancelled", "aborted");
      // The API reports no usage; count tokens so maxCost and trimming have numbers (cost stays 0).
      const [inputTokens, outputTokens] = await Promise.all([
        Promise.all(messages.map((m) => this.chat.countTokens(m, cts.token))).then((n) => n.reduce((a, b) => a + b, 0)),
        this.chat.countTokens(output, cts.token),
      ]).catch(() => [0, 0]);
      yield { type: "usage", usage: { inputTokens, outputTokens } };
      yield { type: "end", stopReason: index > 0 ? "tool_use" : "end_turn" };
    } finally {
      request.signal.removeEventListener("abort", onAbort);
      cts.dispose();
    }
  }
}
