// The official TypeScript SDK's client against codeexec's MCP server, over
// stdio and over streamable HTTP. Run by interop_test.go, which reads the
// JSON report it prints. Environment: MODULES (a node_modules directory with
// @modelcontextprotocol/sdk), STDIO_COMMAND (a JSON array: the command and
// its arguments), STDIO_ENV (a JSON object), HTTP_URL and TOKEN.
import path from "node:path";
import { pathToFileURL } from "node:url";

const sdk = (p) => import(pathToFileURL(path.join(process.env.MODULES, "@modelcontextprotocol/sdk/dist/esm", p)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const { ElicitRequestSchema } = await sdk("types.js");

const code = (client, src, opts) =>
  client.callTool({ name: "code_execution", arguments: { code: src } }, undefined, opts);

// The client answers elicitation (asked during a call, as this SDK's
// protocol version has it): it allows what it is asked about "guarded"
// and records each question.
const questions = [];
async function connect(makeTransport) {
  const client = new Client({ name: "interop", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    questions.push(req.params.message);
    return { action: "accept", content: { allow: req.params.message.includes("guarded") } };
  });
  await client.connect(makeTransport());
  return client;
}

async function exercise(makeTransport) {
  const client = await connect(makeTransport);
  const out = {};
  const { tools } = await client.listTools();
  out.tools = tools.map((t) => t.name);
  out.describesTwice = tools[0].description.includes("async function twice(n: number): Promise<number>");
  out.hasOutputSchema = tools[0].outputSchema?.type === "object";

  const ok = await code(client, "console.log('hi'); return await twice(21)");
  out.ok = { isError: !!ok.isError, text: ok.content[0].text, value: ok.structuredContent.value };

  const bad = await code(client, "const x = 1;\nthrow new Error('boom')");
  out.bad = { isError: !!bad.isError, text: bad.content[0].text, ok: bad.structuredContent.ok, line: bad.structuredContent.error.line };

  // The calls of one session share its global scope and run in turn;
  // three clients (three sessions) run their calls concurrently.
  await code(client, "const kept = 41");
  out.session = {
    carried: (await code(client, "return kept + 1")).structuredContent.value,
    afterReset: (await client.callTool({ name: "code_execution", arguments: { code: "return typeof kept", reset: true } })).structuredContent.value,
  };
  const others = await Promise.all([1, 2, 3].map(() => connect(makeTransport)));
  const t0 = Date.now();
  const many = await Promise.all(others.map((c, i) => code(c, `await wait(400); return ${i + 1}`)));
  out.concurrent = { values: many.map((r) => r.structuredContent.value), ms: Date.now() - t0 };
  await Promise.all(others.map((c) => c.close()));

  const ac = new AbortController();
  setTimeout(() => ac.abort(), 200);
  const t1 = Date.now();
  try {
    await code(client, "return await wait(20000)", { signal: ac.signal });
    out.cancel = { error: null };
  } catch (e) {
    out.cancel = { error: String(e?.message ?? e), ms: Date.now() - t1 };
  }
  out.after = (await code(client, "return 1")).structuredContent.value;

  const asked = questions.length;
  out.approved = (await code(client, "return await guarded()")).structuredContent.value;
  out.questions = questions.slice(asked);

  const progress = [];
  await code(client, "console.log('p'); await twice(1); await wait(50)", { onprogress: (p) => progress.push(p.message) });
  out.progress = progress;
  await client.close();
  return out;
}

const report = {};
const [command, ...args] = JSON.parse(process.env.STDIO_COMMAND);
report.stdio = await exercise(() => new StdioClientTransport({ command, args, env: JSON.parse(process.env.STDIO_ENV), stderr: "inherit" }));
report.http = await exercise(() => new StreamableHTTPClientTransport(new URL(process.env.HTTP_URL), {
  requestInit: { headers: { Authorization: `Bearer ${process.env.TOKEN}` } },
}));
console.log(JSON.stringify(report));
