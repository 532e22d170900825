/**
 * Runtime check of what a webview posts, against the schemas the protocol's types are derived from
 * (src/shared/protocolSchema.ts). A malformed message (a bug, or script injected into rendered content) is
 * dropped instead of reaching settings or an approval. Resolves to undefined for anything that is not a known
 * message; a known message comes back with only its own fields.
 *
 * The schemas (and the schema library) load with the first message, not at activation: messages only come
 * once a webview is open. Messages keep their order: every call awaits the same module promise.
 */
import type { WebviewToHost } from "../shared/protocol";
import type * as ProtocolSchema from "../shared/protocolSchema";

let schema: Promise<typeof ProtocolSchema> | undefined;

export async function parseWebviewMessage(raw: unknown): Promise<WebviewToHost | undefined> {
  schema ??= import("../shared/protocolSchema");
  const parsed = (await schema).WebviewToHostSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
