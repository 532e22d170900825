/**
 * Scenario 5 of issue 6.
 * Not implemented yet: the runner reports it SKIPPED (with the missing features) until its features land on
 * main and `run` is written against them.
 */
import type { Scenario } from "../harness/scenario";

export const planMode: Scenario = {
  id: "s5",
  title: "plan mode: a write is refused and the model is told why; reads still run",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "choose Plan in the dropdown's mode: settings.json toolgate.mode = plan",
    "the model calls write_to_file: refused without an ask, the file is not on disk, the next model request carries the refusal reason",
    "the model calls read_file on a workspace file: it runs (say row) and its content reaches the model",
  ],
};
