/**
 * MCP servers and their tools: status (connected / error with its message / disabled), read-only and
 * destructive badges from the tools' annotations, per-tool "always allow" and "enabled", a server-level
 * "always allow all tools", and the warning past 60 enabled tools. Toggles are intents: the host rewrites
 * toolgate.mcpServers at user scope and sends the new view back.
 */
import { useId } from "react";
import type {
  McpChange,
  McpServerView,
  McpToolView,
  McpView as McpViewModel,
  RuleEntry,
} from "../../../src/shared/protocol";
import { Button, Checkbox, Icon, Tag } from "../components";
import { RuleItem } from "../rules/RuleItem";
import { useBridge } from "../state/context";

export const MCP_TOOL_WARNING = 60;

export function enabledTools(mcp: McpViewModel): number {
  let n = 0;
  for (const s of mcp.servers) if (s.status !== "disabled") for (const t of s.tools) if (t.enabled) n++;
  return n;
}

function ServerStatus({ server }: { readonly server: McpServerView }) {
  switch (server.status) {
    case "connected":
      return <Tag tone="ok">connected</Tag>;
    case "connecting":
      return (
        <Tag tone="info">
          <Icon name="loading" spin /> connecting
        </Tag>
      );
    case "disconnected":
      return <Tag tone="warn">disconnected</Tag>;
    case "disabled":
      return <Tag tone="neutral">disabled</Tag>;
    case "error":
      return <Tag tone="error">error</Tag>;
  }
}

function ToolItem({
  server,
  tool,
  change,
}: {
  readonly server: McpServerView;
  readonly tool: McpToolView;
  readonly change: (c: McpChange) => void;
}) {
  const descId = useId();
  const rules = tool.rules ?? [];
  const overrule = rules.some((r) => r.effect === "deny")
    ? "deny"
    : rules.some((r) => r.effect === "ask")
      ? "ask"
      : undefined;
  return (
    <li className="tg-mcp-tool" aria-label={`Tool ${tool.name}`}>
      <div className="tg-mcp-tool-head">
        <code className="tg-mcp-tool-name">{tool.name}</code>
        {overrule === "deny" ? (
          <Tag tone="error" title="A deny rule refuses every call of this tool">
            denied
          </Tag>
        ) : overrule === "ask" ? (
          <Tag tone="warn" title="An ask rule makes every call of this tool ask">
            always asks
          </Tag>
        ) : null}
        {tool.readOnlyHint ? (
          <Tag tone="ok" title="The server marks this tool read-only">
            read-only
          </Tag>
        ) : null}
        {tool.destructiveHint ? (
          <Tag tone="error" title="The server marks this tool destructive">
            destructive
          </Tag>
        ) : null}
      </div>
      {tool.description ? (
        <div id={descId} className="tg-muted tg-small tg-mcp-desc">
          {tool.description}
        </div>
      ) : null}
      <div className="tg-mcp-tool-toggles">
        <Checkbox
          checked={tool.alwaysAllow}
          describedBy={tool.description ? descId : undefined}
          onChange={(v) => change({ kind: "toolAlwaysAllow", server: server.name, tool: tool.name, value: v })}
        >
          Always allow
        </Checkbox>
        <Checkbox
          checked={tool.enabled}
          onChange={(v) => change({ kind: "toolEnabled", server: server.name, tool: tool.name, value: v })}
        >
          Enabled
        </Checkbox>
      </div>
      {overrule ? (
        <div className={overrule === "deny" ? "tg-danger" : "tg-warning"} role="note">
          <Icon name={overrule === "deny" ? "error" : "warning"} />{" "}
          {overrule === "deny"
            ? "Refused: a deny rule below applies, so “Always allow” has no effect."
            : "Asks every time: an ask rule below applies, so “Always allow” has no effect."}
        </div>
      ) : null}
      <ToolRules title="Rules that refuse it" rules={rules.filter((r) => r.effect === "deny")} />
      <ToolRules title="Rules that make it ask" rules={rules.filter((r) => r.effect === "ask")} />
      <ToolRules
        title={overrule ? "Allow rules, overruled by the rules above" : "Rules that let it run"}
        rules={rules.filter((r) => r.effect === "allow")}
      />
    </li>
  );
}

