/**
 * Scenario 7 of issue 6.
 * Not implemented yet: the runner reports it SKIPPED (with the missing features) until its features land on
 * main and `run` is written against them.
 */
import type { Scenario } from "../harness/scenario";

export const reloadPendingAsk: Scenario = {
  id: "s7",
  title: "reload the window while an ask is pending: the ask is still there and approving runs the tool exactly once",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "the model calls write_to_file; the ask appears",
    "reload the browser window (the whole workbench)",
    "open the panel: the same ask is shown",
    "Approve: the file is written once (the model receives exactly one tool result)",
  ],
};
