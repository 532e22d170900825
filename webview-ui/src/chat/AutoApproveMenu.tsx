/**
 * The auto-approve dropdown: master switch, every fine-grained action, approve-all, the mode (normal / plan /
 * auto = YOLO), and the limits. Every control is an intent: the host writes user settings and the new values
 * come back as `settings`, so the panel always shows what the gate uses, even when changed elsewhere.
 *
 * The two switches that turn asking off wholesale (approve-all and YOLO) need a second, explicit click.
 */
import { useId, useState } from "react";
import type { Mode } from "../../../src/shared/protocol";
import type {
  AutoApproveAction,
  LockedSetting,
  SandboxView,
  SettingChange,
  SettingsView,
} from "../../../src/shared/protocol";
import { presetOf } from "../../../src/shared/presets";
import { Button, Checkbox, Icon, RadioGroup, TextField } from "../components";
import { useBridge } from "../state/context";

interface ActionSpec {
  readonly key: AutoApproveAction;
  readonly label: string;
  readonly short: string;
  readonly parent?: AutoApproveAction;
}

export const ACTIONS: readonly ActionSpec[] = [
  { key: "readFiles", label: "Read files in the workspace", short: "Read" },
  { key: "readFilesExternally", label: "…and outside the workspace", short: "Read outside", parent: "readFiles" },
  { key: "editFiles", label: "Edit files in the workspace (protected paths still ask)", short: "Edit" },
  { key: "editFilesExternally", label: "…and outside the workspace", short: "Edit outside", parent: "editFiles" },
  {
    key: "executeSafeCommands",
    label: "Run safe commands (allow list and read-only programs)",
    short: "Safe commands",
  },
  {
    key: "executeInSandbox",
    label: "Run other commands in the sandbox (boundaries still ask)",
    short: "Sandboxed commands",
    parent: "executeSafeCommands",
  },
  {
    key: "executeAllCommands",
    label: "Run all commands (deletion still asks)",
    short: "All commands",
    parent: "executeSafeCommands",
  },
  { key: "useMcp", label: "Use MCP tools marked \u201calways allow\u201d", short: "MCP" },
  { key: "webFetch", label: "Fetch web pages", short: "Web" },
];

const MODES = [
  { value: "normal", label: "Normal" },
  { value: "plan", label: "Plan (read-only)" },
  { value: "auto", label: "Auto (YOLO)" },
] as const;

/** One line saying what runs without asking. */
export function autoApproveSummary(s: SettingsView): string {
  if (s.errors.length > 0) return "Settings error: nothing is auto-approved";
  // The panel's banner names Restricted Mode; the summary says only what it means here.
  if (!s.workspaceTrusted) return "Off until the folder is trusted";
  if (s.mode === "auto") return "YOLO: everything not denied runs";
  const prefix = s.mode === "plan" ? "Plan · " : "";
  if (s.autoApprove.all) return `${prefix}Approve all`;
  if (!s.autoApprove.enabled) return `${prefix}Off`;
  const on = ACTIONS.filter((a) => s.autoApprove.actions[a.key] && (!a.parent || s.autoApprove.actions[a.parent])).map(
    (a) => a.short,
  );
  // The preset's name, or "Custom" once a switch differs from every preset (DESIGN, Settings).
  const preset = presetOf(s);
  if (preset?.mode === "plan") return preset.name;
  return `${preset?.name ?? "Custom"}: ${prefix}${on.length ? on.join(", ") : "Nothing"}`;
}

const MECHANISM = { bubblewrap: "bubblewrap", seatbelt: "macOS Seatbelt", none: "none" } as const;

/**
 * The OS sandbox around commands that run without a click, as the host's probe found it: which mechanism,
 * the network, the mode, and when it is missing, why and how to fix it.
 */
