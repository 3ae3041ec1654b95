"""An MCP host's side of Glovebox, with the official MCP Python SDK.

Usage:
  client.py URL TOKEN SITE_URL SCENARIO          Streamable HTTP at URL with a bearer TOKEN
  client.py stdio SITE_URL SCENARIO -- CMD ARGS  stdio: the SDK starts CMD as the server

Prints one JSON line of findings; the Rust test (tests/integration/mcp.rs) asserts on them.
Scenarios: `agent` (list the tools, navigate, snapshot, click by the snapshot's ref, a refused
call), `observer` (a click with an observer token), `state` (context.get_state, then the
agent's round).
"""

import asyncio
import json
import os
import re
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


def summary(result):
    """What a test needs of a tools/call result: blocks by type, the structured part."""
    kinds = [block.type for block in result.content]
    text = "".join(block.text for block in result.content if block.type == "text")
    return {
        "is_error": bool(result.is_error),
        "kinds": kinds,
        "text_chars": len(text),
        "structured": result.structured_content,
    }


async def agent(session, site):
    found = {}
    tools = await session.list_tools()
    found["tools"] = sorted(t.name for t in tools.tools)
    nav = await session.call_tool("browser", {"action": "navigate", "url": site + "/refs.html"})
    found["navigate"] = summary(nav)
    snap = await session.call_tool("browser", {"action": "snapshot"})
    outline = snap.structured_content["result"]["snapshot"]
    line = next(l for l in outline.splitlines() if 'button "Go"' in l)
    ref = re.search(r"\[(e\d+)\]", line).group(1)
    found["ref"] = ref
    click = await session.call_tool("browser", {"action": "click", "ref": ref})
    found["click"] = summary(click)
    out = await session.call_tool(
        "browser", {"action": "evaluate", "script": "document.getElementById('out').textContent"}
    )
    found["after_click"] = out.structured_content["result"]["value"]
    both = await session.call_tool("browser", {"action": "click", "ref": ref, "selector": "#go"})
    found["both"] = summary(both)
    return found


async def observer(session, site):
    click = await session.call_tool("browser", {"action": "click", "selector": "#go"})
    return {"click": summary(click)}


async def state(session, site):
    got = await session.call_tool("context", {"action": "get_state"})
    found = {"state": summary(got)}
    found.update(await agent(session, site))
    return found


SCENARIOS = {"agent": agent, "observer": observer, "state": state}


async def over(read, write, site, scenario):
    async with ClientSession(read, write) as session:
        await session.initialize()
        return await SCENARIOS[scenario](session, site)


async def main():
    if sys.argv[1] == "stdio":
        site, scenario = sys.argv[2:4]
        command = sys.argv[sys.argv.index("--") + 1 :]
        server = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
        async with stdio_client(server) as (read, write):
            found = await over(read, write, site, scenario)
    else:
        url, token, site, scenario = sys.argv[1:5]
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        async with http:
            async with streamable_http_client(url, http_client=http) as streams:
                found = await over(streams[0], streams[1], site, scenario)
    print(json.dumps(found))


asyncio.run(main())
