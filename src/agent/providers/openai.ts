/**
 * OpenAI-compatible chat completions with streaming tool calls (OpenAI, Ollama, LM Studio, vLLM,
 * OpenRouter). Wire format: SSE `data:` lines of `chat.completion.chunk` objects, `tool_calls` deltas
 * keyed by `index`, a final usage chunk when `stream_options.include_usage` is set, then `data: [DONE]`.
 */
import { openAiTools } from "../tools/definitions";
import { postJson } from "./http";
import { HttpStreamProvider, parseRecord, type HttpProviderOptions } from "./httpStreamProvider";
import { readSse } from "./sse";
import { ProviderError, type ConversationMessage, type ModelRequest, type StreamEvent } from "./types";

export interface OpenAiOptions extends HttpProviderOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly maxTokens?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface Chunk {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: ChunkToolCall[];
    };
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
  } | null;
  error?: { message?: string; code?: number | string; type?: string } | string;
}

export class OpenAiCompatibleProvider extends HttpStreamProvider {
  constructor(private readonly opts: OpenAiOptions) {
    super("openai", opts);
  }

  protected override async *attempt(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const body: Record<string, unknown> = {
      model: this.opts.model,
      messages: [{ role: "system", content: request.system }, ...toOpenAiMessages(request.messages)],
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.tools.length > 0) {
      body.tools = openAiTools(request.tools);
      body.tool_choice = "auto";
    }
    if (this.opts.maxTokens) body.max_tokens = this.opts.maxTokens;
    const headers: Record<string, string> = { accept: "text/event-stream", ...this.opts.headers };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    const res = await postJson(
      `${this.opts.baseUrl.replace(/\/+$/, "")}/chat/completions`,
      headers,
      body,
      request.signal,
    );

    // Tool calls are keyed by the server's index; a block starts once its name is known.
    const started = new Map<number, boolean>();
    const early = new Map<number, { id?: string; name?: string; args: string[] }>();
    let finish: string | undefined;
    let sawDone = false;
    for await (const sse of readSse(res.body!, request.signal)) {
      if (sse.data === "[DONE]") {
        sawDone = true;
        break;
      }
      const chunk = parseRecord<Chunk>(sse.data, "chunk");
      if (chunk.error) {
        const msg = typeof chunk.error === "string" ? chunk.error : (chunk.error.message ?? "unknown error");
        throw new ProviderError(`the model service reported an error: ${msg}`, "api", inStreamErrorStatus(chunk.error));
      }
      for (const choice of chunk.choices ?? []) {
        const d = choice.delta;
        const reasoning = d?.reasoning_content ?? d?.reasoning;
        if (reasoning) yield { type: "reasoning", text: reasoning };
        if (d?.content) yield { type: "text", text: d.content };
        for (const tc of d?.tool_calls ?? []) {
          const index = tc.index ?? 0;
          if (!started.has(index)) {
            // A new index means every lower call has ended (calls stream one after another).
            for (const [i, open] of started) {
              if (open && i < index) {
                started.set(i, false);
                yield { type: "tool_end", index: i };
              }
            }
            const e = early.get(index) ?? { args: [] };
            e.id ??= tc.id;
            e.name ??= tc.function?.name;
            if (tc.function?.arguments) e.args.push(tc.function.arguments);
            if (!e.name) {
              early.set(index, e);
              continue;
            }
            early.delete(index);
            started.set(index, true);
            yield { type: "tool_start", index, id: e.id ?? `call_${index}`, name: e.name };
            if (e.args.length > 0) yield { type: "tool_delta", index, json: e.args.join("") };
            continue;
          }
          if (tc.function?.arguments) yield { type: "tool_delta", index, json: tc.function.arguments };
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
      if (chunk.usage) {
        const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        yield {
          type: "usage",
          usage: {
            inputTokens: (chunk.usage.prompt_tokens ?? 0) - cached,
            outputTokens: chunk.usage.completion_tokens ?? 0,
            cacheReadTokens: cached,
          },
        };
      }
    }
    if (!sawDone && finish === undefined) throw new ProviderError("the response stream was cut before it ended", "cut");
    for (const [i, open] of started) if (open) yield { type: "tool_end", index: i };
    yield { type: "end", stopReason: finish ?? "stop" };
  }
}

/** OpenAI-compatible servers put a numeric code or an error type in in-stream errors; map both to a status. */
function inStreamErrorStatus(error: { code?: number | string; type?: string } | string): number | undefined {
  if (typeof error === "string") return undefined;
  const code = Number(error.code);
  if (Number.isInteger(code) && code >= 400 && code < 600) return code;
  const byType: Record<string, number> = {
    rate_limit_error: 429,
    rate_limit_exceeded: 429,
    server_error: 500,
    overloaded_error: 529,
    api_error: 500,
  };
  return error.type ? byType[error.type] : undefined;
}

/** Maps the neutral conversation: tool results become `tool` messages right after the assistant turn. */
export function toOpenAiMessages(messages: readonly ConversationMessage[]): unknown[] {
  const out: unknown[] = [];
  for (const m of messages) {
    if (m.role === "assistant") {
      const text = m.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
      const calls = m.content.flatMap((c) =>
        c.type === "tool_use"
          ? [{ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } }]
          : [],
      );
      out.push(
        calls.length > 0
          ? { role: "assistant", content: text || null, tool_calls: calls }
          : { role: "assistant", content: text },
      );
    } else {
      for (const c of m.content)
        if (c.type === "tool_result") out.push({ role: "tool", tool_call_id: c.toolUseId, content: c.content });
      const text = m.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n\n");
      if (text) out.push({ role: "user", content: text });
    }
  }
  return out;
}
