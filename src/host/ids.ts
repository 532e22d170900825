/**
 * Ids shared between code and package.json `contributes` (a unit test checks they match both ways).
 * No `vscode` import, so tests and pure modules can use them.
 */
export const VIEW_CONTAINER_ID = "toolgate";
export const VIEW_ID = "toolgate.chatView";
export const PANEL_TYPE = "toolgate.chatPanel";

export const CommandId = {
  newTask: "toolgate.newTask",
  cycleMode: "toolgate.cycleMode",
  toggleAutoApprove: "toolgate.toggleAutoApprove",
  setApiKey: "toolgate.setApiKey",
  openSettings: "toolgate.openSettings",
  openInEditor: "toolgate.openInEditor",
  showAutoApproveMenu: "toolgate.showAutoApproveMenu",
  showMcpServers: "toolgate.showMcpServers",
  showPendingAsk: "toolgate.showPendingAsk",
  approvePendingAsk: "toolgate.approvePendingAsk",
  rejectPendingAsk: "toolgate.rejectPendingAsk",
  showRules: "toolgate.showRules",
  feedbackPendingAsk: "toolgate.feedbackPendingAsk",
  chooseProvider: "toolgate.chooseProvider",
  choosePreset: "toolgate.choosePreset",
  allowRegistryHosts: "toolgate.allowRegistryHosts",
} as const;

/** The getting-started walkthrough (`contributes.walkthroughs`), as `workbench.action.openWalkthrough` names it. */
export const WALKTHROUGH_ID = "toolgate.toolgate#toolgate.gettingStarted";
