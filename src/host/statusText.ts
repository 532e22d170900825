/**
 * The status bar item's text for a settings view. Pure, so it is tested without VS Code: the caller passes
 * `vscode.l10n.t` as `t` (the default only fills in `{0}`-style placeholders, for tests).
 */
import type { SettingsView } from "../shared/protocol";

export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

const untranslated: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] === undefined ? m : String(args[Number(i)])));

export interface StatusText {
  readonly text: string;
  readonly tooltip: string;
  readonly warning: boolean;
}

/**
 * With asks waiting, the count leads and the item is highlighted; the rest of the text is unchanged.
 * `sandboxNotice` (the OS sandbox is wanted but unavailable) is one more tooltip line.
 */
export function statusText(
  s: SettingsView,
  waiting = 0,
  t: Translate = untranslated,
  sandboxNotice?: string,
): StatusText {
  const text = waitingText(s, waiting, t);
  return sandboxNotice === undefined ? text : { ...text, tooltip: `${text.tooltip}\n${sandboxNotice}` };
}

function waitingText(s: SettingsView, waiting: number, t: Translate): StatusText {
  const base = settingsText(s, t);
  if (waiting === 0) return base;
  const what = waiting === 1 ? t("1 request waits for your answer") : t("{0} requests wait for your answer", waiting);
  return {
    text: `$(bell-dot) ${waiting} · ${base.text}`,
    tooltip: `${what}: ${t("click to open the panel.")} ${base.tooltip}`,
    warning: true,
  };
}

function settingsText(s: SettingsView, t: Translate): StatusText {
  if (s.errors.length > 0) {
    return {
      text: `$(error) ${t("Toolgate: settings error")}`,
      tooltip: t("Nothing is auto-approved until the settings are fixed: {0}", s.errors[0] ?? ""),
      warning: true,
    };
  }
  if (!s.workspaceTrusted) {
    return {
      text: `$(lock) ${t("Toolgate: restricted")}`,
      tooltip: t("Restricted Mode: nothing is auto-approved. Click to open auto-approve settings."),
      warning: false,
    };
  }
  if (s.mode === "auto") {
    return {
      text: `$(warning) ${t("Toolgate: YOLO")}`,
      tooltip: t("Auto (YOLO) mode: every call that no deny rule refuses runs without asking."),
      warning: true,
    };
  }
  const mode = s.mode === "plan" ? t("Plan") : t("Normal");
  const approve = s.autoApprove.all
    ? t("approve all")
    : s.autoApprove.enabled
      ? t("auto-approve on")
      : t("auto-approve off");
  return {
    text: `$(shield) ${mode} · ${approve}`,
    tooltip: t("Toolgate: {0} mode, {1}. Click to change.", mode, approve),
    warning: s.autoApprove.all,
  };
}
