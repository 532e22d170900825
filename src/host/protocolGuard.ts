/**
 * Runtime check of what a webview posts. The protocol types say what a well-behaved webview sends; this
 * makes sure a malformed message (a bug, or script injected into rendered content) is dropped instead of
 * reaching settings or an approval. Returns undefined for anything that is not exactly a known message.
 */
import type { Mode } from "../core/types";
import type { AskResponse } from "../shared/messages";
import type { AutoApproveAction, McpChange, RememberRule, SettingChange, WebviewToHost } from "../shared/protocol";
import { AUTO_APPROVE_ACTIONS, MODES } from "./settingsBridge";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isBool = (v: unknown): v is boolean => typeof v === "boolean";
const isId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Task text and feedback are bounded: a person types them. */
const MAX_TEXT = 200_000;
const isText = (v: unknown): v is string => isStr(v) && v.length <= MAX_TEXT;

function askResponse(v: unknown): AskResponse | undefined {
  if (!isObj(v)) return undefined;
  if (v.kind !== "approve" && v.kind !== "reject" && v.kind !== "message" && v.kind !== "resetLimits") return undefined;
  if (v.text !== undefined && !isText(v.text)) return undefined;
  return v.text === undefined ? { kind: v.kind } : { kind: v.kind, text: v.text };
}

function remember(v: unknown): RememberRule | undefined | null {
  if (v === undefined) return undefined;
  if (!isObj(v)) return null;
  if (v.effect !== "allow" && v.effect !== "deny") return null;
  if (v.scope !== "task" && v.scope !== "workspace" && v.scope !== "user") return null;
  return { effect: v.effect, scope: v.scope };
}

function settingChange(v: unknown): SettingChange | undefined {
  if (!isObj(v)) return undefined;
  switch (v.key) {
    case "mode":
      return (MODES as readonly unknown[]).includes(v.value) ? { key: "mode", value: v.value as Mode } : undefined;
    case "autoApprove.enabled":
    case "autoApprove.all":
      return isBool(v.value) ? { key: v.key, value: v.value } : undefined;
    case "autoApprove.action":
      return isBool(v.value) && (AUTO_APPROVE_ACTIONS as readonly unknown[]).includes(v.action)
        ? { key: "autoApprove.action", action: v.action as AutoApproveAction, value: v.value }
        : undefined;
    case "autoApprove.maxRequests":
      return isNum(v.value) && v.value >= 0 && Number.isInteger(v.value) ? { key: v.key, value: v.value } : undefined;
    case "autoApprove.maxCost":
      return isNum(v.value) && v.value >= 0 ? { key: v.key, value: v.value } : undefined;
    default:
      return undefined;
  }
}

function mcpChange(v: unknown): McpChange | undefined {
  if (!isObj(v) || !isStr(v.server) || !isBool(v.value)) return undefined;
  switch (v.kind) {
    case "toolAlwaysAllow":
    case "toolEnabled":
      return isStr(v.tool) ? { kind: v.kind, server: v.server, tool: v.tool, value: v.value } : undefined;
    case "serverAlwaysAllowAll":
    case "serverEnabled":
      return { kind: v.kind, server: v.server, value: v.value };
    default:
      return undefined;
  }
}

export function parseWebviewMessage(raw: unknown): WebviewToHost | undefined {
  if (!isObj(raw)) return undefined;
  switch (raw.type) {
    case "ready":
    case "addMcpServer":
      return { type: raw.type };
    case "newTask":
    case "sendMessage":
      return isId(raw.requestId) && isText(raw.text)
        ? { type: raw.type, requestId: raw.requestId, text: raw.text }
        : undefined;
    case "cancelTask":
    case "clearTask":
      return isId(raw.requestId) ? { type: raw.type, requestId: raw.requestId } : undefined;
    case "answerAsk": {
      const response = askResponse(raw.response);
      const rem = remember(raw.remember);
      if (!isId(raw.requestId) || !isId(raw.messageId) || !response || rem === null) return undefined;
      return {
        type: "answerAsk",
        requestId: raw.requestId,
        messageId: raw.messageId,
        response,
        ...(rem ? { remember: rem } : {}),
      };
    }
    case "setSetting": {
      const change = settingChange(raw.change);
      return isId(raw.requestId) && change ? { type: "setSetting", requestId: raw.requestId, change } : undefined;
    }
    case "mcpChange": {
      const change = mcpChange(raw.change);
      return isId(raw.requestId) && change ? { type: "mcpChange", requestId: raw.requestId, change } : undefined;
    }
    case "openDiff":
      return isId(raw.messageId) ? { type: "openDiff", messageId: raw.messageId } : undefined;
    case "openSettings":
      return raw.query === undefined || (isStr(raw.query) && raw.query.length < 200)
        ? { type: "openSettings", ...(raw.query !== undefined ? { query: raw.query as string } : {}) }
        : undefined;
    default:
      return undefined;
  }
}
