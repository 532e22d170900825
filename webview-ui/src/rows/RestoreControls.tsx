/**
 * "Restore files to before this step" on a row whose call changed files. The host shows the diff of what
 * restoring undoes and asks first; this control only sends the intent and shows that the host is on it.
 */
import { useState } from "react";
import { restorableStep } from "../../../src/shared/checkpointRows";
import type { TaskMessage } from "../../../src/shared/messages";
import { Button } from "../components";
import { useBridge } from "../state/context";
import "./checkpoints.css";

export function RestoreControls({ message }: { readonly message: TaskMessage }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const step = restorableStep(message);
  if (!step) return null;
  const changed = message.tool?.checkpoint?.state === "recorded" ? message.tool.checkpoint.changedFiles : undefined;
  const restore = async (): Promise<void> => {
    setBusy(true);
    try {
      await bridge.request({ type: "restoreCheckpoint", messageId: message.id });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tg-actions tg-restore">
      <Button
        appearance="secondary"
        icon="discard"
        disabled={busy}
        title="Shows what restoring undoes, then asks before changing anything"
        onClick={() => void restore()}
      >
        {busy ? "Reviewing the restore…" : "Restore files to before this step"}
      </Button>
      <span className="tg-muted">
        Checkpoint {step.seq}
        {changed !== undefined ? ` · ${changed} ${changed === 1 ? "file" : "files"} changed` : ""}
      </span>
    </div>
  );
}