export function SandboxState({ sandbox }: { readonly sandbox: SandboxView }) {
  const network = sandbox.network === "hosts" ? "network: allowed hosts only" : "no network";
  let tone = "tg-muted";
  let line: string;
  if (sandbox.mode === "off") line = "Off (toolgate.sandbox.mode): commands run without the OS sandbox.";
  else if (sandbox.available)
    line = `Commands approved without a click run in the OS sandbox (${MECHANISM[sandbox.mechanism]}, ${network}).`;
  else {
    tone = "tg-warning";
    line =
      sandbox.mode === "required"
        ? `Unavailable: ${sandbox.reason}. Commands that would run without a click ask instead (mode: required).`
        : `Unavailable: ${sandbox.reason}. Commands run unsandboxed; the gate alone decides (mode: auto).`;
  }
  return (
    <div className={`tg-aa-sandbox ${tone} tg-small`} role="note" aria-label="OS sandbox">
      <Icon name={sandbox.available && sandbox.mode !== "off" ? "shield" : "warning"} /> <strong>OS sandbox</strong>{" "}
      {line}
      {sandbox.mode !== "off" && sandbox.available ? <span> Mode: {sandbox.mode}.</span> : null}
      {sandbox.error !== undefined ? <span> {sandbox.error}: until it is fixed the sandbox is required.</span> : null}
    </div>
  );
}

function parseLimit(text: string, integer: boolean): number | undefined {
  const t = text.trim().replace(/^\$/, "");
  if (t === "") return 0;
  const n = Number(t);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) return undefined;
  return n;
}

