/**
 * What a headless run reports, derived from the task's message deltas (the same stream the panel renders):
 * JSON Lines events for `--json`, and the refusals printed on stderr in every case.
 *
 * Events, one JSON object per line, each with `type`:
 *   {"type":"assistant_text","text"}                         a finished block of the model's prose
 *   {"type":"tool_call","id","tool","params"}                a complete call, before the gate decides
 *   {"type":"decision","id","tool","decision","reason","rule","taintedBy"}  the gate's decision (headless: no
 *                                                            "ask"); taintedBy: the task's untrusted sources then
 *   {"type":"tool_result","id","tool","status","result"}      done, error or denied, with the text shown
 *   {"type":"usage","inputTokens","outputTokens","costUsd"}   after each model request
 *   {"type":"protected_changes","changes"}                  a sandboxed command's protected-path changes, settled
 *                                                            (headless: removed), each with its `outcome`
 *   {"type":"end","state","exitCode","refusals"}              last line
 */
import type { MessageDelta, TaskMessage, ToolStatus } from "../shared/messages";

export type RunEvent = Readonly<Record<string, unknown> & { type: string }>;

const FINAL: readonly ToolStatus[] = ["done", "error", "denied", "rejected", "interrupted"];

export class RunEvents {
  private readonly messages = new Map<number, TaskMessage>();
  private readonly seen = new Map<number, { call?: boolean; decision?: boolean; result?: boolean }>();
  refusals = 0;
  /** A refusal because a limit was reached: no one can reset it headless, so the run stops. */
  limitReached = false;

  constructor(
    private readonly emit: (e: RunEvent) => void,
    private readonly onRefusal: (tool: string, reason: string, rule: string) => void,
    private readonly onNotice?: (text: string) => void,
    /** The task's untrusted sources now (a decision is reported as it is made, so: the ones it was made with). */
    private readonly taint: () => readonly string[] = () => [],
  ) {}

  apply(d: MessageDelta): void {
    if (d.type === "add") {
      this.messages.set(d.message.id, d.message);
      this.check(d.message);
      return;
    }
    const m = this.messages.get(d.id);
    if (!m) return;
    const next: TaskMessage = d.type === "append" ? { ...m, text: m.text + d.text } : { ...m, ...d.patch };
    this.messages.set(d.id, next);
    this.check(next);
  }

  private check(m: TaskMessage): void {
    const seen = this.seen.get(m.id) ?? {};
    this.seen.set(m.id, seen);
    if (m.kind === "text" && !m.partial && !seen.result) {
      seen.result = true;
      if (m.text !== "") this.emit({ type: "assistant_text", text: m.text });
      return;
    }
    if (m.kind === "api_request" && m.usage && !seen.result) {
      seen.result = true;
      this.emit({ type: "usage", ...m.usage });
      return;
    }
    if (m.kind === "protected_changes" && m.askState === "answered" && !seen.result) {
      const changes = m.protectedChanges ?? [];
      if (!changes.some((c) => c.outcome !== undefined)) return;
      seen.result = true;
      this.emit({ type: "protected_changes", changes });
      for (const c of changes)
        this.onNotice?.(
          `${c.runsCode === true ? "file that runs code later" : "protected path"} ${c.kind} in a sandboxed command: ${c.path} (${c.what}) — ${c.outcome ?? "?"}${c.diff !== undefined ? `\n${c.diff}` : ""}`,
        );
      return;
    }
    const tool = m.tool;
    if (!tool || tool.status === "streaming") return;
    const id = m.id;
    if (!seen.call) {
      seen.call = true;
      this.emit({ type: "tool_call", id, tool: tool.name, params: tool.params });
    }
    // A decision shown while the call still streamed is a preview; only the complete call's counts.
    if (tool.decision && !seen.decision && tool.status !== "pending") {
      seen.decision = true;
      const { decision, reason, rule } = tool.decision;
      this.emit({ type: "decision", id, tool: tool.name, decision, reason, rule, taintedBy: [...this.taint()] });
      if (decision === "deny") {
        this.refusals++;
        if (rule.startsWith("limits.")) this.limitReached = true;
        this.onRefusal(tool.name, reason, rule);
      }
    }
    if (FINAL.includes(tool.status) && tool.result !== undefined && !seen.result) {
      seen.result = true;
      this.emit({ type: "tool_result", id, tool: tool.name, status: tool.status, result: tool.result });
    }
  }
}
