/**
 * Scenario 6 of issue 6.
 * Not implemented yet: the runner reports it SKIPPED (with the missing features) until its features land on
 * main and `run` is written against them.
 */
import type { Scenario } from "../harness/scenario";

export const untrustedNothingAutoApproved: Scenario = {
  id: "s6",
  title: "an untrusted folder (Restricted Mode): nothing is auto-approved even with every switch on",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "open an untrusted folder with toolgate.autoApprove.all = true and every action on",
    "the panel says Restricted Mode",
    "the model calls read_file and execute_command('ls'): each one asks",
  ],
};
