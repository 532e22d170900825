/** Turns MCP tool results and resource contents into text the model can read. */
import type { McpToolInfo, McpServerSummary } from "./types";

interface ContentItem {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
}

export function contentToText(content: readonly unknown[] | undefined, structured?: unknown): string {
  const parts: string[] = [];
  for (const raw of content ?? []) {
    const c = raw as ContentItem;
    switch (c.type) {
      case "text":
        parts.push(c.text ?? "");
        break;
      case "image":
      case "audio":
        parts.push(
          `[${c.type}: ${c.mimeType ?? "unknown type"}, ${Math.floor(((c.data ?? "").length * 3) / 4)} bytes — not shown]`,
        );
        break;
      case "resource":
        if (c.resource?.text !== undefined) parts.push(`[resource ${c.resource.uri ?? ""}]\n${c.resource.text}`);
        else parts.push(`[resource ${c.resource?.uri ?? ""}: ${c.resource?.mimeType ?? "binary"} — not shown]`);
        break;
      case "resource_link":
        parts.push(`[resource link: ${c.uri ?? ""}${c.name ? ` (${c.name})` : ""}]`);
        break;
      default:
        parts.push(`[${c.type} content — not shown]`);
    }
  }
  if (parts.length === 0 && structured !== undefined) parts.push(JSON.stringify(structured, null, 2));
  return parts.join("\n");
}

export function resourceContentsToText(
  contents: readonly { uri: string; text?: string; blob?: string; mimeType?: string }[],
): string {
  return contents
    .map((c) =>
      c.text !== undefined
        ? c.text
        : `[${c.uri}: ${c.mimeType ?? "binary"}, ${Math.floor(((c.blob ?? "").length * 3) / 4)} bytes — not shown]`,
    )
    .join("\n\n");
}

export const TOOL_WARNING_THRESHOLD = 60;

/** Many tools degrade the model's choices and cost context on every turn. */
export function toolCountWarning(servers: readonly McpServerSummary[]): string | undefined {
  const n = servers.reduce((sum, s) => sum + (s.status === "connected" ? s.tools.length : 0), 0);
  if (n <= TOOL_WARNING_THRESHOLD) return undefined;
  return `${n} MCP tools are enabled (more than ${TOOL_WARNING_THRESHOLD}); the model chooses worse among many tools and every turn costs more. Disable tools you do not need with \`disabledTools\` or \`disabled\`.`;
}

export function annotate(
  server: string,
  t: {
    name: string;
    description?: string;
    inputSchema?: unknown;
    annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean };
  },
): McpToolInfo {
  return {
    server,
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    ...(t.inputSchema !== undefined ? { inputSchema: t.inputSchema } : {}),
    ...(t.annotations?.readOnlyHint !== undefined ? { readOnlyHint: t.annotations.readOnlyHint } : {}),
    ...(t.annotations?.destructiveHint !== undefined ? { destructiveHint: t.annotations.destructiveHint } : {}),
    ...(t.annotations?.openWorldHint !== undefined ? { openWorldHint: t.annotations.openWorldHint } : {}),
  };
}
