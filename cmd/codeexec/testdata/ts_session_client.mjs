// The official TypeScript SDK's client in one MCP session over streamable
// HTTP, driven by restart_unix_test.go: each line of stdin is a JSON string,
// a snippet to run with code_execution; each line of stdout is a JSON
// object, its result ({isError, value, text}, or {error} if the call
// failed) and the session's Mcp-Session-Id. At the end of stdin it closes
// the client and exits.
// Environment: MODULES (a node_modules directory with
// @modelcontextprotocol/sdk) and URL (the server's MCP endpoint).
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const sdk = (p) => import(pathToFileURL(path.join(process.env.MODULES, "@modelcontextprotocol/sdk/dist/esm", p)).href);
const { Client } = await sdk("client/index.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");

const transport = new StreamableHTTPClientTransport(new URL(process.env.URL));
const client = new Client({ name: "session-client", version: "1.0.0" });
// A server that goes away breaks the client's standalone SSE stream; the
// calls go on over POST. Such errors are reported, not fatal.
client.onerror = (e) => console.error(`client error: ${e?.message ?? e}`);
await client.connect(transport);

for await (const line of readline.createInterface({ input: process.stdin })) {
  let report;
  try {
    const res = await client.callTool({ name: "code_execution", arguments: { code: JSON.parse(line) } });
    report = {
      isError: !!res.isError,
      value: res.structuredContent?.value,
      text: res.content?.map((c) => c.text).join("\n"),
    };
  } catch (e) {
    report = { error: String(e?.message ?? e) };
  }
  console.log(JSON.stringify({ ...report, sessionId: transport.sessionId }));
}
await client.close();
