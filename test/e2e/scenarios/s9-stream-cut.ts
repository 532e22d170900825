/**
 * Scenario 9 of issue 6.
 * Not implemented yet: the runner reports it SKIPPED (with the missing features) until its features land on
 * main and `run` is written against them.
 */
import type { Scenario } from "../harness/scenario";

export const streamCut: Scenario = {
  id: "s9",
  title: "a stream cut in the middle of write_to_file: nothing is written and the row shows it was interrupted",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "editFiles auto-approve on (so a complete block would run at once)",
    "the model streams write_to_file and the connection is cut after half the arguments",
    "the file does not exist; the row shows the block as interrupted; no tool result was sent",
  ],
};
