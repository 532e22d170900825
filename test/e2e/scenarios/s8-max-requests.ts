/**
 * Scenario 8 of issue 6.
 * Not implemented yet: the runner reports it SKIPPED (with the missing features) until its features land on
 * main and `run` is written against them.
 */
import type { Scenario } from "../harness/scenario";

export const maxRequests: Scenario = {
  id: "s8",
  title: "maxRequests = 2: the third request shows 'reset and continue'; continuing works",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "settings: toolgate.autoApprove.maxRequests = 2; reads auto-approved",
    "the model makes three read_file calls: two run, the third shows 'reset and continue'",
    "click it: the third runs and the task goes on",
  ],
};
