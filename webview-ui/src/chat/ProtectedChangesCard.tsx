/**
 * The ask after a sandboxed command created or changed protected paths (a new `.git`, a planted hook, a new
 * `.vscode/settings.json`) or files that run code later (a package.json script, a Makefile): each change with
 * its kind and, for small text files, their diff or first lines; then
 * "Remove (undo)" — the primary, default answer — or "Keep". The host keeps them only on an explicit Keep
 * ("approve"); "reject" (Remove) and anything else undo them.
 */
import type { TaskMessage } from "../../../src/shared/messages";
import { Button } from "../components";
import { ProtectedChangeList } from "../rows/ProtectedChangeList";
import { AskCard, useAnswer } from "./AskCard";

export function ProtectedChangesCard({ message }: { readonly message: TaskMessage }) {
  const { busy, error, answer } = useAnswer(message.id);
  const changes = message.protectedChanges ?? [];
  const runs = changes.some((c) => c.runsCode === true);
  const prot = changes.some((c) => c.runsCode !== true);
  const title = prot
    ? runs
      ? "A sandboxed command changed protected paths and files that run code"
      : "A sandboxed command changed protected paths"
    : "A sandboxed command changed files that run code later";
  return (
    <AskCard className="tg-protected-card" icon="shield" title={title} error={error}>
      <div className="tg-prose">
        {prot
          ? "Git hooks and config, .vscode, workflows and the ignore file can run code or change what Toolgate allows. "
          : ""}
        {runs ? "Package scripts, Makefiles, test, build and CI configuration run later, outside the sandbox. " : ""}
        Undo what the command changed (the default), or keep it.
      </div>
      <ProtectedChangeList changes={changes} />
      <div className="tg-actions">
        <Button disabled={busy} onClick={() => void answer({ kind: "reject" })}>
          {prot ? "Remove (undo)" : "Undo"}
        </Button>
        <Button appearance="secondary" disabled={busy} onClick={() => void answer({ kind: "approve" })}>
          Keep
        </Button>
      </div>
    </AskCard>
  );
}
