/**
 * Driving a whole task from the panel against the loopback scripted model: the model's endpoint goes into
 * user settings (the OpenAI-compatible base-URL setting the manifest declares), the person types the task
 * into the panel, and the approval card is answered with its own buttons.
 */
import type { Frame, Locator } from "playwright-core";
import type { ScriptedModelLike } from "./model";
import type { ScenarioContext } from "./scenario";
import type { Settings } from "./session";

/** Starts the scripted model with `turns`; it is closed when the scenario ends. */
export async function startModel(ctx: ScenarioContext, turns: unknown[]): Promise<ScriptedModelLike> {
  const start = ctx.info.startScriptedModel;
  if (!start) throw new Error("the scripted model server is not available on this branch");
  const model = await start(turns);
  ctx.defer(() => model.close());
  return model;
}

/**
 * User settings that point the agent at `model` (OpenAI wire format): the manifest's base-URL setting, and,
 * when the manifest has them, the model-name setting beside it and a provider choice offering an
 * OpenAI-compatible value. No API key is set: the loopback model ignores it. If the extension's wiring needs
 * more to reach an OpenAI-compatible endpoint, this is the one place to add it.
 */
export function modelSettings(ctx: ScenarioContext, model: ScriptedModelLike): Settings {
  const st = ctx.info.features.agent;
  if (!st.ok || !st.note) throw new Error("no base-URL setting to point the agent at the scripted model");
  const props = (ctx.info.manifest?.contributes?.configuration?.properties ?? {}) as Record<
    string,
    { enum?: unknown[] }
  >;
  const out: Settings = { [st.note]: model.openAiBaseUrl };
  const modelKey = `${st.note.slice(0, st.note.lastIndexOf("."))}.model`;
  if (modelKey in props) out[modelKey] = "scripted-model";
  for (const [key, prop] of Object.entries(props)) {
    if (!/provider$/i.test(key) || !Array.isArray(prop.enum)) continue;
    const openAi = prop.enum.find((v) => typeof v === "string" && /openai/i.test(v));
    if (openAi !== undefined) out[key] = openAi;
  }
  return out;
}

/** A promise with its resolver, for holding a scripted stream (`pauseAfterChunk.until`). */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** Types the task into the panel's input and sends it with Enter, as a person does. */
export async function startTask(frame: Frame, text: string): Promise<void> {
  const notConnected = frame.getByText("The agent runtime is not connected yet").first();
  if (await notConnected.isVisible()) throw new Error("the panel says the agent runtime is not connected");
  const input = frame.getByRole("textbox", { name: "Task" });
  await input.waitFor({ timeout: 30_000 });
  // Disabled while the panel waits for the runtime or a model: say which, rather than a bare fill timeout.
  for (let waited = 0; !(await input.isEnabled()); waited += 250) {
    if (waited >= 30_000)
      throw new Error(`the Task input stayed disabled: "${await input.getAttribute("placeholder")}"`);
    await frame.page().waitForTimeout(250);
  }
  await input.click();
  await input.fill(text);
  await input.press("Enter");
}

/** The approval card (a region titled "Allow this edit?", "Run this command?", …). */
export function approvalCard(frame: Frame): Locator {
  return frame.locator("section.tg-approval");
}

export async function answer(card: Locator, kind: "Approve" | "Reject", feedback?: string): Promise<void> {
  if (feedback !== undefined) await card.getByRole("textbox", { name: /^Feedback for the agent/ }).fill(feedback);
  const button = card.getByRole("button", { name: kind, exact: true });
  await button.click();
}

/** The text of every tool result the model received in request `i` (OpenAI format). */
export function toolResultsIn(model: ScriptedModelLike, i: number): string[] {
  const req = model.requests[i];
  if (!req) return [];
  const messages = (req.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

/** Waits until the model has received at least `n` requests. */
export async function requestsAtLeast(model: ScriptedModelLike, n: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (model.requests.length < n) {
    if (Date.now() > deadline) throw new Error(`the model received ${model.requests.length} request(s), expected ${n}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Clicks "Accept result" and waits for the task's own state line to say Completed (not a row's "Task
 * completed": the history lists a task only once it ended); if it does not, says what was on screen.
 */
export async function acceptCompletion(frame: Frame, model: ScriptedModelLike): Promise<void> {
  const accept = frame.getByRole("button", { name: "Accept result" });
  await accept.waitFor({ timeout: 60_000 });
  await accept.click();
  const state = frame.locator(".tg-task-state");
  try {
    await state.filter({ hasText: /^Completed/ }).waitFor({ timeout: 30_000 });
  } catch (e) {
    const rows = (await frame.getByRole("feed", { name: "Task messages" }).innerText()).replace(/\s+/g, " ");
    throw new Error(
      `Accept did not end the task: state "${await state.innerText()}", ${model.requests.length} model request(s); rows: ${rows.slice(0, 400)}`,
      { cause: e },
    );
  }
}

/**
 * The reply continued the task: the model's request `i` begins with the whole conversation of request `i - 1`
 * and then carries the reply.
 */
export function assertContinued(model: ScriptedModelLike, i: number, reply: string): void {
  const before = JSON.stringify(model.requests[i - 1]!.body.messages);
  const after = JSON.stringify(model.requests[i]!.body.messages);
  if (!after.startsWith(before.slice(0, -1)))
    throw new Error("the continued request does not begin with the earlier conversation");
  if (!after.slice(before.length - 1).includes(reply))
    throw new Error("the continued request does not carry the reply");
}
