import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { Gate } from "../core/gate";
import { taintLine } from "../core/taint";
import type { Decision } from "../core/types";

interface InputLine {
  readonly id: unknown;
  readonly tool: string;
  readonly params: Record<string, unknown>;
}

type Parsed =
  | { readonly ok: true; readonly call: InputLine }
  | { readonly ok: false; readonly id: unknown; readonly reason: string };

function parseLine(line: string): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (e) {
    return { ok: false, id: null, reason: `the input line is not JSON: ${(e as Error).message}` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return { ok: false, id: null, reason: "the input line must be a JSON object" };
  const o = v as Record<string, unknown>;
  const id = "id" in o ? o.id : null;
  if (typeof o.tool !== "string") return { ok: false, id, reason: "the input needs a string `tool`" };
  const params = o.params === undefined ? {} : o.params;
  if (typeof params !== "object" || params === null || Array.isArray(params))
    return { ok: false, id, reason: "`params` must be an object" };
  return { ok: true, call: { id, tool: o.tool, params: params as Record<string, unknown> } };
}

function explainText(
  n: number,
  call: InputLine | undefined,
  decision: Decision,
  trace: readonly string[],
  taintedBy: readonly string[],
): string {
  const head = call ? `#${n} ${call.tool} ${JSON.stringify(call.params)}` : `#${n} (invalid input)`;
  const lines = [`  taint: ${taintLine(taintedBy)}`, ...trace.map((t) => `  ${t}`)];
  return (
    [head, ...lines, `  => ${decision.decision.toUpperCase()}: ${decision.reason} [${decision.rule}]`, ""].join("\n") +
    "\n"
  );
}

/** Decides every input line in order, as one task (limits count across lines). */
export async function decideLines(
  command: "check" | "explain",
  gate: Gate,
  input: Readable,
  output: Writable,
  /** `--tainted-by`: the calls are decided as in a task that read untrusted content from these sources. */
  taintedBy: readonly string[] = [],
): Promise<void> {
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const raw of rl) {
    if (raw.trim() === "") continue;
    n++;
    const parsed = parseLine(raw);
    let decision: Decision;
    let trace: readonly string[] = [];
    if (!parsed.ok) {
      decision = { decision: "deny", reason: parsed.reason, rule: "input:invalid" };
    } else {
      const call = taintedBy.length > 0 ? { ...parsed.call, facts: { taintedBy } } : parsed.call;
      if (command === "explain") ({ decision, trace } = gate.explain(call));
      else decision = gate.decide(call);
    }
    const id = parsed.ok ? parsed.call.id : parsed.id;
    output.write(
      command === "explain"
        ? explainText(n, parsed.ok ? parsed.call : undefined, decision, trace, taintedBy)
        : JSON.stringify({ id, decision: decision.decision, reason: decision.reason, rule: decision.rule }) + "\n",
    );
  }
}
