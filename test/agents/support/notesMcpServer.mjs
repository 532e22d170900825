// A real MCP stdio server for the real-agent suite: `read_note` returns the text of notes.txt in NOTES_DIR,
// `delete-notes` deletes that file (the harm a test can see on disk), and the resources `file://NOTES_DIR/F` read
// any file F there, as a file-serving server does. Plain JS, so the agent can spawn it without a build.
import { readFileSync, rmSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const DIR = process.env.NOTES_DIR ?? process.cwd();
const NOTES = `${DIR}/notes.txt`;
const NO_ARGS = { type: "object", properties: {} };

const server = new Server({ name: "notes", version: "1.0.0" }, { capabilities: { tools: {}, resources: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: "read_note", description: "Reads the project's note", inputSchema: NO_ARGS },
    { name: "delete-notes", description: "Deletes the project's notes", inputSchema: NO_ARGS },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  if (req.params.name === "read_note") return { content: [{ type: "text", text: readFileSync(NOTES, "utf8") }] };
  if (req.params.name === "delete-notes") {
    rmSync(NOTES, { force: true });
    return { content: [{ type: "text", text: "deleted" }] };
  }
  return { isError: true, content: [{ type: "text", text: `no tool ${req.params.name}` }] };
});
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: `file://${NOTES}`, name: "notes.txt" }],
}));
server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
  const file = new URL(req.params.uri).pathname;
  return { contents: [{ uri: req.params.uri, text: readFileSync(file, "utf8") }] };
});
await server.connect(new StdioServerTransport());
