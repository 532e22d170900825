/**
 * The ask after a sandboxed command created or changed protected paths (a new `.git`, a planted hook, a new
 * `.vscode/settings.json`): each change with its kind and, for small text files, their first lines; then
 * "Remove (undo)" — the primary, default answer — or "Keep". The host keeps them only on an explicit Keep
 * ("approve"); "reject" (Remove) and anything else undo them.
 */
import type { TaskMessage } from "../../../src/shared/messages";
import { Button } from "../components";
import { ProtectedChangeList } from "../rows/ProtectedChangeList";
import { AskCard, useAnswer } from "./AskCard";

export function ProtectedChangesCard({ message }: { readonly message: TaskMessage }) {
  const { busy, error, answer } = useAnswer(message.id);
  return (
    <AskCard
      className="tg-protected-card"
      icon="shield"
      title="A sandboxed command changed protected paths"
      error={error}
    >
      <div className="tg-prose">
        Git hooks and config, .vscode, workflows and the ignore file can run code or change what Toolgate allows. Remove
        what the command created (the default), or keep it.
      </div>
      <ProtectedChangeList changes={message.protectedChanges ?? []} />
      <div className="tg-actions">
        <Button disabled={busy} onClick={() => void answer({ kind: "reject" })}>
          Remove (undo)
        </Button>
        <Button appearance="secondary" disabled={busy} onClick={() => void answer({ kind: "approve" })}>
          Keep
        </Button>
      </div>
    </AskCard>
  );
}
