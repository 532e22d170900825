/**
 * What the HTTP streaming providers (Anthropic, OpenAI-compatible) share: their identity (`<kind>:<model>`,
 * the context window from the price table unless given), the retry wrapper around one attempt (http.ts:
 * retried only while nothing has been yielded), and reading one SSE record's JSON. What an attempt sends
 * and how it reads the wire format stays with each provider.
 */
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from "./http";
import { contextWindowFor } from "./pricing";
import { ProviderError, type ModelProvider, type ModelRequest, type StreamEvent } from "./types";

export interface HttpProviderOptions {
  readonly model: string;
  readonly contextWindow?: number;
  readonly retry?: RetryPolicy;
}

export abstract class HttpStreamProvider implements ModelProvider {
  readonly id: string;
  readonly model: string;
  readonly contextWindow: number;

  protected constructor(
    kind: string,
    private readonly common: HttpProviderOptions,
  ) {
    this.model = common.model;
    this.id = `${kind}:${common.model}`;
    this.contextWindow = common.contextWindow ?? contextWindowFor(common.model);
  }

  stream(request: ModelRequest): AsyncIterable<StreamEvent> {
    return withRetries(request, this.common.retry ?? DEFAULT_RETRY, () => this.attempt(request));
  }

  /** One request and its stream, ending with an `end` event; a stream cut before its end throws (kind "cut"). */
  protected abstract attempt(request: ModelRequest): AsyncGenerator<StreamEvent>;
}

/** Parses one SSE record's data; an unreadable one is a protocol error naming what it was (`event`, `chunk`). */
export function parseRecord<T>(data: string, what: string): T {
  try {
    return JSON.parse(data) as T;
  } catch {
    throw new ProviderError(`the server sent an unreadable ${what}: ${data.slice(0, 200)}`, "protocol");
  }
}
