import { errorResult, str, type ToolHandler } from "../types";

export const newTaskHandler: ToolHandler = {
  name: "new_task",
  async execute(call, ctx) {
    const params = call.params;
    if (!ctx.env.newTask) return errorResult("Starting a new task is not available here; continue in this task.");
    const id = await ctx.env.newTask(str(params, "context"));
    return { content: `A new task (${id}) was started with your context; this task ends here.`, outcome: "handover" };
  },
};
