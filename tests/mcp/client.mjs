// An MCP host's side of Glovebox, with the official TypeScript SDK's `Client` (npm
// `@modelcontextprotocol/sdk`, pinned in package.json), run on the Node.js installed beside it.
//
// Usage:
//   node client.mjs URL TOKEN SITE_URL          Streamable HTTP at URL with a bearer TOKEN
//   node client.mjs stdio SITE_URL -- CMD ARGS  stdio: the SDK starts CMD as the server
//
// Runs the same short flow as client.py's `flow` scenario (list the tools, a browser navigate
// and snapshot, a desktop screenshot, read the navigation's capture, a call an elicitation
// rule catches that the user allows) and prints one JSON line of findings for the Rust test
// (tests/integration/mcp_clients.rs) to assert on.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** What a test needs of a tools/call result: blocks by type, the structured part. */
function summary(result) {
  const text = result.content.filter((b) => b.type === "text").map((b) => b.text).join("");
  return {
    is_error: Boolean(result.isError),
    kinds: result.content.map((b) => b.type),
    text_chars: text.length,
    structured: result.structuredContent ?? null,
  };
}

function transport(argv) {
  if (argv[0] === "stdio") {
    const command = argv.slice(argv.indexOf("--") + 1);
    const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined));
    const t = new StdioClientTransport({ command: command[0], args: command.slice(1), env, stderr: "inherit" });
    return { t, site: argv[1] };
  }
  const [url, token, site] = argv;
  const headers = { Authorization: `Bearer ${token}` };
  return { t: new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }), site };
}

async function main() {
  const { t, site } = transport(process.argv.slice(2));
  const client = new Client(
    { name: "glovebox-tests", version: "1" },
    { capabilities: { elicitation: { form: {} } } },
  );
  const asked = [];
  // The host's user, who allows what they are asked.
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { approve: true } };
  });
  // The revision `initialize` agreed on, as the SDK hands it to the transport.
  let version = null;
  const setVersion = t.setProtocolVersion?.bind(t);
  t.setProtocolVersion = (v) => {
    version = v;
    setVersion?.(v);
  };
  await client.connect(t);
  const found = { version };
  const tools = await client.listTools();
  found.tools = tools.tools.map((tool) => tool.name).sort();
  const nav = await client.callTool({ name: "browser", arguments: { action: "navigate", url: `${site}/refs.html`, capture: true } });
  found.navigate = summary(nav);
  const snap = await client.callTool({ name: "browser", arguments: { action: "snapshot" } });
  found.snapshot = summary(snap);
  found.snapshot_has_go = snap.structuredContent.result.snapshot.includes('button "Go"');
  const shot = await client.callTool({ name: "computer", arguments: { action: "screenshot" } });
  found.screenshot = summary(shot);
  found.links = nav.content.filter((b) => b.type === "resource_link").map((b) => b.uri);
  if (found.links.length > 0) {
    const read = await client.readResource({ uri: found.links[0] });
    const blob = Buffer.from(read.contents[0].blob, "base64");
    const png = blob.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    found.read = { mime: read.contents[0].mimeType, png };
  }
  const waited = await client.callTool({ name: "computer", arguments: { action: "wait", duration_ms: 70 } });
  found.elicited = summary(waited);
  found.asked = asked;
  await client.close();
  console.log(JSON.stringify(found));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
