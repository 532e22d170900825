/**
 * Logs every gate decision to the "Toolgate" log channel, so a person can always look up why a call ran,
 * asked or was refused. The runtime calls `logDecision` once per decided call.
 */
import type { Decision, ToolCall } from "../core/types";
import type { AskResponse, TaskMessage } from "../shared/messages";
import type { RuleScope } from "../shared/protocol";

/** The slice of `vscode.LogOutputChannel` used here. */
export interface LogSink {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const MAX_PARAM = 300;

/** One line per call. Params are JSON-encoded, so control and invisible characters appear escaped. */
export function formatDecision(call: ToolCall, decision: Decision, taskId?: string): string {
  let params = JSON.stringify(call.params, (_k, v: unknown) =>
    typeof v === "string" && v.length > MAX_PARAM ? `${v.slice(0, MAX_PARAM)}…(${v.length} chars)` : v,
  );
  params = params.replace(
    /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const task = taskId ? `[task ${taskId}] ` : "";
  return `${task}${decision.decision.toUpperCase()} ${call.tool} ${params} — ${decision.reason} (rule: ${decision.rule})`;
}

const ANSWER_WORD: Readonly<Record<AskResponse["kind"], string>> = {
  approve: "APPROVED",
  approveOutsideSandbox: "APPROVED OUTSIDE THE SANDBOX",
  reject: "REJECTED",
  message: "ANSWERED",
  resetLimits: "RESET LIMITS",
  trustSource: "TRUSTED THE SOURCES FOR THIS TASK",
};

/**
 * The person's answer, logged next to the gate's decision for the same call: the audit trail says what was
 * asked, why (the decision's rule), what the person answered, and which rule they granted with which scope.
 */
export function formatAnswer(
  ask: TaskMessage,
  response: AskResponse,
  taskId: string,
  granted?: { readonly scope: RuleScope; readonly list: string; readonly rule: string },
  via: "panel" | "keyboard" = "panel",
): string {
  const tool = ask.tool ? `${ask.tool.name} ${JSON.stringify(ask.tool.params).slice(0, MAX_PARAM)}` : ask.kind;
  const why = ask.tool?.decision
    ? ` — asked because ${ask.tool.decision.reason} (rule: ${ask.tool.decision.rule})`
    : "";
  const feedback = response.text ? `; feedback ${JSON.stringify(response.text.slice(0, MAX_PARAM))}` : "";
  const rule = granted ? `; granted ${granted.list} rule "${granted.rule}" for ${granted.scope}` : "";
  return `[task ${taskId}] ${ANSWER_WORD[response.kind]} (${via}) ${tool}${why}${feedback}${rule}`;
}

export class DecisionLog {
  constructor(private readonly sink: LogSink) {}

  logDecision(call: ToolCall, decision: Decision, taskId?: string): void {
    const line = formatDecision(call, decision, taskId);
    if (decision.decision === "deny") this.sink.warn(line);
    else this.sink.info(line);
  }
}
