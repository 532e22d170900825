/** Every e2e scenario, in the order the run takes them (the harness check first). */
import type { Scenario } from "../harness/scenario";
import { installAndActivate } from "./a-install-activate";
import { settingsUi } from "./b-settings-ui";
import { panel } from "./c-panel";
import { harness } from "./h-harness";
import { askWhileStreaming } from "./s1-ask-while-streaming";
import { dropdownEditFiles } from "./s2-dropdown-edit-files";
import { dropdownSettingsBridge } from "./s2a-dropdown-settings-bridge";
import { rejectWithFeedback } from "./s3-reject-with-feedback";
import { mcpAlwaysAllow } from "./s4-mcp-always-allow";
import { mcpAlwaysAllowAll } from "./s4a-mcp-always-allow-all";
import { planMode } from "./s5-plan-mode";
import { planModeSetting } from "./s5a-plan-mode-setting";
import { untrustedNothingAutoApproved } from "./s6-untrusted";
import { restrictedBanner } from "./s6a-restricted-banner";
import { reloadPendingAsk } from "./s7-reload-pending-ask";
import { maxRequests } from "./s8-max-requests";
import { streamCut } from "./s9-stream-cut";
import { rulesView } from "./s13-rules-view";
import { checkpointRestore } from "./s11-checkpoint-restore";
import { sandboxStopsOutsideWrite } from "./s10-sandbox";
import { cardCommand } from "./s12-card-command";
import { cardEdit } from "./s12-card-edit";
import { cardRestricted } from "./s12-card-restricted";
import { contrast } from "./s14-contrast";
import { historyReopen } from "./s15-history";
import { historyLatest } from "./s15a-history-latest";
import { firstRun } from "./s16-first-run";
import { askWhenHidden } from "./s17-ask-when-hidden";
import { sandboxReloadProtectedAsk } from "./s18-sandbox-reload";
import { untrustedContent } from "./s19-untrusted-content";
import { sandboxedAutonomy } from "./s20-sandboxed-autonomy";

export const scenarios: readonly Scenario[] = [
  harness,
  installAndActivate,
  settingsUi,
  panel,
  dropdownSettingsBridge,
  mcpAlwaysAllowAll,
  planModeSetting,
  restrictedBanner,
  askWhileStreaming,
  dropdownEditFiles,
  rejectWithFeedback,
  mcpAlwaysAllow,
  planMode,
  untrustedNothingAutoApproved,
  reloadPendingAsk,
  maxRequests,
  streamCut,
  rulesView,
  checkpointRestore,
  sandboxStopsOutsideWrite,
  cardCommand,
  cardEdit,
  cardRestricted,
  contrast,
  historyReopen,
  historyLatest,
  firstRun,
  askWhenHidden,
  sandboxReloadProtectedAsk,
  untrustedContent,
  sandboxedAutonomy,
];
