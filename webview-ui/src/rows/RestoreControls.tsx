/**
 * "Restore files to before this step" on a row whose call changed files; once restored, the row says so and
 * offers "Undo restore" (until that is undone or more was recorded). The host shows the diff of what changes
 * and asks first; this control only sends the intent and shows that the host is on it. What is offered is
 * `rowOffer` (shared with the host, which accepts exactly that).
 */
import { useContext, useState } from "react";
import { rowOffer } from "../../../src/shared/checkpointRows";
import type { RestoreMark, TaskMessage } from "../../../src/shared/messages";
import { Button, Icon } from "../components";
import { useBridge } from "../state/context";
import { plural } from "../util/counts";
import { RestoreMarksContext } from "./restoreMarks";
import "./checkpoints.css";

function MarkNote({ mark }: { readonly mark: RestoreMark }) {
  if (mark.undone)
    return (
      <span className="tg-restored tg-muted" role="status">
        <Icon name="history" /> Restore undone
      </span>
    );
  return (
    <span className="tg-restored" role="status">
      <Icon name="check" /> Restored to before this step
      {mark.files !== undefined ? <span className="tg-muted"> ({plural(mark.files, "file")})</span> : null}
    </span>
  );
}

export function RestoreControls({ message }: { readonly message: TaskMessage }) {
  const bridge = useBridge();
  const marks = useContext(RestoreMarksContext);
  const [busy, setBusy] = useState(false);
  const offer = rowOffer(message, marks);
  const c = message.tool?.checkpoint;
  if ((!offer.restore && !offer.undo) || c?.state !== "recorded") return null;
  const send = async (type: "restoreCheckpoint" | "undoRestore"): Promise<void> => {
    setBusy(true);
    try {
      await bridge.request({ type, messageId: message.id });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tg-actions tg-restore" role="group" aria-label="Checkpoint of this step">
      {offer.mark ? <MarkNote mark={offer.mark} /> : null}
      {offer.undo ? (
        <Button
          appearance="secondary"
          icon="redo"
          disabled={busy}
          title="Shows what undoing the restore brings back, then asks before changing anything"
          onClick={() => void send("undoRestore")}
        >
          {busy ? "Reviewing the undo…" : "Undo restore"}
        </Button>
      ) : (
        <Button
          appearance="secondary"
          icon="discard"
          disabled={busy}
          title="Shows what restoring undoes, then asks before changing anything"
          onClick={() => void send("restoreCheckpoint")}
        >
          {busy ? "Reviewing the restore…" : "Restore files to before this step"}
        </Button>
      )}
      <span className="tg-muted">
        Checkpoint {c.seq}
        {c.changedFiles !== undefined ? ` · ${c.changedFiles} ${c.changedFiles === 1 ? "file" : "files"} changed` : ""}
      </span>
    </div>
  );
}
