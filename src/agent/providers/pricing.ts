/**
 * Prices (USD per million tokens) and context windows by model name prefix. Unknown models cost 0 (local
 * models usually are free; a wrong guess would trip maxCost falsely) and get a 128k window.
 */
import type { TokenUsage } from "./types";

interface Price {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

const PRICES: readonly (readonly [prefix: string, price: Price, contextWindow: number])[] = [
  ["claude-opus-4", { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, 200_000],
  ["claude-sonnet-4", { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, 200_000],
  ["claude-3-7-sonnet", { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, 200_000],
  ["claude-haiku-4", { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, 200_000],
  ["claude-3-5-haiku", { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 }, 200_000],
  ["gpt-4o-mini", { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 }, 128_000],
  ["gpt-4o", { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 }, 128_000],
  ["gpt-4.1-mini", { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 }, 1_000_000],
  ["gpt-4.1", { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 }, 1_000_000],
  ["o4-mini", { input: 1.1, output: 4.4, cacheRead: 0.275, cacheWrite: 0 }, 200_000],
];

function lookup(model: string): (typeof PRICES)[number] | undefined {
  const name = model.replace(/^.*\//, "").toLowerCase(); // "anthropic/claude-..." on OpenRouter
  return PRICES.find(([prefix]) => name.startsWith(prefix));
}

export function costOf(model: string, u: TokenUsage): number {
  const p = lookup(model)?.[1];
  if (!p) return 0;
  return (
    (u.inputTokens * p.input +
      u.outputTokens * p.output +
      u.cacheReadTokens * p.cacheRead +
      u.cacheWriteTokens * p.cacheWrite) /
    1e6
  );
}

export function contextWindowFor(model: string): number {
  return lookup(model)?.[2] ?? 128_000;
}