/** One kind of the rules that apply to a tool, whatever their scope, each with its own way to revoke it. */
function ToolRules({ title, rules }: { readonly title: string; readonly rules: readonly RuleEntry[] }) {
  const titleId = useId();
  if (rules.length === 0) return null;
  return (
    <div className="tg-mcp-tool-rules">
      <div id={titleId} className="tg-label">
        {title}
      </div>
      <ul className="tg-rule-list" aria-labelledby={titleId}>
        {rules.map((r, i) => (
          <RuleItem key={`${r.where}\u0000${r.rule}\u0000${i}`} entry={r} showSource />
        ))}
      </ul>
    </div>
  );
}

function ServerCard({ server, change }: { readonly server: McpServerView; readonly change: (c: McpChange) => void }) {
  const titleId = useId();
  return (
    <section className="tg-card tg-mcp-server" aria-labelledby={titleId}>
      <div className="tg-row-head">
        <Icon name="server" />
        <h3 id={titleId} className="tg-title">
          {server.name}
        </h3>
        <ServerStatus server={server} />
      </div>
      {(server.status === "error" || server.status === "disconnected") && server.error ? (
        <div className="tg-error-text" role="note">
          {server.error}
        </div>
      ) : null}
      <div className="tg-mcp-server-toggles">
        <Checkbox
          checked={server.status !== "disabled"}
          onChange={(v) => change({ kind: "serverEnabled", server: server.name, value: v })}
        >
          Server enabled
        </Checkbox>
        <Checkbox
          checked={server.alwaysAllowAll}
          onChange={(v) => change({ kind: "serverAlwaysAllowAll", server: server.name, value: v })}
        >
          Always allow all tools
        </Checkbox>
      </div>
      {server.tools.length ? (
        <ul className="tg-mcp-tools" aria-label={`Tools of ${server.name}`}>
          {server.tools.map((t) => (
            <ToolItem key={t.name} server={server} tool={t} change={change} />
          ))}
        </ul>
      ) : (
        <div className="tg-muted tg-small">
          {server.status === "connected"
            ? "This server offers no tools."
            : "Tools appear once the server is connected."}
        </div>
      )}
    </section>
  );
}

export function McpView({ mcp, useMcp }: { readonly mcp: McpViewModel; readonly useMcp: boolean }) {
  const bridge = useBridge();
  const change = (c: McpChange) => void bridge.request({ type: "mcpChange", change: c });
  const count = enabledTools(mcp);
  return (
    <div className="tg-mcp-view">
      <div className="tg-mcp-header">
        <h2 className="tg-card-title">MCP servers</h2>
        <Button appearance="secondary" icon="add" onClick={() => bridge.post({ type: "addMcpServer" })}>
          Add server
        </Button>
      </div>
      {!mcp.live ? (
        <div className="tg-note" role="note">
          <Icon name="info" /> The MCP hub starts with the agent runtime, which is not connected yet: servers below come
          from your settings.
        </div>
      ) : null}
      {!useMcp ? (
        <div className="tg-note" role="note">
          <Icon name="info" /> &ldquo;Use MCP&rdquo; auto-approval is off, so every MCP call asks, even for tools marked
          &ldquo;always allow&rdquo;.
        </div>
      ) : null}
      {count > MCP_TOOL_WARNING ? (
        <div className="tg-warning" role="note">
          <Icon name="warning" /> {count} tools are enabled. Past {MCP_TOOL_WARNING}, models pick tools less reliably:
          disable the ones you do not need.
        </div>
      ) : null}
      {mcp.servers.length === 0 ? (
        <div className="tg-muted">No MCP servers configured yet. &ldquo;Add server&rdquo; opens the setting.</div>
      ) : null}
      {mcp.servers.map((s) => (
        <ServerCard key={s.name} server={s} change={change} />
      ))}
    </div>
  );
}
