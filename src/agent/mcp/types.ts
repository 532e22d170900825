/** What the task loop needs from the MCP hub (the hub implements it; tests may fake it). */

export interface McpToolInfo {
  readonly server: string;
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface McpResourceInfo {
  readonly server: string;
  readonly uri: string;
  readonly name?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export interface McpServerSummary {
  readonly name: string;
  readonly status: "connecting" | "connected" | "disconnected" | "disabled" | "error";
  readonly error?: string;
  /** Enabled tools only (disabledTools are hidden from the model). */
  readonly tools: readonly McpToolInfo[];
  readonly resources: readonly McpResourceInfo[];
}

export interface McpCallResult {
  readonly text: string;
  readonly isError: boolean;
}

export interface McpClientHub {
  servers(): readonly McpServerSummary[];
  /** The real tool name a requested one refers to (hyphen/underscore repair), or undefined. */
  resolveToolName(server: string, tool: string): string | undefined;
  /** Starts a server that waits for the person's approval (Restricted Mode) once a call to it is approved. */
  ensureStarted?(server: string): Promise<void>;
  callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult>;
  readResource(server: string, uri: string, signal: AbortSignal): Promise<McpCallResult>;
}
