/**
 * Assembles one assistant turn from provider stream events into ordered blocks: text and tool calls whose
 * arguments are parsed incrementally. Observers get deltas only (text appended, a string parameter grown,
 * a field completed), never the whole buffer again.
 *
 * Block states: `streaming` → `complete` (arguments parsed) | `error` (malformed JSON) | `interrupted`
 * (the stream was cut or cancelled before the block ended). Only `complete` blocks can ever be executed.
 */
import { JsonArgumentsError, PartialJsonParser } from "./partialJson";
import type { StreamEvent, TokenUsage } from "../providers/types";

export type ToolBlockState = "streaming" | "complete" | "error" | "interrupted";

export interface TextBlock {
  readonly type: "text";
  text: string;
}

export class ToolBlock {
  readonly type = "tool";
  state: ToolBlockState = "streaming";
  error: string | undefined;
  /** Top-level fields whose value is final (e.g. `path` while `content` still streams). */
  readonly completeFields = new Set<string>();
  readonly parser: PartialJsonParser;

  constructor(
    readonly index: number,
    readonly id: string,
    readonly name: string,
    observer: TurnObserver,
  ) {
    this.parser = new PartialJsonParser({
      onStringDelta: (key, delta) => observer.onToolStringDelta?.(this, key, delta),
      onFieldComplete: (key) => {
        this.completeFields.add(key);
        observer.onToolFieldComplete?.(this, key);
      },
    });
  }

  /** Best-effort arguments so far; final once `state` is `complete`. */
  get params(): Readonly<Record<string, unknown>> {
    return this.parser.value;
  }
}

export type TurnBlock = TextBlock | ToolBlock;

export interface TurnObserver {
  onTextDelta?(block: TextBlock, delta: string): void;
  onReasoningDelta?(delta: string): void;
  onToolStart?(block: ToolBlock): void;
  onToolStringDelta?(block: ToolBlock, key: string, delta: string): void;
  onToolFieldComplete?(block: ToolBlock, key: string): void;
  /** The block left `streaming` (complete, error or interrupted). */
  onToolEnd?(block: ToolBlock): void;
}

export class TurnAssembler {
  readonly blocks: TurnBlock[] = [];
  private readonly byIndex = new Map<number, ToolBlock>();
  usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  stopReason: string | undefined;
  /** Set once the provider signalled a clean end of the turn. */
  ended = false;

  constructor(private readonly observer: TurnObserver = {}) {}

  get toolBlocks(): ToolBlock[] {
    return this.blocks.filter((b): b is ToolBlock => b.type === "tool");
  }

  get text(): string {
    return this.blocks
      .filter((b): b is TextBlock => b.type === "text")
      .map((b) => b.text)
      .join("");
  }

  handle(ev: StreamEvent): void {
    switch (ev.type) {
      case "text": {
        let last = this.blocks[this.blocks.length - 1];
        if (last?.type !== "text") {
          last = { type: "text", text: "" };
          this.blocks.push(last);
        }
        last.text += ev.text;
        this.observer.onTextDelta?.(last, ev.text);
        return;
      }
      case "reasoning":
        this.observer.onReasoningDelta?.(ev.text);
        return;
      case "tool_start": {
        if (this.byIndex.has(ev.index)) return;
        const block = new ToolBlock(ev.index, ev.id, ev.name, this.observer);
        this.byIndex.set(ev.index, block);
        this.blocks.push(block);
        this.observer.onToolStart?.(block);
        return;
      }
      case "tool_delta": {
        const block = this.byIndex.get(ev.index);
        if (!block || block.state !== "streaming") return;
        try {
          block.parser.feed(ev.json);
        } catch (e) {
          this.fail(block, e);
        }
        return;
      }
      case "tool_end": {
        const block = this.byIndex.get(ev.index);
        if (block) this.finish(block);
        return;
      }
      case "usage":
        this.usage = { ...this.usage, ...ev.usage };
        return;
      case "end":
        for (const b of this.toolBlocks) this.finish(b);
        this.stopReason = ev.stopReason;
        this.ended = true;
        return;
    }
  }

  /** The stream was cut, failed or was cancelled: every block still streaming is interrupted. */
  interrupt(): void {
    for (const b of this.toolBlocks) {
      if (b.state === "streaming") {
        b.state = "interrupted";
        this.observer.onToolEnd?.(b);
      }
    }
  }

  private finish(block: ToolBlock): void {
    if (block.state !== "streaming") return;
    try {
      block.parser.end();
      block.state = "complete";
      this.observer.onToolEnd?.(block);
    } catch (e) {
      this.fail(block, e);
    }
  }

  private fail(block: ToolBlock, e: unknown): void {
    block.state = "error";
    const detail = e instanceof JsonArgumentsError ? e.message : String(e);
    block.error = `The arguments of ${block.name} were not valid JSON (${detail}). Nothing was run; send the call again with a valid JSON object.`;
    this.observer.onToolEnd?.(block);
  }
}
