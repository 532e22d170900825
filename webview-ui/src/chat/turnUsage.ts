/**
 * Token counts folded into the turn: a finished model request is not a row of its own; its usage is shown at
 * the end of the last row the turn produced. A request still waiting, or one that produced no row, keeps its
 * own (small) row.
 */
import type { TaskMessage } from "../../../src/shared/messages";

export type Usage = NonNullable<TaskMessage["usage"]>;

export interface FoldedTurns {
  /** The rows to show, in order. */
  readonly rows: readonly TaskMessage[];
  /** Row id → the usage of the turn that row ends. */
  readonly usage: ReadonlyMap<number, Usage>;
}

export function foldTurns(messages: readonly TaskMessage[]): FoldedTurns {
  const rows: TaskMessage[] = [];
  const usage = new Map<number, Usage>();
  let open: TaskMessage | undefined; // the finished request whose turn is being read
  let last: TaskMessage | undefined; // the turn's last row so far
  const close = (): void => {
    if (!open) return;
    if (last && open.usage) usage.set(last.id, open.usage);
    else if (!last) rows.push(open); // nothing else came of it: the request keeps its own row
    open = last = undefined;
  };
  for (const m of messages) {
    if (m.kind === "api_request") {
      close();
      if (m.partial) rows.push(m);
      else open = m;
      continue;
    }
    if (m.kind === "user") close();
    rows.push(m);
    if (open) last = m;
  }
  close();
  return { rows, usage };
}
