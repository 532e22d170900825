/**
 * The provider-neutral model interface. A provider turns one request into a stream of events; the task
 * loop never sees a wire format. Conversation content is provider-neutral too and each provider maps it.
 */
import type { ToolDefinition } from "../tools/definitions";

export interface TextPart {
  readonly type: "text";
  readonly text: string;
}

export interface ToolUsePart {
  readonly type: "tool_use";
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

export interface ToolResultPart {
  readonly type: "tool_result";
  readonly toolUseId: string;
  readonly content: string;
  readonly isError?: boolean;
}

export type ContentPart = TextPart | ToolUsePart | ToolResultPart;

/** Every assistant `tool_use` is answered by a `tool_result` in the next user message (providers require it). */
export interface ConversationMessage {
  readonly role: "user" | "assistant";
  readonly content: readonly ContentPart[];
}

export interface ModelRequest {
  readonly system: string;
  readonly messages: readonly ConversationMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly signal: AbortSignal;
  /** Called before a retry so the person sees why the turn is slow. */
  readonly onRetry?: (info: RetryInfo) => void;
  /**
   * Waits before a retry instead of a plain timer, so the person can retry at once (resolve early) or stop
   * (reject: the failure ends the stream). Without it the provider sleeps `delayMs`.
   */
  readonly waitBeforeRetry?: (info: RetryInfo, signal: AbortSignal) => Promise<void>;
}

export interface RetryInfo {
  /** Attempts made so far (1 after the first failure). */
  readonly attempt: number;
  /** Attempts the policy allows in all (the first one included). */
  readonly maxAttempts: number;
  readonly delayMs: number;
  readonly reason: string;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/**
 * Stream events. `usage` fields present override earlier ones (providers report running totals).
 * A stream that ends without `end` was cut; providers throw `ProviderError` with `kind: "cut"` then.
 */
export type StreamEvent =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "reasoning"; readonly text: string }
  | { readonly type: "tool_start"; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: "tool_delta"; readonly index: number; readonly json: string }
  | { readonly type: "tool_end"; readonly index: number }
  | { readonly type: "usage"; readonly usage: Partial<TokenUsage> }
  | { readonly type: "end"; readonly stopReason: string };

export interface ModelProvider {
  /** For the price table and the person: "anthropic:claude-sonnet-4-5". */
  readonly id: string;
  readonly model: string;
  /** Context window in tokens (for trimming). */
  readonly contextWindow: number;
  stream(request: ModelRequest): AsyncIterable<StreamEvent>;
}

/** "stopped": the person chose not to wait for another retry. */
export type ProviderErrorKind = "http" | "network" | "cut" | "protocol" | "aborted" | "api" | "stopped";

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    readonly status?: number,
    /** True once any event was yielded: a retry would duplicate output, so none is made. */
    readonly afterOutput = false,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
