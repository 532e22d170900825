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

/** The two things a row can offer, one button each. */
const ACTIONS = {
  undoRestore: {
    icon: "redo",
    title: "Shows what undoing the restore brings back, then asks before changing anything",
    label: "Undo restore",
    busy: "Reviewing the undo…",
  },
  restoreCheckpoint: {
    icon: "discard",
    title: "Shows what restoring undoes, then asks before changing anything",
    label: "Restore files to before this step",
    busy: "Reviewing the restore…",
  },
} as const;

type Intent = keyof typeof ACTIONS;

export function RestoreControls({ message }: { readonly message: TaskMessage }) {
  const bridge = useBridge();
  const marks = useContext(RestoreMarksContext);
  // The intent the host is working on: the button may change under it when the marks arrive first.
  const [busy, setBusy] = useState<Intent | undefined>(undefined);
  const offer = rowOffer(message, marks);
  const c = message.tool?.checkpoint;
  if ((!offer.restore && !offer.undo) || c?.state !== "recorded") return null;
  const send = async (type: Intent): Promise<void> => {
    setBusy(type);
    try {
      await bridge.request({ type, messageId: message.id });
    } finally {
      setBusy(undefined);
    }
  };
  const intent: Intent = offer.undo ? "undoRestore" : "restoreCheckpoint";
  const action = ACTIONS[intent];
  return (
    <div className="tg-actions tg-restore" role="group" aria-label="Checkpoint of this step">
      {offer.mark ? <MarkNote mark={offer.mark} /> : null}
      <Button
        appearance="secondary"
        icon={action.icon}
        disabled={busy !== undefined}
        title={action.title}
        onClick={() => void send(intent)}
      >
        {busy === intent ? action.busy : action.label}
      </Button>
      <span className="tg-muted">
        Checkpoint {c.seq}
        {c.changedFiles !== undefined ? ` · ${c.changedFiles} ${c.changedFiles === 1 ? "file" : "files"} changed` : ""}
      </span>
    </div>
  );
}
