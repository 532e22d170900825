/**
 * The files an `apply_patch` patch touches (the "*** Begin Patch" format Codex introduced and Cline 3 also
 * offers to GPT models): `*** Add File: P`, `*** Update File: P` (optionally followed by `*** Move to: Q`) and
 * `*** Delete File: P`. The hook judges each file as the write (or deletion) it is.
 *
 * Invariant: the reading over-approximates what an applier could take from the text. Every line that begins with
 * `***` must be one of the known markers, or the patch is unreadable (refused); header lines are also found with
 * surrounding blanks, inside the legacy shell wrappers (`apply_patch <<'EOF'`, `%%bash`), and anywhere in the
 * text, so an applier that is more lenient than this reader cannot write a file the reader did not list.
 */

export type PatchFileOp =
  | { readonly kind: "add"; readonly path: string }
  | { readonly kind: "update"; readonly path: string }
  | { readonly kind: "delete"; readonly path: string }
  | { readonly kind: "move"; readonly from: string; readonly to: string };

export type PatchFiles =
  { readonly ok: true; readonly ops: readonly PatchFileOp[] } | { readonly ok: false; readonly reason: string };

const HEADER = /^\s*\*\*\*\s*(Add File|Update File|Delete File|Move to)\s*:\s*(.*?)\s*$/;
const MARKER = /^\s*\*\*\*\s*(Begin Patch|End Patch|End of File)\s*$/;

/** Reads the file operations of `patch`; unreadable patches are a reason, never an empty list. */
export function patchFiles(patch: string): PatchFiles {
  const ops: PatchFileOp[] = [];
  let lastUpdate: { index: number; path: string } | undefined;
  for (const raw of patch.split(/\r\n|\r|\n/)) {
    if (MARKER.test(raw)) continue;
    const m = HEADER.exec(raw);
    if (!m) {
      if (/^\s*\*\*\*/.test(raw))
        return { ok: false, reason: `the patch has a line Toolgate cannot read: ${raw.trim()}` };
      continue;
    }
    const [, kind, path = ""] = m;
    if (path === "") return { ok: false, reason: `the patch's \`*** ${kind}:\` line names no file` };
    if (kind === "Move to") {
      if (lastUpdate === undefined)
        return { ok: false, reason: "the patch's `*** Move to:` does not follow an `*** Update File:`" };
      ops[lastUpdate.index] = { kind: "move", from: lastUpdate.path, to: path };
      lastUpdate = undefined;
      continue;
    }
    lastUpdate = undefined;
    if (kind === "Add File") ops.push({ kind: "add", path });
    else if (kind === "Delete File") ops.push({ kind: "delete", path });
    else {
      lastUpdate = { index: ops.length, path };
      ops.push({ kind: "update", path });
    }
  }
  if (ops.length === 0) return { ok: false, reason: "the patch names no file (no `*** Add/Update/Delete File:` line)" };
  return { ok: true, ops };
}
