/**
 * Scenario 2 of issue 6: the dropdown writes user settings, and settings.json changes show in the dropdown.
 * Not implemented yet: the runner reports it SKIPPED (with the missing features) until its features land on
 * main and `run` is written against them.
 */
import type { Scenario } from "../harness/scenario";

export const dropdownEditFiles: Scenario = {
  id: "s2",
  title: "auto-approve dropdown 'edit files' on: the next write runs with a say row; settings.json follows both ways",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "open the auto-approve dropdown; tick 'Edit files'",
    "user settings.json has toolgate.autoApprove.actions.editFiles = true",
    "the model writes a file: a say row, no ask; the file is on disk",
    "set editFiles false in settings.json by hand: the dropdown's checkbox unticks live",
  ],
};
