/**
 * One model turn: trim the conversation to the context window, stream the request, show text, reasoning and
 * tool blocks as they arrive (each tool block gets its ToolCallRun at once), record usage and cost, then
 * either queue the turn's calls (toolCalls.ts), nudge a model that answered without a tool, or — when the
 * stream failed — ask the person whether to retry.
 *
 * Invariant: calls of a turn are queued only after its stream ended cleanly; if it was cut, failed or was
 * cancelled, none of them runs (they are shown as interrupted) and the turn can be retried.
 */
import { costOf } from "../providers/pricing";
import { ProviderError, type ContentPart } from "../providers/types";
import { TurnAssembler, type TextBlock, type ToolBlock } from "../streaming/turn";
import { visibleTools, type ToolDefinition } from "../tools/definitions";
import { retryVerdict } from "./asks";
import { RetryRow } from "./retryRow";
import { requestMessages, trimFor } from "./conversation";
import { buildSystemPrompt } from "./prompt";
import type { TaskCore } from "./taskCore";
import type { ToolCalls } from "./toolCalls";
import type { ToolCallRun } from "./toolCallRun";

export class ModelTurns {
  private turnsWithoutTools = 0;

  constructor(
    private readonly core: TaskCore,
    private readonly calls: ToolCalls,
  ) {}

  private tools(): ToolDefinition[] {
    const { config, env } = this.core.deps;
    const denied = new Set(config.deniedTools());
    if (!env.mcp) ["use_mcp_tool", "access_mcp_resource"].forEach((t) => denied.add(t));
    return visibleTools([...denied]);
  }

  /** "next": the turn produced tool calls or a nudge; "stop": the person chose not to retry a failure. */
  async run(): Promise<"next" | "stop"> {
    const core = this.core;
    const deps = core.deps;
    const provider = deps.provider;
    const tools = this.tools();
    const system = buildSystemPrompt({
      tools,
      roots: deps.config.roots,
      ...(deps.env.mcp ? { mcpServers: deps.env.mcp.servers() } : {}),
      ...(deps.customInstructions ? { customInstructions: deps.customInstructions } : {}),
    });
    const budget = provider.contextWindow - (deps.outputReserve ?? 8192);
    // Tool schemas are sent with every request and take context too.
    const trim = trimFor(core.conversation, system + JSON.stringify(tools), budget, core.keepFrom);
    if (trim.keepFrom > core.keepFrom) {
      const dropped = trim.keepFrom - core.keepFrom;
      core.keepFrom = trim.keepFrom;
      core.store.add({
        role: "say",
        kind: "info",
        text: `Removed the ${dropped} oldest messages of the conversation so it fits the model's context window (${provider.contextWindow} tokens).`,
      });
    }
    const apiId = core.store.add({ role: "say", kind: "api_request", text: provider.id, partial: true });
    let textId: number | undefined;
    let reasoningId: number | undefined;
    const endText = (): void => {
      if (textId !== undefined) core.store.patch(textId, { partial: false });
      if (reasoningId !== undefined) core.store.patch(reasoningId, { partial: false });
      textId = reasoningId = undefined;
    };
    const turnRuns = new Map<ToolBlock, ToolCallRun>();
    const assembler = new TurnAssembler({
      onTextDelta: (_b: TextBlock, delta) => {
        textId ??= core.store.add({ role: "say", kind: "text", partial: true });
        core.store.append(textId, delta);
      },
      onReasoningDelta: (delta) => {
        reasoningId ??= core.store.add({ role: "say", kind: "reasoning", partial: true });
        core.store.append(reasoningId, delta);
      },
      onToolStart: (block) => {
        endText();
        turnRuns.set(block, this.calls.newRun(block.id, block.name));
      },
      onToolStringDelta: (block, key, delta) => turnRuns.get(block)?.onStringDelta(key, delta, block.params),
      onToolFieldComplete: (block, key) => turnRuns.get(block)?.onFieldComplete(key, block.params),
      onToolEnd: (block) => {
        const run = turnRuns.get(block);
        if (!run) return;
        if (block.state === "complete") run.complete(block.params);
        else if (block.state === "error") run.interrupt("error", block.error);
        else run.interrupt("interrupted", "The response was cut before this call was complete; it was not run.");
      },
    });
    let failure: unknown;
    const retries = new RetryRow(core);
    try {
      const stream = provider.stream({
        system,
        messages: requestMessages(core.conversation, core.keepFrom),
        tools,
        signal: core.signal,
        waitBeforeRetry: retries.wait,
      });
      for await (const ev of stream) assembler.handle(ev);
      if (!assembler.ended) throw new ProviderError("the response stream ended without its end marker", "cut");
    } catch (e) {
      failure = e;
      assembler.interrupt();
    }
    endText();
    const usage = assembler.usage;
    const cost = costOf(provider.model, usage);
    deps.config.recordCost(
      cost,
      usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
      usage.outputTokens,
    );
    core.store.patch(apiId, {
      partial: false,
      usage: {
        inputTokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
        outputTokens: usage.outputTokens,
        costUsd: cost,
      },
    });

    if (failure !== undefined || core.signal.aborted) {
      // Nothing of a failed turn runs, not even its complete calls.
      for (const [block, run] of turnRuns)
        if (block.state === "complete")
          run.interrupt("interrupted", "The response did not finish, so no call of it was run.");
      core.throwIfCancelled();
      const msg = failure instanceof Error ? failure.message : String(failure);
      const stopped = failure instanceof ProviderError && failure.kind === "stopped";
      const errId = retries.fail(`The model request failed: ${msg}`, stopped);
      if (errId === undefined) return "stop";
      return (await retryVerdict(core, errId)) ? "next" : "stop";
    }

    const blocks = assembler.toolBlocks;
    const assistant: ContentPart[] = [];
    if (assembler.text) assistant.push({ type: "text", text: assembler.text });
    for (const b of blocks)
      assistant.push({ type: "tool_use", id: b.id, name: b.name, input: b.state === "complete" ? b.params : {} });
    if (assistant.length === 0) assistant.push({ type: "text", text: "(no response)" });
    core.conversation.push({ role: "assistant", content: assistant });

    if (blocks.length === 0) {
      this.turnsWithoutTools++;
      if (this.turnsWithoutTools >= (deps.maxTurnsWithoutTools ?? 3)) {
        const errId = core.store.add({
          role: "ask",
          kind: "error",
          text: "The model keeps answering without using a tool. Try again?",
          askState: "pending",
        });
        if (!(await retryVerdict(core, errId))) return "stop";
        this.turnsWithoutTools = 0;
      }
      core.pushUser([
        {
          type: "text",
          text: "You answered without using a tool. If the task is done, call attempt_completion; if you need the person, call ask_followup_question; otherwise continue with a tool.",
        },
      ]);
      return "next";
    }
    this.turnsWithoutTools = 0;
    this.calls.queue(blocks, turnRuns);
    return "next";
  }
}
