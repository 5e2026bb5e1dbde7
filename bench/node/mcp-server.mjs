// The Node peer of codeexec's MCP figures in make bench-node (see
// bench/nodecompare/mcp.go): an MCP server of the official TypeScript SDK
// offering one tool, code_execution {code}, as a Node host would write
// it: each call strips the snippet's types with esbuild, runs it in a
// node:vm context as the body of an async function, with an async
// read(path) that answers at once and a console.log that is captured, and
// returns the output and the returned value as text.
//
//	node mcp-server.mjs stdio
//	node mcp-server.mjs http session|stateless
//
// Over stdio the one MCP session keeps one vm context for all its calls.
// Over Streamable HTTP it listens on a loopback port of the system's
// choosing, prints that port on a line of stdout, and serves /mcp: in
// session mode a transport, a server and a vm context per MCP session; in
// stateless mode, as the SDK's stateless example does, a new server and
// transport per request, and a fresh vm context per call.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { inspect } from "node:util";
import vm from "node:vm";

import esbuild from "esbuild";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const read = async (path) => "some words in a file named " + path;

// newContext is a vm context whose console.log writes to out.log.
function newContext(out) {
  const log = (...a) => out.log.push(a.map((x) => (typeof x === "string" ? x : inspect(x))).join(" "));
  return vm.createContext({ read, console: { log, error: log, warn: log, info: log } });
}

// run runs code (TypeScript) in the context of sandbox, or in a fresh one
// when there is none, and returns the call's result.
async function run(code, sandbox) {
  const out = sandbox ? sandbox.out : { log: [] };
  out.log = [];
  const context = sandbox ? sandbox.context : newContext(out);
  try {
    const { code: js } = await esbuild.transform("(async () => {\n" + code + "\n})", { loader: "ts" });
    const value = await new vm.Script(js).runInContext(context)();
    const text = out.log.join("\n") + (value === undefined ? "" : (out.log.length ? "\n" : "") + inspect(value));
    return { content: [{ type: "text", text }] };
  } catch (e) {
    return { content: [{ type: "text", text: out.log.join("\n") + "\n" + String(e && e.stack || e) }], isError: true };
  }
}

// newServer is an MCP server of code_execution; with session, its calls
// share one vm context.
function newServer(session) {
  const server = new Server({ name: "node-vm-code-execution", version: "1.0.0" }, { capabilities: { tools: {} } });
  let sandbox;
  if (session) {
    const out = { log: [] };
    sandbox = { out, context: newContext(out) };
  }
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{
      name: "code_execution",
      description: "Run a TypeScript snippet; await read(path) reads a file.",
      inputSchema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
    }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    if (req.params.name !== "code_execution") {
      return { content: [{ type: "text", text: "unknown tool " + req.params.name }], isError: true };
    }
    return run(String(req.params.arguments?.code ?? ""), sandbox);
  });
  return server;
}

async function serveHTTP(stateless) {
  const transports = new Map();
  const httpServer = http.createServer(async (req, res) => {
    try {
      if (new URL(req.url, "http://localhost").pathname !== "/mcp") {
        res.writeHead(404).end();
        return;
      }
      if (stateless) {
        if (req.method !== "POST") {
          res.writeHead(405, { Allow: "POST" }).end();
          return;
        }
        const server = newServer(false);
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on("close", () => {
          transport.close();
          server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res);
        return;
      }
      const id = req.headers["mcp-session-id"];
      let transport = id && transports.get(id);
      if (!transport) {
        if (id) {
          res.writeHead(404).end();
          return;
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => transports.set(sid, transport),
        });
        transport.onclose = () => transports.delete(transport.sessionId);
        await newServer(true).connect(transport);
      }
      await transport.handleRequest(req, res);
    } catch (e) {
      console.error(e);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  httpServer.listen(0, "127.0.0.1", () => process.stdout.write(httpServer.address().port + "\n"));
}

const [mode, sessions] = process.argv.slice(2);
if (mode === "stdio") {
  await newServer(true).connect(new StdioServerTransport());
} else if (mode === "http" && (sessions === "session" || sessions === "stateless")) {
  await serveHTTP(sessions === "stateless");
} else {
  console.error("usage: node mcp-server.mjs stdio | http session|stateless");
  process.exit(2);
}
