/**
 * The Rules view: every remembered rule, grouped by where it is kept (this task, this workspace, user
 * settings, MCP always allow, the workspace's settings file, the managed policy), each with its effect and a
 * Remove button where the panel may remove it. Malformed settings lists are shown as errors; their entries
 * are listed without Remove, because removing one would rewrite the whole value.
 */
import { useId } from "react";
import type { RuleEntry, RulesView as RulesModel } from "../../../src/shared/protocol";
import { Button, Icon } from "../components";
import { useBridge } from "../state/context";
import { RuleItem, SOURCE_LABEL } from "./RuleItem";

const ORDER: readonly RuleEntry["source"][] = [
  "task",
  "workspace",
  "user",
  "mcpAlwaysAllow",
  "workspaceSettings",
  "managed",
];

function Group({ source, rules }: { readonly source: RuleEntry["source"]; readonly rules: readonly RuleEntry[] }) {
  const titleId = useId();
  return (
    <section className="tg-card tg-rules-group" aria-labelledby={titleId}>
      <h3 id={titleId} className="tg-title">
        {SOURCE_LABEL[source]}
      </h3>
      <ul className="tg-rule-list" aria-label={`${SOURCE_LABEL[source]} rules`}>
        {rules.map((r, i) => (
          <RuleItem key={`${r.where}\u0000${r.rule}\u0000${i}`} entry={r} />
        ))}
      </ul>
    </section>
  );
}

export function RulesView({ rules }: { readonly rules: RulesModel | null }) {
  const bridge = useBridge();
  if (!rules)
    return (
      <div className="tg-loading" role="status">
        <Icon name="loading" spin /> Loading rules…
      </div>
    );
  return (
    <div className="tg-rules-view">
      <div className="tg-mcp-header">
        <h2 className="tg-card-title">Remembered rules</h2>
        <Button appearance="secondary" icon="gear" onClick={() => bridge.post({ type: "openSettings" })}>
          Settings
        </Button>
      </div>
      {rules.errors.length ? (
        <div className="tg-danger" role="alert">
          <div>
            <Icon name="error" /> Some rule lists are malformed. They are shown, but not changed from here:
          </div>
          <ul>
            {rules.errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {rules.rules.length === 0 ? (
        <div className="tg-muted">
          No remembered rules yet. &ldquo;Always allow&rdquo; and &ldquo;Always deny&rdquo; on an approval add them
          here.
        </div>
      ) : null}
      {ORDER.map((source) => {
        const list = rules.rules.filter((r) => r.source === source);
        return list.length ? <Group key={source} source={source} rules={list} /> : null;
      })}
    </div>
  );
}
