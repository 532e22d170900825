/**
 * One remembered rule: its effect, its exact text, where it is kept, and a Remove button — or, for rules the
 * panel must not change (managed policy, a workspace's settings file), why it cannot be removed here.
 * Used by the Rules view and by the MCP tab's per-tool list. Remove is an intent: the host checks the rule
 * is still where it says and removes that entry alone.
 */
import { useState } from "react";
import "./rules.css";
import type { RuleEntry } from "../../../src/shared/protocol";
import { Button, Tag, type Tone } from "../components";
import { useBridge } from "../state/context";

const EFFECT_TONE: Readonly<Record<RuleEntry["effect"], Tone>> = { allow: "ok", ask: "warn", deny: "error" };

/** What a rule of each source is called on screen. */
export const SOURCE_LABEL: Readonly<Record<RuleEntry["source"], string>> = {
  task: "This task",
  workspace: "This workspace",
  user: "User settings",
  mcpAlwaysAllow: "MCP always allow",
  workspaceSettings: "Workspace settings file",
  managed: "Managed policy",
};

function fixedNote(entry: RuleEntry): string {
  return entry.source === "managed"
    ? "Set by your administrator: it cannot be removed here."
    : "Kept in the workspace's settings file: edit that file to change it.";
}

/** alwaysAllow entries are tool names; `*` means every tool of the server. */
export function ruleText(entry: RuleEntry): string {
  return entry.source === "mcpAlwaysAllow" && entry.rule === "*" ? "* (every tool)" : entry.rule;
}

export function RuleItem({ entry, showSource }: { readonly entry: RuleEntry; readonly showSource?: boolean }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const ref = entry.ref;
  const remove = async () => {
    if (!ref) return;
    setBusy(true);
    await bridge.request({ type: "removeRule", ref });
    setBusy(false);
  };
  return (
    <li className="tg-rule-item" aria-label={`Rule ${ruleText(entry)}`}>
      <div className="tg-rule-body">
        <div className="tg-rule-item-head">
          <Tag tone={EFFECT_TONE[entry.effect]}>{entry.effect}</Tag>
          {showSource ? <Tag tone="neutral">{SOURCE_LABEL[entry.source]}</Tag> : null}
          <code className="tg-rule-text">{ruleText(entry)}</code>
        </div>
        <div className="tg-muted tg-small tg-rule-where">{entry.where}</div>
        {ref ? null : <div className="tg-muted tg-small tg-rule-fixed">{fixedNote(entry)}</div>}
      </div>
      {ref ? (
        <Button
          appearance="icon"
          className="tg-rule-remove"
          icon="trash"
          label={`Remove ${ruleText(entry)}`}
          onClick={() => void remove()}
          disabled={busy}
        />
      ) : null}
    </li>
  );
}
