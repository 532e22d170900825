/**
 * Anthropic Messages API streaming. Wire format: SSE `event:`/`data:` records — `message_start` (input
 * usage), `content_block_start` (text / tool_use / thinking), `content_block_delta` (`text_delta`,
 * `input_json_delta`, `thinking_delta`), `content_block_stop`, `message_delta` (stop reason, output usage),
 * `message_stop`, `ping`, and `error`.
 */
import { anthropicTools } from "../tools/definitions";
import { postJson } from "./http";
import { HttpStreamProvider, parseRecord, type HttpProviderOptions } from "./httpStreamProvider";
import { readSse } from "./sse";
import {
  ProviderError,
  type ContentPart,
  type ConversationMessage,
  type ModelRequest,
  type StreamEvent,
} from "./types";

export interface AnthropicOptions extends HttpProviderOptions {
  readonly baseUrl?: string;
  readonly apiKey: string;
  readonly maxTokens?: number;
}

interface AnthropicEvent {
  type: string;
  index?: number;
  message?: { usage?: AnthropicUsage };
  content_block?: { type: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string; thinking?: string; stop_reason?: string };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** Anthropic error types that mean "try again later" (sent as an `error` event inside a 200 stream). */
const ERROR_STATUS: Record<string, number> = {
  overloaded_error: 529,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
};

export class AnthropicProvider extends HttpStreamProvider {
  constructor(private readonly opts: AnthropicOptions) {
    super("anthropic", opts);
  }

  protected override async *attempt(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const body: Record<string, unknown> = {
      model: this.opts.model,
      max_tokens: this.opts.maxTokens ?? 8192,
      system: request.system,
      messages: toAnthropicMessages(request.messages),
      stream: true,
    };
    if (request.tools.length > 0) body.tools = anthropicTools(request.tools);
    const headers = { "x-api-key": this.opts.apiKey, "anthropic-version": "2023-06-01", accept: "text/event-stream" };
    const url = `${(this.opts.baseUrl ?? "https://api.anthropic.com").replace(/\/+$/, "")}/v1/messages`;
    const res = await postJson(url, headers, body, request.signal);

    const toolIndexes = new Set<number>();
    let stopReason = "end_turn";
    let stopped = false;
    for await (const sse of readSse(res.body!, request.signal)) {
      const ev = parseRecord<AnthropicEvent>(sse.data, "event");
      switch (ev.type) {
        case "message_start":
          if (ev.message?.usage) yield { type: "usage", usage: mapUsage(ev.message.usage) };
          break;
        case "content_block_start":
          if (ev.content_block?.type === "tool_use" && ev.index !== undefined) {
            toolIndexes.add(ev.index);
            yield {
              type: "tool_start",
              index: ev.index,
              id: ev.content_block.id ?? `toolu_${ev.index}`,
              name: ev.content_block.name ?? "",
            };
          }
          break;
        case "content_block_delta": {
          const d = ev.delta;
          if (d?.type === "text_delta" && d.text) yield { type: "text", text: d.text };
          else if (d?.type === "input_json_delta" && ev.index !== undefined && d.partial_json)
            yield { type: "tool_delta", index: ev.index, json: d.partial_json };
          else if (d?.type === "thinking_delta" && d.thinking) yield { type: "reasoning", text: d.thinking };
          break;
        }
        case "content_block_stop":
          if (ev.index !== undefined && toolIndexes.has(ev.index)) yield { type: "tool_end", index: ev.index };
          break;
        case "message_delta":
          if (ev.delta?.stop_reason) stopReason = ev.delta.stop_reason;
          if (ev.usage) yield { type: "usage", usage: mapUsage(ev.usage) };
          break;
        case "message_stop":
          stopped = true;
          break;
        case "error": {
          const type = ev.error?.type ?? "error";
          throw new ProviderError(
            `the model service reported ${type}: ${ev.error?.message ?? ""}`.trim(),
            "api",
            ERROR_STATUS[type],
          );
        }
        default:
          break; // ping and future event types
      }
      if (stopped) break;
    }
    if (!stopped) throw new ProviderError("the response stream was cut before it ended", "cut");
    yield { type: "end", stopReason };
  }
}

function mapUsage(
  u: AnthropicUsage,
): Partial<Record<"inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens", number>> {
  const out: Partial<Record<"inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens", number>> = {};
  if (u.input_tokens !== undefined) out.inputTokens = u.input_tokens;
  if (u.output_tokens !== undefined) out.outputTokens = u.output_tokens;
  if (u.cache_read_input_tokens !== undefined) out.cacheReadTokens = u.cache_read_input_tokens;
  if (u.cache_creation_input_tokens !== undefined) out.cacheWriteTokens = u.cache_creation_input_tokens;
  return out;
}

function mapPart(c: ContentPart): unknown {
  switch (c.type) {
    case "text":
      return { type: "text", text: c.text };
    case "tool_use":
      return { type: "tool_use", id: c.id, name: c.name, input: c.input };
    case "tool_result":
      return {
        type: "tool_result",
        tool_use_id: c.toolUseId,
        content: c.content,
        ...(c.isError ? { is_error: true } : {}),
      };
  }
}

/** Consecutive messages of one role are merged (the API requires alternation); tool results go first. */
export function toAnthropicMessages(messages: readonly ConversationMessage[]): unknown[] {
  const out: { role: string; content: unknown[] }[] = [];
  for (const m of messages) {
    const parts = m.content.filter((c) => c.type !== "text" || c.text !== "");
    const ordered =
      m.role === "user"
        ? [...parts.filter((c) => c.type === "tool_result"), ...parts.filter((c) => c.type !== "tool_result")]
        : parts;
    const last = out[out.length - 1];
    if (last && last.role === m.role) last.content.push(...ordered.map(mapPart));
    else out.push({ role: m.role, content: ordered.map(mapPart) });
  }
  return out;
}
