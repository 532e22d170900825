/**
 * Runs scenarios one after another and reports each as PASSED or FAILED (with the reason).
 * Invariants: a scenario is PASSED only if one run of it (of at most two, each in fresh sessions) ran to
 * the end without throwing and without a failed soft check, and a pass on the second run is reported as
 * flaky with the first run's reason; one whose needed feature is missing or broken FAILS without running. Nothing is skipped, so
 * the exit code cannot be 0 while a scenario did not run. Every session and deferred cleanup of a scenario
 * is closed before the next one starts, whatever happened.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Features } from "./features";
import type { RunInfo, Scenario, ScenarioContext } from "./scenario";
import { DEFAULT_SESSION, Session, type SessionEnv } from "./session";

export type Status = "passed" | "failed";

export interface Outcome {
  readonly id: string;
  readonly title: string;
  readonly status: Status;
  readonly reason?: string;
  readonly seconds: number;
  readonly log: readonly string[];
  /** Passed on its second run; the first run's reason. */
  readonly flaky?: string;
}

/** The scenario ran to its end but recorded failed soft checks. */
class SoftFailures extends Error {}

const indent = (text: string, pad = "          "): string =>
  text
    .split("\n")
    .map((l) => pad + l)
    .join("\n");

function verdictBeforeRunning(s: Scenario, features: Features): string | undefined {
  const missing = s.needs.map((f) => [f, features[f]] as const).filter(([, st]) => !st.ok);
  if (missing.length === 0) return undefined;
  // Name root causes only: "panel: needs the installed VSIX" adds nothing when vsix is listed too.
  const roots = missing.filter(([, st]) => st.ok || !st.after || features[st.after].ok);
  return roots.map(([f, st]) => `needs ${f}: ${st.ok ? "" : st.reason}`).join("\n");
}

export async function runScenarios(
  scenarios: readonly Scenario[],
  info: RunInfo,
  env: SessionEnv,
  runDir: string,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const s of scenarios) {
    const t0 = Date.now();
    const log: string[] = [];
    const notRunnable = verdictBeforeRunning(s, info.features);
    if (notRunnable) {
      const log = s.plan.map((p) => `did not check: ${p}`);
      outcomes.push(report({ id: s.id, title: s.title, status: "failed", reason: notRunnable, seconds: 0, log }));
      continue;
    }
    console.log(`[e2e] RUN      ${s.id}  ${s.title}`);
    let attempt = await runOnce(s, info, env, join(runDir, s.id), log);
    if (attempt.status === "failed") {
      // One more run in fresh sessions: a real browser under load misses a click now and then. A scenario
      // that fails twice fails; one that passes the second time is reported as flaky with its first reason.
      const first = attempt.reason ?? "";
      console.log(`[e2e] RETRY    ${s.id}  after: ${headline(first)}`);
      console.log(indent(`first reason: ${first}`));
      log.push(`first attempt failed: ${first}`);
      attempt = await runOnce(s, info, env, join(runDir, `${s.id}-retry`), log);
      if (attempt.status === "passed") attempt = { status: "passed", reason: undefined, flaky: first };
    }
    outcomes.push(report({ id: s.id, title: s.title, ...attempt, seconds: (Date.now() - t0) / 1000, log }));
  }
  return outcomes;
}

interface Attempt {
  readonly status: Status;
  readonly reason: string | undefined;
  readonly flaky?: string;
}

