/** The one place tools are registered: every name in the vocabulary has exactly one handler. */
import type { ToolName } from "../../../core/types";
import { TOOL_NAMES } from "../../../core/types";
import type { ToolHandler } from "../types";
import { accessMcpResourceHandler } from "./accessMcpResource";
import { askFollowupQuestionHandler } from "./askFollowupQuestion";
import { attemptCompletionHandler } from "./attemptCompletion";
import { executeCommandHandler } from "./executeCommand";
import { listFilesHandler } from "./listFiles";
import { newTaskHandler } from "./newTask";
import { readFileHandler } from "./readFile";
import { replaceInFileHandler } from "./replaceInFile";
import { searchFilesHandler } from "./searchFiles";
import { useMcpToolHandler } from "./useMcpTool";
import { webFetchHandler } from "./webFetch";
import { writeToFileHandler } from "./writeToFile";

const HANDLERS: readonly ToolHandler[] = [
  readFileHandler,
  writeToFileHandler,
  replaceInFileHandler,
  listFilesHandler,
  searchFilesHandler,
  executeCommandHandler,
  useMcpToolHandler,
  accessMcpResourceHandler,
  webFetchHandler,
  askFollowupQuestionHandler,
  attemptCompletionHandler,
  newTaskHandler,
];

const REGISTRY: ReadonlyMap<string, ToolHandler> = new Map(HANDLERS.map((h) => [h.name, h]));

for (const name of TOOL_NAMES) if (!REGISTRY.has(name)) throw new Error(`no handler registered for ${name}`);

export function handlerFor(name: string): ToolHandler | undefined {
  return REGISTRY.get(name);
}

export function registeredTools(): readonly ToolName[] {
  return HANDLERS.map((h) => h.name);
}
