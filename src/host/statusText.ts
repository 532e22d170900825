/** The status bar item's text for a settings view. Pure, so it is tested without VS Code. */
import type { SettingsView } from "../shared/protocol";

export interface StatusText {
  readonly text: string;
  readonly tooltip: string;
  readonly warning: boolean;
}

/** With asks waiting, the count leads and the item is highlighted; the rest of the text is unchanged. */
export function statusText(s: SettingsView, waiting = 0): StatusText {
  const base = settingsText(s);
  if (waiting === 0) return base;
  const what = waiting === 1 ? "1 request waits" : `${waiting} requests wait`;
  return {
    text: `$(bell-dot) ${waiting} · ${base.text}`,
    tooltip: `${what} for your answer: click to open the panel. ${base.tooltip}`,
    warning: true,
  };
}

function settingsText(s: SettingsView): StatusText {
  if (s.errors.length > 0) {
    return {
      text: "$(error) Toolgate: settings error",
      tooltip: `Nothing is auto-approved until the settings are fixed: ${s.errors[0]}`,
      warning: true,
    };
  }
  if (!s.workspaceTrusted) {
    return {
      text: "$(lock) Toolgate: restricted",
      tooltip: "Restricted Mode: nothing is auto-approved. Click to open auto-approve settings.",
      warning: false,
    };
  }
  if (s.mode === "auto") {
    return {
      text: "$(warning) Toolgate: YOLO",
      tooltip: "Auto (YOLO) mode: every call that no deny rule refuses runs without asking.",
      warning: true,
    };
  }
  const mode = s.mode === "plan" ? "Plan" : "Normal";
  const approve = s.autoApprove.all ? "approve all" : s.autoApprove.enabled ? "auto-approve on" : "auto-approve off";
  return {
    text: `$(shield) ${mode} · ${approve}`,
    tooltip: `Toolgate: ${mode} mode, ${approve}. Click to change.`,
    warning: s.autoApprove.all,
  };
}
