import { errorResult, str, type ToolHandler } from "../types";

export const newTaskHandler: ToolHandler = {
  name: "new_task",
  async execute(call, ctx) {
    const params = call.params;
    if (!ctx.env.newTask) return errorResult("Starting a new task is not available here; continue in this task.");
    // The new task reads what this one read: it starts with this task's taint (and the sources trusted here).
    const id = await ctx.env.newTask(str(params, "context"), ctx.config.taint.state());
    return { content: `A new task (${id}) was started with your context; this task ends here.`, outcome: "handover" };
  },
};