async function runOnce(
  s: Scenario,
  info: RunInfo,
  env: SessionEnv,
  scenarioDir: string,
  log: string[],
): Promise<Attempt> {
  const sessions: Session[] = [];
  const deferred: Array<() => Promise<void> | void> = [];
  const softFailures: string[] = [];
  const ctx: ScenarioContext = {
    info,
    openSession: async (options) => {
      const dir = join(scenarioDir, `session-${sessions.length + 1}`);
      mkdirSync(dir, { recursive: true });
      const session = new Session(env, dir, sessions.length === 0 ? s.id : `${s.id}-${sessions.length + 1}`, {
        ...DEFAULT_SESSION,
        ...options,
      });
      sessions.push(session);
      await session.start();
      return session;
    },
    defer: (fn) => void deferred.push(fn),
    log: (m) => {
      log.push(m);
      console.log(`[e2e]          ${s.id}: ${m}`);
    },
    softCheck: (ok, failure) => {
      if (ok) return;
      softFailures.push(failure);
      log.push(`CHECK FAILED: ${failure}`);
      console.log(`[e2e]          ${s.id}: CHECK FAILED: ${failure}`);
    },
  };
  let status: Status = "passed";
  let reason: string | undefined;
  const timeoutMs = s.timeoutMs ?? 180_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      s.run(ctx),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
    if (softFailures.length > 0) throw new SoftFailures(softFailures.join("\n"));
  } catch (e) {
    status = "failed";
    // Soft failures first (they happened earlier), then what stopped the scenario, if anything else did.
    const stopped = e instanceof SoftFailures ? [] : [e instanceof Error ? (e.stack ?? e.message) : String(e)];
    reason = [...softFailures, ...stopped].join("\n");
    for (const session of sessions) {
      try {
        log.push(`failure screenshot: ${await session.screenshot("FAILURE", { check: false })}`);
      } catch {
        // page already gone
      }
      log.push(`code-server log: ${session.codeServerLog}`);
    }
  } finally {
    clearTimeout(timer);
    for (const fn of deferred.reverse()) {
      try {
        await fn();
      } catch (e) {
        log.push(`cleanup failed: ${String(e)}`);
      }
    }
    for (const session of sessions) {
      try {
        await session.close();
      } catch (e) {
        log.push(`closing a session failed: ${String(e)}`);
      }
    }
  }
  return { status, reason };
}

/**
 * One line that says where a failure happened: the error's first line, Playwright's "waiting for …" (the
 * locator), and the first frame in a scenario or the harness. CI shows the summary even when it cuts the log.
 */
export function headline(reason: string): string {
  // Playwright colours its call log; the escapes would hide "- waiting for" from the match.
  // eslint-disable-next-line no-control-regex
  const lines = reason.split("\n").map((l) => l.replace(/\u001b\[[0-9;]*m/g, "").trim());
  const waiting = lines.find((l) => l.startsWith("- waiting for"));
  const frame = lines.find((l) => l.startsWith("at ") && /test\/e2e\/(scenarios|harness)\//.test(l));
  const where = frame?.match(/test\/e2e\/[^):]+:\d+/)?.[0];
  return [lines[0] ?? "", waiting?.slice(2), where ? `at ${where}` : undefined].filter(Boolean).join(" · ");
}

function report(o: Outcome): Outcome {
  const head = { passed: "PASSED ", failed: "FAILED " }[o.status];
  console.log(`[e2e] ${head}  ${o.id}  ${o.title}  (${o.seconds.toFixed(1)} s)`);
  if (o.reason) console.log(indent(`reason: ${o.reason}`));
  if (o.status !== "passed") for (const l of o.log) console.log(indent(l));
  return o;
}

export function printSummary(outcomes: readonly Outcome[]): { passed: number; failed: number; flaky: number } {
  const count = (st: Status) => outcomes.filter((o) => o.status === st).length;
  const c = {
    passed: count("passed"),
    failed: count("failed"),
    flaky: outcomes.filter((o) => o.flaky !== undefined).length,
  };
  console.log("\n[e2e] ──── summary ────");
  for (const o of outcomes) {
    const head = { passed: "PASSED ", failed: "FAILED " }[o.status];
    const why =
      o.status === "failed" && o.reason
        ? ` — ${headline(o.reason)}`
        : o.flaky !== undefined
          ? ` (flaky: passed on a retry after ${headline(o.flaky)})`
          : "";
    console.log(`[e2e] ${head}  ${o.id.padEnd(4)} ${o.title}${why}`);
  }
  return c;
}
