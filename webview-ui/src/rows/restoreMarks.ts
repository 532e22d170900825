/**
 * The current task's rows its files were restored to, for RestoreControls. A context rather than a prop: rows
 * are memoised on their message, and a restore changes no message, only these marks.
 */
import { createContext } from "react";
import type { RestoreMarks } from "../../../src/shared/messages";

export const NO_MARKS: RestoreMarks = {};

export const RestoreMarksContext = createContext<RestoreMarks>(NO_MARKS);
