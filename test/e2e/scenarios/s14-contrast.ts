/**
 * Scenario 14: every status pill the transcript shows reaches WCAG AA contrast (4.5:1) in light, dark and
 * both high-contrast themes, checked by axe-core's color-contrast rule inside the webview frame, with each
 * pill state on screen in turn: done, auto-approved, failed, refused by the gate, waiting for approval,
 * waiting for you, rejected by you, not run; then, in a second window, the passing states: receiving (a call still
 * streaming), running (with its live output), interrupted while running (cancelled), interrupted (a cut stream).
 */
import { answer, approvalCard, gate, modelSettings, startModel, startTask } from "../harness/agent";
import { checkEachInView, describeViolations } from "../harness/axe";
import { eventually, openPanel } from "../harness/panel";
import type { Scenario, ScenarioContext } from "../harness/scenario";
import type { Session } from "../harness/session";
import type { Frame } from "playwright-core";
import type { Theme } from "../harness/workbench";

const THEMES_CHECKED: readonly Theme[] = ["light", "dark", "hcDark", "hcLight"];

async function pillsIn(frame: Frame): Promise<string[]> {
  return (await frame.locator(".tg-tag").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
}

/** Runs the contrast rule on every pill in each theme; a violation fails the scenario (after the other checks). */
async function checkEveryTheme(ctx: ScenarioContext, session: Session, frame: Frame, step: string): Promise<void> {
  for (const theme of THEMES_CHECKED) {
    await session.setTheme(theme);
    const pills = await frame.locator(".tg-tag").count();
    const r = await checkEachInView(frame, ctx.info.repoRoot, ".tg-tag");
    ctx.log(
      `${step}, ${theme}: ${pills} pills, ${r.checked} text node(s) measured, ${r.violations.length} violation(s)` +
        (r.unmeasured.length ? `; not measurable: ${r.unmeasured.join("; ")}` : ""),
    );
    ctx.softCheck(
      r.violations.length === 0,
      `${step}, ${theme} theme: status pills below 4.5:1: ${describeViolations(r.violations)}`,
    );
    ctx.softCheck(r.checked >= pills, `${step}, ${theme} theme: only ${r.checked} of ${pills} pills could be measured`);
  }
  await session.setTheme("dark");
}

export const contrast: Scenario = {
  id: "s14",
  title: "every status pill has at least 4.5:1 contrast in light, dark and high-contrast themes (axe-core)",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "a deny rule for secret.txt; the model reads a.txt (done, auto-approved), missing.txt (failed) and secret.txt (refused)",
    "then it runs `rm -rf build`, which asks (waiting for approval), and reads a.txt in the same turn",
    "axe-core's color-contrast rule runs on the pills in four themes; light and dark screenshots",
    "Reject with feedback (rejected by you, the read not run), the completion asks (waiting for you): the rule runs again",
    "a second window: a read held in its stream (receiving): the rule runs",
    "`echo tick; sleep 300` allowed (running, live output): the rule runs; Cancel (interrupted while running): again",
    "New task; the model's write_to_file stream is cut (interrupted: never ran): the rule runs",
  ],
  timeoutMs: 480_000,
  run: async (ctx) => {
    const model = await startModel(ctx, [
      {
        steps: [
          { tool: "read_file", args: { path: "a.txt" } },
          { tool: "read_file", args: { path: "missing.txt" } },
          { tool: "read_file", args: { path: "secret.txt" } },
        ],
      },
      {
        steps: [
          { tool: "execute_command", args: { command: "rm -rf build", requires_approval: false } },
          // Rejecting the first call of a turn leaves this one "Not run".
          { tool: "read_file", args: { path: "a.txt" } },
        ],
      },
      { steps: [{ tool: "attempt_completion", args: { result: "Left build/ alone." } }] },
    ]);
    const session = await ctx.openSession({
      settings: { ...modelSettings(ctx, model), "toolgate.permissions.deny": ["Read(secret.txt)"] },
      files: { "a.txt": "hello\n", "secret.txt": "s3cret\n", "build/keep.txt": "keep\n" },
    });
    const frame = await openPanel(session);
    await startTask(frame, "Look around, then clean up.");
    const card = approvalCard(frame);
    await card.waitFor({ timeout: 60_000 });
    const first = await eventually("the pills of the first turns", async () => {
      const p = await pillsIn(frame);
      const want = ["Done", "auto-approved", "Failed", "Refused by the gate", "Waiting for approval"];
      return want.every((w) => p.includes(w)) ? p : undefined;
    });
    ctx.log(`pills on screen: ${first.join(" | ")}`);
    await checkEveryTheme(ctx, session, frame, "with an ask pending");
    for (const shot of await session.screenshotBothThemes("pills-pending")) ctx.log(`screenshot: ${shot}`);

    await answer(card, "Reject", "keep build");
    await frame.getByRole("button", { name: "Accept result" }).waitFor({ timeout: 60_000 });
    const second = await eventually("the pills after the rejection", async () => {
      const p = await pillsIn(frame);
      return p.includes("Rejected by you") && p.includes("Not run") ? p : undefined;
    });
    ctx.log(`pills on screen: ${second.join(" | ")}`);
    await checkEveryTheme(ctx, session, frame, "after Reject, completion pending");
    for (const shot of await session.screenshotBothThemes("pills-final")) ctx.log(`screenshot: ${shot}`);
    await session.close();
    await passingStates(ctx);
  },
};