export function AutoApproveMenu({
  settings,
  open,
  onOpenChange,
}: {
  readonly settings: SettingsView;
  readonly open: boolean;
  readonly onOpenChange: (open: boolean) => void;
}) {
  const bridge = useBridge();
  const panelId = useId();
  const [confirm, setConfirm] = useState<"auto" | "all" | null>(null);
  const [limitError, setLimitError] = useState<string | undefined>();
  const a = settings.autoApprove;
  const set = (change: SettingChange) => void bridge.request({ type: "setSetting", change });
  // Controls the administrator's managed policy fixes: disabled, and the panel says who set them.
  const lockedList = settings.locked ?? [];
  const locked = (k: LockedSetting) => lockedList.includes(k);
  // The policy's mode ceiling: only the modes up to it are offered (MODES runs normal, plan, auto).
  const rank = { plan: 0, normal: 1, auto: 2 } as const;
  const ceiling = settings.modeCeiling;
  const modes = ceiling ? MODES.filter((m) => rank[m.value] <= rank[ceiling]) : [...MODES];
  const lockNote = (k: LockedSetting) =>
    locked(k) ? (
      <span className="tg-muted tg-small tg-locked">
        {" "}
        <Icon name="lock" /> set by your administrator
      </span>
    ) : null;

  const setMode = (mode: Mode) => {
    if (mode === "auto") setConfirm("auto");
    else set({ key: "mode", value: mode });
  };
  const setAll = (value: boolean) => {
    if (value) setConfirm("all");
    else set({ key: "autoApprove.all", value: false });
  };
  const commitLimit = (key: "autoApprove.maxRequests" | "autoApprove.maxCost", text: string) => {
    const n = parseLimit(text, key === "autoApprove.maxRequests");
    if (n === undefined) {
      setLimitError(
        key === "autoApprove.maxRequests"
          ? "Max requests must be a whole number, 0 or more."
          : "Max cost must be a number of dollars, 0 or more.",
      );
      return;
    }
    setLimitError(undefined);
    set({ key, value: n });
  };

  return (
    <div className={`tg-aa${open ? " tg-aa-open" : ""}`}>
      {/* Disclosure: the button first, its panel right after it (DOM order = focus order = visual order). */}
      <button
        type="button"
        className="tg-aa-bar"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => onOpenChange(!open)}
      >
        <Icon name={settings.mode === "auto" ? "warning" : settings.workspaceTrusted ? "shield" : "lock"} />
        <span className="tg-aa-label">Auto-approve:</span>
        <span className="tg-aa-summary">{autoApproveSummary(settings)}</span>
        <Icon name={open ? "chevron-up" : "chevron-down"} />
      </button>
      {open ? (
        <div
          id={panelId}
          className="tg-aa-panel"
          role="region"
          aria-label="Auto-approve settings"
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.stopPropagation();
              onOpenChange(false);
            }
          }}
        >
          {!settings.workspaceTrusted ? (
            <div className="tg-warning" role="note">
              <Icon name="lock" /> These switches apply once you trust this folder.
            </div>
          ) : null}
          <div className="tg-aa-master">
            <Checkbox
              checked={a.enabled}
              disabled={locked("autoApprove.enabled")}
              onChange={(v) => set({ key: "autoApprove.enabled", value: v })}
            >
              <strong>Auto-approve</strong>
            </Checkbox>
            {lockNote("autoApprove.enabled")}
            <span className="tg-muted tg-small">
              Off keeps the switches below as they are. Shortcut: {settings.toggleShortcut}
            </span>
          </div>
          <div className="tg-aa-actions" role="group" aria-label="Actions approved without asking">
            {ACTIONS.map((x) => {
              const fixed = locked(`autoApprove.action:${x.key}`);
              const disabled = fixed || !a.enabled || (x.parent !== undefined && !a.actions[x.parent]);
              return (
                <div key={x.key} className={x.parent ? "tg-aa-child" : undefined}>
                  <Checkbox
                    checked={a.actions[x.key]}
                    disabled={disabled}
                    onChange={(v) => set({ key: "autoApprove.action", action: x.key, value: v })}
                  >
                    {x.label}
                  </Checkbox>
                  {lockNote(`autoApprove.action:${x.key}`)}
                </div>
              );
            })}
          </div>
          <div className="tg-aa-all">
            <Checkbox checked={a.all} disabled={locked("autoApprove.all")} onChange={setAll}>
              Approve all (every call no rule refuses or asks about)
            </Checkbox>
            {lockNote("autoApprove.all")}
          </div>
          <div className="tg-aa-untrusted">
            {/* Overrides the switches above, approve-all and YOLO included: after untrusted content, data out asks. */}
            <Checkbox
              checked={settings.untrustedContent !== "off"}
              disabled={locked("untrustedContent")}
              onChange={(on: boolean) => set({ key: "untrustedContent", value: on ? "ask" : "off" })}
            >
              After reading untrusted content (web pages, MCP results), ask before sending data out — even with the
              switches above, approve-all or YOLO
            </Checkbox>
            {lockNote("untrustedContent")}
          </div>
          {settings.sandbox ? <SandboxState sandbox={settings.sandbox} /> : null}
          <RadioGroup label="Mode" value={settings.mode} options={modes} onChange={setMode} />
          {modes.length < MODES.length ? (
            <span className="tg-muted tg-small tg-locked">
              <Icon name="lock" />{" "}
              {MODES.filter((m) => !modes.includes(m))
                .map((m) => m.label)
                .join(", ")}
              : not allowed by your administrator
            </span>
          ) : null}
          {settings.mode === "auto" ? (
            <div className="tg-danger" role="note">
              <Icon name="warning" /> YOLO mode: every tool call that no deny rule refuses runs without asking,
              including commands and edits.
            </div>
          ) : null}
          {settings.mode === "plan" ? (
            <div className="tg-muted tg-small">
              Plan mode: edits and state-changing commands are refused and hidden from the model.
            </div>
          ) : null}
          {confirm ? (
            <div className="tg-danger" role="alertdialog" aria-label="Confirm">
              <div>
                <Icon name="warning" />{" "}
                {confirm === "auto"
                  ? "Switch to YOLO mode? Every call that no deny rule refuses will run without asking."
                  : "Approve all? Every call that no rule refuses or asks about will run without asking."}
              </div>
              <div className="tg-actions">
                <Button
                  onClick={() => {
                    set(confirm === "auto" ? { key: "mode", value: "auto" } : { key: "autoApprove.all", value: true });
                    setConfirm(null);
                  }}
                >
                  {confirm === "auto" ? "Switch to YOLO" : "Approve all"}
                </Button>
                <Button appearance="secondary" onClick={() => setConfirm(null)}>
                  Cancel
                </Button>
              </div>
            </div>
          ) : null}
          <div className="tg-aa-limits">
            <TextField
              value={String(a.maxRequests)}
              onCommit={(v) => commitLimit("autoApprove.maxRequests", v)}
              size={6}
              disabled={locked("autoApprove.maxRequests")}
            >
              Max requests
            </TextField>
            {lockNote("autoApprove.maxRequests")}
            <TextField
              value={String(a.maxCost)}
              onCommit={(v) => commitLimit("autoApprove.maxCost", v)}
              size={6}
              disabled={locked("autoApprove.maxCost")}
            >
              Max cost (USD)
            </TextField>
            {lockNote("autoApprove.maxCost")}
            <span className="tg-muted tg-small">0 = no limit. Reaching a limit asks before going on.</span>
          </div>
          {limitError ? (
            <div className="tg-error-text" role="alert">
              {limitError}
            </div>
          ) : null}
          <div className="tg-aa-footer">
            <Button appearance="secondary" icon="gear" onClick={() => bridge.post({ type: "openSettings" })}>
              Open settings
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
