/**
 * Scenario 1 of issue 6: the ask panel must appear while the tool block is still streaming, and approving writes
 * exactly what was streamed.
 * Not implemented yet: the runner reports it SKIPPED (with the missing features) until its features land on
 * main and `run` is written against them.
 */
import type { Scenario } from "../harness/scenario";

export const askWhileStreaming: Scenario = {
  id: "s1",
  title: "write_to_file streams; the ask appears while the block still streams; Approve writes exactly the streamed content",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "script the model: one turn streaming write_to_file(path: notes/out.txt, content: 4 KB) in 40 chunks, paused after chunk 10 until the ask is seen",
    "start a task from the panel's task input",
    "while the model is paused mid-block: the ask card is visible and names notes/out.txt (streaming is not finished)",
    "release the stream; click Approve",
    "notes/out.txt on disk equals the streamed content byte for byte; the row shows the write as done",
    "screenshot the panel with the ask in light and dark",
  ],
};