/** Waits until the pills on screen include every one of `want` (and returns them all). */
async function pillsInclude(frame: Frame, want: readonly (string | RegExp)[], timeoutMs = 60_000): Promise<string[]> {
  return eventually(
    `the pills ${want.join(", ")}`,
    async () => {
      const p = await pillsIn(frame);
      return want.every((w) => p.some((t) => (typeof w === "string" ? t === w : w.test(t)))) ? p : undefined;
    },
    timeoutMs,
    frame.page(),
  );
}

/**
 * The states a call passes through, each held on screen while the rule runs: a read whose arguments are still
 * streaming (Receiving…), an allowed command that prints and then sleeps (Running, live output), the same command
 * cancelled (Interrupted while running), and a write whose stream is cut (Interrupted: never ran).
 */
async function passingStates(ctx: ScenarioContext): Promise<void> {
  const hold = gate();
  ctx.defer(() => hold.open());
  const model = await startModel(ctx, [
    {
      steps: [
        {
          tool: "read_file",
          args: { path: "a.txt" },
          chunks: 4,
          pauseAfterChunk: { chunk: 1, until: hold.promise },
        },
      ],
    },
    { steps: [{ tool: "execute_command", args: { command: "echo tick; sleep 300", requires_approval: false } }] },
    {
      steps: [
        { tool: "write_to_file", args: { path: "cut.txt", content: "y".repeat(3000) }, chunks: 30, cutAfterChunk: 12 },
      ],
    },
    { steps: [{ tool: "attempt_completion", args: { result: "Stopped." } }] },
    { steps: [{ tool: "attempt_completion", args: { result: "Stopped." } }] },
  ]);
  const session = await ctx.openSession({
    settings: { ...modelSettings(ctx, model), "toolgate.commands.allow": ["echo", "sleep"] },
    files: { "a.txt": "hello\n" },
  });
  const frame = await openPanel(session);
  await startTask(frame, "Read, then wait.");

  ctx.log(`pills on screen: ${(await pillsInclude(frame, ["Receiving…"])).join(" | ")}`);
  await checkEveryTheme(ctx, session, frame, "a call still streaming");
  for (const shot of await session.screenshotBothThemes("pills-receiving")) ctx.log(`screenshot: ${shot}`);
  hold.open();

  // Commands run in the OS sandbox when it works here; where it does not, the command asks: approve it.
  const running = await eventually(
    "the command to run (or ask)",
    async () => {
      const p = await pillsIn(frame);
      if (p.includes("Running")) return p;
      const card = approvalCard(frame).filter({ hasText: "sleep 300" });
      if (await card.isVisible()) await answer(card, "Approve");
      return undefined;
    },
    60_000,
    session.page,
  );
  await session.page.waitForTimeout(1500); // let its first output line arrive
  ctx.log(`pills on screen: ${(await pillsIn(frame)).join(" | ") || running.join(" | ")}`);
  await checkEveryTheme(ctx, session, frame, "a command running");
  for (const shot of await session.screenshotBothThemes("pills-running")) ctx.log(`screenshot: ${shot}`);

  await frame.getByRole("button", { name: "Cancel", exact: true }).click();
  ctx.log(`pills on screen: ${(await pillsInclude(frame, ["Interrupted while running"])).join(" | ")}`);
  await checkEveryTheme(ctx, session, frame, "a command cancelled while it ran");

  // A reply to the cancelled task ends at once ("The task was cancelled."): the cut write is a new task.
  await frame.getByRole("button", { name: "New task", exact: true }).click();
  await startTask(frame, "Write cut.txt.");
  const cut = await pillsInclude(frame, ["Interrupted: never ran"]);
  await session.page.waitForTimeout(2000); // whatever follows the cut (a retry, the next turn) settles
  ctx.log(`pills on screen: ${(await pillsIn(frame)).join(" | ") || cut.join(" | ")}`);
  await checkEveryTheme(ctx, session, frame, "a call cut in its stream");
  for (const shot of await session.screenshotBothThemes("pills-interrupted")) ctx.log(`screenshot: ${shot}`);
}
