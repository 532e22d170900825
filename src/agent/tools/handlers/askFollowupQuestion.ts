import type { ToolHandler } from "../types";

/** The ask is the question: by the time this runs, the person's answer is the approval's feedback text. */
export const askFollowupQuestionHandler: ToolHandler = {
  name: "ask_followup_question",
  execute: (_call, ctx) =>
    Promise.resolve({
      content: ctx.feedback
        ? `The person answered: ${ctx.feedback}`
        : "The person did not answer; continue with your best judgement.",
    }),
};
