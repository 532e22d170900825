/**
 * The conversation sent to the model, with oldest-first trimming. The first user message (the task) is
 * always kept; after it, whole (assistant, user) pairs are dropped so every tool_use keeps its tool_result
 * and roles still alternate. A note in the first message tells the model that history was removed.
 */
import type { ConversationMessage } from "../providers/types";

/** Rough token estimate (4 characters a token): good enough to stay clear of the window. */
export function estimateTokens(messages: readonly ConversationMessage[], system = ""): number {
  let chars = system.length;
  for (const m of messages) {
    for (const c of m.content) {
      if (c.type === "text") chars += c.text.length;
      else if (c.type === "tool_result") chars += c.content.length + 20;
      else chars += JSON.stringify(c.input).length + c.name.length + 20;
    }
  }
  return Math.ceil(chars / 4);
}

export interface TrimResult {
  /** Index of the first message kept after the first one (1 = nothing trimmed). */
  readonly keepFrom: number;
  readonly removed: number;
}

/**
 * Chooses how many messages to drop so the estimate fits `budget` tokens. `keepFrom` only grows across calls
 * (trimmed history never comes back) and always points at an assistant message.
 */
export function trimFor(
  messages: readonly ConversationMessage[],
  system: string,
  budget: number,
  keepFrom = 1,
): TrimResult {
  let from = Math.max(1, keepFrom);
  const total = (f: number) => estimateTokens([messages[0]!, ...messages.slice(f)], system);
  // Never drop the last two messages: the model must see where it is.
  while (messages.length - from > 2 && total(from) > budget) from += 2;
  return { keepFrom: from, removed: from - 1 };
}

export function requestMessages(messages: readonly ConversationMessage[], keepFrom: number): ConversationMessage[] {
  if (messages.length === 0) return [];
  if (keepFrom <= 1) return [...messages];
  const first = messages[0]!;
  const note = {
    type: "text" as const,
    text: `[${keepFrom - 1} earlier messages of this conversation were removed to fit the context window.]`,
  };
  return [{ role: first.role, content: [...first.content, note] }, ...messages.slice(keepFrom)];
}
