import type { CommandAnalyzer } from "./types";
import { ExactMatchAnalyzer } from "./exactMatchAnalyzer";

/** The analyzer the gate uses when none is given. */
export function defaultAnalyzer(): CommandAnalyzer {
  return new ExactMatchAnalyzer();
}
