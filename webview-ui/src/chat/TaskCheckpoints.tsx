/**
 * The task's checkpoint line, under its state: "Show all changes of this task" once a step changed files,
 * why no checkpoint could be taken (no git, turned off, Restricted Mode), and what checkpoints leave out —
 * said once here, not on every row.
 */
import { useMemo, useState } from "react";
import { skippedText, taskCheckpoints } from "../../../src/shared/checkpointRows";
import type { TaskView } from "../../../src/shared/protocol";
import { Button, Icon } from "../components";
import { useBridge } from "../state/context";
import "../rows/checkpoints.css";

export function TaskCheckpoints({ task }: { readonly task: TaskView }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const c = useMemo(() => taskCheckpoints(task.messages), [task.messages]);
  const skipped = c.skipped ? skippedText(c.skipped) : undefined;
  if (c.changing === 0 && c.unavailable === undefined && skipped === undefined) return null;
  const show = async (): Promise<void> => {
    setBusy(true);
    try {
      await bridge.request({ type: "showTaskChanges" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tg-checkpoints" role="group" aria-label="Checkpoints">
      {c.changing > 0 ? (
        <Button appearance="secondary" icon="diff-multiple" disabled={busy} onClick={() => void show()}>
          Show all changes of this task
        </Button>
      ) : null}
      {c.unavailable !== undefined ? (
        <span className="tg-muted" role="note">
          <Icon name="info" /> No checkpoints: {c.unavailable}
        </span>
      ) : null}
      {skipped !== undefined ? (
        <span className="tg-muted" title={c.skipped!.examples.map((e) => e.path).join("\n")}>
          {skipped}
        </span>
      ) : null}
    </div>
  );
}
