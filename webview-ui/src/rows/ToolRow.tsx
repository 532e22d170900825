/**
 * A tool call row (say or ask). It shows what the call does and its status; approving happens in the
 * approval card docked under the list, so it stays visible however far the list is scrolled.
 */
import type { TaskMessage, ToolInfo } from "../../../src/shared/messages";
import { Button, Icon } from "../components";
import { useBridge } from "../state/context";
import { LongText } from "./LongText";
import { RestoreControls } from "./RestoreControls";
import { StatusTag } from "./StatusTag";
import { prettyArguments, toolBody, toolSummary } from "./toolSummary";
import { COMMAND_VISIBILITY, VisibleText } from "./VisibleText";
import { lineCount, plural } from "../util/counts";

export function OpenDiffButton({ messageId }: { readonly messageId: number }) {
  const bridge = useBridge();
  return (
    <Button appearance="secondary" icon="diff" onClick={() => bridge.post({ type: "openDiff", messageId })}>
      Open diff
    </Button>
  );
}

function ToolBody({ message, tool }: { readonly message: TaskMessage; readonly tool: ToolInfo }) {
  const p = tool.params;
  const body = toolBody(message);
  switch (tool.name) {
    case "execute_command":
      return (
        <>
          <pre className="tg-command">
            <VisibleText text={body} options={COMMAND_VISIBILITY} />
          </pre>
          {tool.sandboxed !== undefined ? (
            <div className="tg-label" aria-label="OS sandbox">
              {tool.sandboxed ? "sandboxed" : "unsandboxed"}
            </div>
          ) : null}
          {p.requires_approval === "true" ? (
            <div className="tg-note">The model marked this command as needing approval.</div>
          ) : null}
          {/* A rejected or refused command never ran: its "result" is the answer the row already states. */}
          {tool.result && tool.status !== "rejected" && tool.status !== "denied" ? (
            <LongText text={tool.result} keep="tail" className="tg-output" />
          ) : null}
        </>
      );
    case "write_to_file":
    case "replace_in_file": {
      const lines = lineCount(body);
      // A refused call changes nothing: there is no diff of it to open (the host would not open one either).
      return (
        <div className="tg-edit">
          {tool.status === "denied" ? null : (
            <div className="tg-actions">
              <OpenDiffButton messageId={message.id} />
              <span className="tg-muted">
                {tool.name === "write_to_file" ? plural(lines, "line") : plural(lines, "line") + " of changes"}
              </span>
            </div>
          )}
          {body ? (
            <details>
              <summary>{tool.name === "write_to_file" ? "Content" : "Changes"}</summary>
              <LongText text={body} />
            </details>
          ) : null}
        </div>
      );
    }
    case "use_mcp_tool":
      return (
        <div className="tg-mcp">
          <div className="tg-label">Arguments</div>
          <pre className="tg-pre">
            <VisibleText text={prettyArguments(body)} />
          </pre>
          {tool.result ? <ResultDetails result={tool.result} /> : null}
        </div>
      );
    case "new_task":
      return <LongText text={body} />;
    default:
      // A refused call's result is the gate's reason, which the row already states.
      return tool.result && tool.status !== "denied" ? <ResultDetails result={tool.result} /> : null;
  }
}

function ResultDetails({ result }: { readonly result: string }) {
  return (
    <details>
      <summary>Result</summary>
      <LongText text={result} />
    </details>
  );
}

export function ToolRow({ message }: { readonly message: TaskMessage }) {
  const tool = message.tool;
  if (!tool) return <div className="tg-row tg-muted">{message.text}</div>;
  const s = toolSummary(tool, toolBody(message));
  const showSubject = s.subject !== undefined && tool.name !== "execute_command";
  const refused = tool.status === "denied" && tool.decision;
  const feedback = tool.status === "rejected" ? /Their feedback: ([\s\S]*)$/.exec(tool.result ?? "")?.[1] : undefined;
  return (
    <div className={`tg-row tg-tool tg-family-${s.family}${message.role === "ask" ? " tg-ask" : ""}`}>
      <div className="tg-row-head">
        <Icon name={s.icon} />
        <span className="tg-title">{s.title}</span>
        {showSubject ? (
          <VisibleText
            className="tg-subject"
            text={s.subject!}
            options={s.family === "fetch" ? COMMAND_VISIBILITY : undefined}
          />
        ) : null}
        <StatusTag tool={tool} />
      </div>
      <ToolBody message={message} tool={tool} />
      {refused ? (
        <div className="tg-reason" role="note">
          <Icon name="info" /> {tool.decision!.reason}
        </div>
      ) : null}
      <RestoreControls message={message} />
      {feedback ? (
        <div className="tg-feedback" role="note" aria-label="Your feedback">
          <Icon name="comment" /> <span className="tg-muted">You said:</span> {feedback}
        </div>
      ) : null}
    </div>
  );
}
