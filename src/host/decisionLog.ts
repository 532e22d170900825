/**
 * Logs every gate decision to the "Toolgate" log channel, so a person can always look up why a call ran,
 * asked or was refused. The runtime calls `logDecision` once per decided call.
 */
import type { Decision, ToolCall } from "../core/types";
import type { AskResponse, TaskMessage } from "../shared/messages";
import type { RuleScope } from "../shared/protocol";
import { toolDefinition } from "../agent/tools/definitions";

/** The slice of `vscode.LogOutputChannel` used here. */
export interface LogSink {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const MAX_PARAM = 300;
/** Calls remembered for the answer lines (a task asks about far fewer between two answers). */
const REMEMBERED_CALLS = 500;

/**
 * A call as the gate decided it: the tool and its params as they were decided (booleans stay booleans),
 * JSON-encoded, long strings cut, control and invisible characters escaped.
 */
export function formatCall(call: ToolCall): string {
  let params = JSON.stringify(call.params, (_k, v: unknown) =>
    typeof v === "string" && v.length > MAX_PARAM ? `${v.slice(0, MAX_PARAM)}…(${v.length} chars)` : v,
  );
  params = params.replace(
    /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `${call.tool} ${params}`;
}

/** `[task T] [call N] `: the call's id is its row in the task (the message id the answer names too). */
function tag(taskId: string | undefined, callId: number | undefined): string {
  return `${taskId ? `[task ${taskId}] ` : ""}${callId !== undefined ? `[call ${callId}] ` : ""}`;
}

/** One line per call. Params are JSON-encoded, so control and invisible characters appear escaped. */
export function formatDecision(call: ToolCall, decision: Decision, taskId?: string, callId?: number): string {
  return `${tag(taskId, callId)}${decision.decision.toUpperCase()} ${formatCall(call)} — ${decision.reason} (rule: ${decision.rule})`;
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
 * asked (`decided`: the call as the gate decided it, from `DecisionLog.decidedCall`; else the ask's own view
 * of it), why (the decision's rule), what the person answered, and which rule they granted with which scope.
 */
export function formatAnswer(
  ask: TaskMessage,
  response: AskResponse,
  taskId: string,
  granted?: { readonly scope: RuleScope; readonly list: string; readonly rule: string },
  via: "panel" | "keyboard" = "panel",
  decided?: string,
): string {
  const what = ask.tool ? (decided ?? `${ask.tool.name} ${shownParams(ask)} (as shown)`) : ask.kind;
  const why = ask.tool?.decision
    ? ` — asked because ${ask.tool.decision.reason} (rule: ${ask.tool.decision.rule})`
    : "";
  const feedback = response.text ? `; feedback ${JSON.stringify(response.text.slice(0, MAX_PARAM))}` : "";
  const rule = granted ? `; granted ${granted.list} rule "${granted.rule}" for ${granted.scope}` : "";
  const id = ask.tool ? `[call ${ask.id}]` : `[message ${ask.id}]`;
  return `[task ${taskId}] ${id} ${ANSWER_WORD[response.kind]} (${via}) ${what}${why}${feedback}${rule}`;
}

/** A tool row's params with its body (streamed as the row's text, not kept in params): display strings. */
function shownParams(ask: TaskMessage): string {
  const tool = ask.tool!;
  const body = toolDefinition(tool.name)?.body;
  const params = body !== undefined && !(body in tool.params) ? { ...tool.params, [body]: ask.text } : tool.params;
  return formatCall({ tool: tool.name, params }).slice(tool.name.length + 1);
}

export class DecisionLog {
  private readonly decided = new Map<string, string>();

  constructor(private readonly sink: LogSink) {}

  /** `callId`: the call's row in the task, so the person's answer to it can name the call as decided. */
  logDecision(call: ToolCall, decision: Decision, taskId?: string, callId?: number): void {
    const line = formatDecision(call, decision, taskId, callId);
    if (decision.decision === "deny") this.sink.warn(line);
    else this.sink.info(line);
    if (taskId === undefined || callId === undefined) return;
    const key = `${taskId}#${callId}`;
    this.decided.delete(key); // re-inserted last: the oldest call is forgotten first
    this.decided.set(key, formatCall(call));
    if (this.decided.size > REMEMBERED_CALLS) this.decided.delete(this.decided.keys().next().value!);
  }

  /** The call as the gate last decided it (`formatCall`), for the line of the person's answer to it. */
  decidedCall(taskId: string, callId: number): string | undefined {
    return this.decided.get(`${taskId}#${callId}`);
  }
}
