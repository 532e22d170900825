/**
 * What a scenario is, and what it gets to work with. Every scenario runs (or fails): there is no way to
 * write one down without a body, and none is skipped.
 */
import type { Features, Feature } from "./features";
import type { StartScriptedModel } from "./model";
import type { Session, SessionOptions, Settings } from "./session";
import type { Manifest } from "./vsix";

export interface RunInfo {
  readonly repoRoot: string;
  readonly features: Features;
  /** The installed extension's manifest, when the VSIX built and installed. */
  readonly manifest?: Manifest;
  /** `toolgate.mcpServers` value that starts @modelcontextprotocol/server-everything over stdio. */
  readonly mcpServers: Settings;
  /** Absent only when test/support/scriptedModel.ts could not be loaded (the `scriptedModel` feature then fails). */
  readonly startScriptedModel?: StartScriptedModel;
}

export interface ScenarioContext {
  readonly info: RunInfo;
  /** Starts code-server + a page on a fresh user-data dir and workspace; closed by the runner. */
  openSession(options?: Partial<SessionOptions>): Promise<Session>;
  /** Registers a cleanup that runs when the scenario ends, pass or fail (servers, models). */
  defer(fn: () => Promise<void> | void): void;
  /** A line in the run's report under this scenario (what was checked, paths of screenshots). */
  log(message: string): void;
  /**
   * A check that does not stop the scenario: when `ok` is false the failure is recorded and the scenario
   * FAILS at its end, after the later steps have been tried too (so one run reports every gap).
   */
  softCheck(ok: boolean, failure: string): void;
}

export interface Scenario {
  /** Short id used in file names and the report: "a", "b", "s1"… */
  readonly id: string;
  readonly title: string;
  readonly needs: readonly Feature[];
  /** What the scenario checks, step by step; printed when it fails before running. */
  readonly plan: readonly string[];
  readonly run: (ctx: ScenarioContext) => Promise<void>;
  readonly timeoutMs?: number;
}
