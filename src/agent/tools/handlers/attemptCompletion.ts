import { str, type ToolHandler } from "../types";
import { runCommand } from "./executeCommand";

/** The command (if any) was decided by the gate like any execute_command, as part of this call. */
export const attemptCompletionHandler: ToolHandler = {
  name: "attempt_completion",
  async execute(call, ctx) {
    const params = call.params;
    let commandNote = "";
    if (call.command) {
      const r = await runCommand(call.command, ctx);
      commandNote = `\n\nThe demonstration command ran:\n${r.content}`;
    }
    return {
      content: `The result was presented to the person.${commandNote}`,
      outcome: "completion",
      display: str(params, "result"),
    };
  },
};
