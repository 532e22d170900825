/**
 * Scenario 3 of issue 6: a chained command after an allowed prefix asks, and a rejection with feedback reaches the model.
 * Not implemented yet: the runner reports it SKIPPED (with the missing features) until its features land on
 * main and `run` is written against them.
 */
import type { Scenario } from "../harness/scenario";

export const rejectWithFeedback: Scenario = {
  id: "s3",
  title: "'ls; rm -rf build' with ls allowed asks naming rm; Reject with feedback keeps build/ and tells the model",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    `settings: toolgate.commands.allow = ["ls"]; the workspace has build/keep.txt`,
    "the model calls execute_command('ls; rm -rf build')",
    "the ask card shows the full command and names rm as the reason",
    "type feedback 'do not delete build' and click Reject",
    "build/keep.txt still exists; the model's next request contains the rejection and the feedback text",
  ],
};
