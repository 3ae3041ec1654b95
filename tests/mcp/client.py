"""An MCP host's side of Glovebox, with the official MCP Python SDK.

Usage:
  client.py [--client] URL TOKEN SITE_URL SCENARIO          Streamable HTTP at URL, bearer TOKEN
  client.py [--client] stdio SITE_URL SCENARIO -- CMD ARGS  stdio: the SDK starts CMD as the server

Without `--client` the scenario runs on a `ClientSession` that does the `initialize` handshake
(2025-11-25); with it, on the SDK's high-level `mcp.Client` on its default path (it probes
`server/discover` and speaks 2026-07-28 where the server does).

Prints one JSON line of findings; the Rust test (tests/integration/mcp.rs) asserts on them.
Scenarios: `flow` (the short flow every client's test runs: list the tools, a browser
navigate and snapshot, a desktop screenshot, read the navigation's capture, a call an
elicitation rule catches that the user allows), `agent` (list the tools, navigate, snapshot,
click by the snapshot's ref, a refused call), `observer` (a click with an observer token),
`state` (context.get_state, then the agent's round), `cancel` (hold Shift, abandon a long wait,
its progress), `approval` (a call an `ask` rule catches: prints the approval id, waits for a
line on stdin, re-sends), `read` (SITE_URL is a resource URI to read), `elicit` (a call the
host's user allows through the elicitation callback), `human` (request_human, then, once the test
took over on the view page, get_state and a navigate that waits for the hand-back with
progress; lines on stdout and stdin pace it), `files` (context.put_file, then browser.upload of
it; a download with `capture: false`, read back as text).
"""

import asyncio
import base64
import json
import os
import re
import time
import sys

import anyio

from mcp import Client, ClientSession, StdioServerParameters, types
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
    # A capture asked for: by default (`auto`) a page its outline shows comes without one.
    nav = await session.call_tool("browser", {"action": "navigate", "url": site + "/refs.html", "capture": True})
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
    # The click's capture is a resource of this session, linked from the result.
    links = [b.uri for b in click.content if b.type == "resource_link"]
    found["links"] = [str(u) for u in links]
    listed = await session.list_resources()
    found["resources"] = [str(r.uri) for r in listed.resources]
    if links:
        read = await session.read_resource(links[0])
        blob = base64.b64decode(read.contents[0].blob)
        found["read"] = {"mime": read.contents[0].mime_type, "png": blob[:8] == b"\x89PNG\r\n\x1a\n"}
    return found


async def flow(mcp, site):
    """The same short flow as tests/mcp/client.mjs, on a `ClientSession` or an `mcp.Client`
    (both have these methods)."""
    found = {"version": mcp.protocol_version}
    tools = await mcp.list_tools()
    found["tools"] = sorted(t.name for t in tools.tools)
    # The flow reads this navigation's capture: asked for (by default, `auto`, a page its
    # outline shows comes without one).
    nav = await mcp.call_tool("browser", {"action": "navigate", "url": site + "/refs.html", "capture": True})
    found["navigate"] = summary(nav)
    snap = await mcp.call_tool("browser", {"action": "snapshot"})
    found["snapshot"] = summary(snap)
    found["snapshot_has_go"] = 'button "Go"' in snap.structured_content["result"]["snapshot"]
    shot = await mcp.call_tool("computer", {"action": "screenshot"})
    found["screenshot"] = summary(shot)
    links = [str(b.uri) for b in nav.content if b.type == "resource_link"]
    found["links"] = links
    if links:
        read = await mcp.read_resource(links[0])
        blob = base64.b64decode(read.contents[0].blob)
        found["read"] = {"mime": read.contents[0].mime_type, "png": blob[:8] == b"\x89PNG\r\n\x1a\n"}
    # An `ask` rule with "approve": "elicitation" catches this wait: the user (on_elicit) allows it.
    waited = await mcp.call_tool("computer", {"action": "wait", "duration_ms": 70})
    found["elicited"] = summary(waited)
    found["asked"] = ASKED
    return found


async def observer(session, site):
    click = await session.call_tool("browser", {"action": "click", "selector": "#go"})
    return {"click": summary(click)}


async def state(session, site):
    got = await session.call_tool("context", {"action": "get_state"})
    found = {"state": summary(got)}
    found.update(await agent(session, site))
    return found


async def cancel(session, site):
    """Hold Shift, start a long wait, report its progress, abandon it after 2.5 s."""
    found = {}
    down = await session.call_tool("computer", {"action": "keydown", "key": "Shift"})
    found["keydown"] = summary(down)
    progress = []

    async def on_progress(done, total, message):
        progress.append({"progress": done, "message": message})

    with anyio.move_on_after(2.5) as scope:
        await session.call_tool(
            "computer",
            {"action": "wait", "duration_ms": 20000, "op_id": "mcp-long-wait"},
            progress_callback=on_progress,
        )
    found["abandoned"] = scope.cancelled_caught
    found["progress"] = progress
    # The same op id again: the daemon answers with the op's (cancelled) outcome, never a
    # second run.
    again = await session.call_tool(
        "computer", {"action": "wait", "duration_ms": 20000, "op_id": "mcp-long-wait"}
    )
    found["again"] = summary(again)
    return found


async def approval(session, site):
    """A call an `ask` rule catches, then the same call after the test's approver granted."""
    args = {"action": "wait", "duration_ms": 70, "op_id": "mcp-asked"}
    asked = await session.call_tool("computer", args)
    found = {"asked": summary(asked)}
    approval_id = asked.structured_content["error"]["details"]["approval_id"]
    print(json.dumps({"approval_id": approval_id}), flush=True)
    sys.stdin.readline()  # the test grants it, then says so
    found["ran"] = summary(await session.call_tool("computer", args))
    found["replay"] = summary(await session.call_tool("computer", args))
    return found


async def elicit(session, site):
    """A call an `ask` rule with `"approve": "elicitation"` catches: the SDK's input-required
    driver hands the question to this client's elicitation callback, which allows it."""
    from mcp.client._input_required import run_input_required_driver
    from mcp.client.session import ClientRequestContext

    args = {"action": "wait", "duration_ms": 70}

    async def retry(responses, state):
        return await session.call_tool(
            "computer", args, input_responses=responses, request_state=state, allow_input_required=True
        )

    async def dispatch(key, request):
        ctx = ClientRequestContext(session=session, request_id=key)
        return await session.dispatch_input_request(ctx, request)

    first = await retry(None, None)
    found = {"first": type(first).__name__}
    result = await run_input_required_driver(first, dispatch=dispatch, retry=retry)
    found["result"] = summary(result)
    found["asked"] = ASKED
    return found


ASKED = []


async def on_elicit(context, params):
    ASKED.append(params.message)
    return types.ElicitResult(action="accept", content={"approve": True})


async def read(session, uri):
    """Read a resource another session made: it must not be there."""
    try:
        await session.read_resource(uri)
        return {"read": "ok"}
    except Exception as e:  # the SDK raises the protocol error
        return {"read": "error", "message": str(e)}


async def handles(session, site):
    """Two sessions of one stateless client, by the handles results give; `site` is the
    page to open, or `use:<handle>` to try another client's handle."""
    if site.startswith("use:"):
        got = await session.call_tool("context", {"action": "get_state", "session": site[4:]})
        return {"other": summary(got)}
    found = {}
    first = await session.call_tool("context", {"action": "get_state", "session": "new"})
    second = await session.call_tool("context", {"action": "get_state", "session": "new"})
    a, b = first.structured_content["session"], second.structured_content["session"]
    found.update({"a": a, "b": b, "text_names_it": a in first.content[0].text})
    await session.call_tool("browser", {"action": "navigate", "url": site + "/refs.html", "session": a, "capture": True})
    snap = await session.call_tool("browser", {"action": "snapshot", "session": a})
    outline = snap.structured_content["result"]["snapshot"]
    line = next(l for l in outline.splitlines() if 'button "Go"' in l)
    ref = re.search(r"\[(e\d+)\]", line).group(1)
    found["in_a"] = summary(await session.call_tool("browser", {"action": "click", "ref": ref, "session": a}))
    found["in_b"] = summary(await session.call_tool("browser", {"action": "click", "ref": ref, "session": b}))
    return found


async def download(session, site):
    """A click that downloads a file: linked from the result, listed, read back."""
    await session.call_tool("browser", {"action": "navigate", "url": site + "/refs.html", "capture": True})
    script = ("document.body.insertAdjacentHTML('beforeend', "
              f"`<a id=file href='{site}/report.csv'>report</a>`); 1")
    await session.call_tool("browser", {"action": "evaluate", "script": script})
    click = await session.call_tool("browser", {"action": "click", "selector": "#file"})
    found = {"click": summary(click)}
    links = [str(b.uri) for b in click.content if b.type == "resource_link"]
    found["links"] = links
    wanted = next((l for l in links if l.startswith("glovebox://download/")), None)
    deadline = time.monotonic() + 20
    while wanted and time.monotonic() < deadline:
        listed = [str(r.uri) for r in (await session.list_resources()).resources]
        if wanted in listed:
            read = await session.read_resource(wanted)
            text = getattr(read.contents[0], "text", None)  # a CSV reads as text
            if text and "beta,2" in text:
                found["listed"] = True
                found["read"] = {"mime": read.contents[0].mime_type, "text": text}
                break
        await anyio.sleep(0.1)
    # A file still coming (8 MiB, sent 64 KiB per 10 ms): read at once, it says so.
    script = ("document.body.insertAdjacentHTML('beforeend', "
              f"`<a id=big href='{site}/big?bytes={8 << 20}'>big</a>`); 1")
    await session.call_tool("browser", {"action": "evaluate", "script": script})
    click = await session.call_tool("browser", {"action": "click", "selector": "#big"})
    big = [str(b.uri) for b in click.content
           if b.type == "resource_link" and str(b.uri).startswith("glovebox://download/")]
    found["big_links"] = big
    if big:
        try:
            await session.read_resource(big[0])
            found["partial"] = "read whole"
        except Exception as e:  # the SDK raises the protocol error
            found["partial"] = str(e)
    return found


async def human(session, site):
    """A person in the loop from MCP alone; the test drives the view page between the lines."""
    found = {}
    done = {}
    progress = []
    heard = anyio.Event()

    async def on_progress(value, total, message):
        progress.append(message)
        if message and "hand the desktop back" in message:
            heard.set()

    async def ask():
        args = {"action": "request_human", "reason": "log in for me", "timeout_ms": 90000}
        done["request"] = await session.call_tool("context", args)

    async def act():
        args = {"action": "navigate", "url": site + "/refs.html", "timeout_ms": 90000}
        done["act"] = await session.call_tool("browser", args, progress_callback=on_progress)

    async with anyio.create_task_group() as tg:
        tg.start_soon(ask)
        print(json.dumps({"requested": True}), flush=True)
        await anyio.to_thread.run_sync(sys.stdin.readline)  # the test took over
        found["state"] = summary(await session.call_tool("context", {"action": "get_state"}))
        # Without a progress token a mutating call answers PAUSED at once, naming what to do.
        paused = await session.call_tool("browser", {"action": "navigate", "url": site + "/refs.html"})
        found["no_token"] = summary(paused)
        found["no_token_text"] = paused.content[0].text
        tg.start_soon(act)
        with anyio.fail_after(30):
            await heard.wait()
        print(json.dumps({"waiting": True}), flush=True)
        await anyio.to_thread.run_sync(sys.stdin.readline)  # the test handed back
    found["request"] = summary(done["request"])
    found["act"] = summary(done["act"])
    found["act_text"] = done["act"].content[0].text
    found["progress"] = progress
    found["after"] = summary(await session.call_tool("context", {"action": "get_state"}))
    return found


async def files(session, site):
    """A file of the host's own, stored with put_file and uploaded; a quiet download."""
    found = {}
    body = b"name,value\nfrom,the host\n"
    data = base64.b64encode(body).decode()
    put = await session.call_tool("context", {"action": "put_file", "name": "host.csv", "data": data})
    found["put"] = summary(put)
    found["put_text"] = put.content[0].text
    await session.call_tool("browser", {"action": "navigate", "url": site + "/form.html"})
    up = await session.call_tool("browser", {"action": "upload", "selector": "#file", "files": ["host.csv"]})
    found["upload"] = summary(up)
    script = "const f = document.getElementById('file').files[0]; return [f.name, f.size]"
    got = await session.call_tool("browser", {"action": "evaluate", "script": script})
    found["in_page"] = got.structured_content["result"]["value"]
    found["bytes"] = len(body)
    bad = await session.call_tool("context", {"action": "put_file", "name": "../x", "data": data})
    found["bad_name"] = summary(bad)
    # A download with capture: false is still named, and reads back as text.
    await session.call_tool("browser", {"action": "navigate", "url": site + "/refs.html"})
    script = ("document.body.insertAdjacentHTML('beforeend', "
              f"`<a id=file href='{site}/report.csv'>report</a>`); 1")
    await session.call_tool("browser", {"action": "evaluate", "script": script})
    click = await session.call_tool("browser", {"action": "click", "selector": "#file", "capture": False})
    found["quiet_click"] = summary(click)
    found["quiet_text"] = click.content[0].text
    found["quiet_links"] = [str(b.uri) for b in click.content if b.type == "resource_link"]
    listed = (await session.list_resources()).resources
    found["sizes"] = {str(r.uri): r.size for r in listed if str(r.uri).startswith("glovebox://download/")}
    return found


SCENARIOS = {
    "human": human,
    "files": files,
    "flow": flow,
    "download": download,
    "handles": handles,
    "agent": agent,
    "observer": observer,
    "state": state,
    "cancel": cancel,
    "approval": approval,
    "read": read,
    "elicit": elicit,
}


async def over(read, write, site, scenario):
    async with ClientSession(read, write, elicitation_callback=on_elicit) as session:
        await session.initialize()
        return await SCENARIOS[scenario](session, site)


async def high_level(server, site, scenario):
    """The scenario on `mcp.Client`, its defaults but the elicitation callback."""
    async with Client(server, elicitation_callback=on_elicit) as client:
        return await SCENARIOS[scenario](client, site)


async def resume(url, token):
    """2025-11-25 by hand (httpx2, the SDK's own HTTP client): a session, a long call whose stream drops after its first
    event, then a GET with `Last-Event-ID` that brings the call's answer."""
    import httpx2 as httpx  # what the MCP SDK itself speaks HTTP with

    base = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    found = {}
    async with httpx.AsyncClient(timeout=30) as http:
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "glovebox-resume-test", "version": "1"}}}
        r = await http.post(url, json=init, headers=base)
        sid = r.headers["mcp-session-id"]
        found["session"] = bool(sid)
        h = dict(base, **{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"})
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        await http.post(url, json=note, headers=h)
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "computer", "arguments": {"action": "wait", "duration_ms": 1500}}}
        last = None
        async with http.stream("POST", url, json=call, headers=h) as stream:
            async for line in stream.aiter_lines():
                if line.startswith("id:"):
                    last = line[3:].strip()
                    break  # drop the stream after its first event (the priming one)
        found["event_id"] = last
        answer = None
        get = dict(h, **{"Last-Event-ID": last})
        async with http.stream("GET", url, headers=get) as stream:
            found["get_status"] = stream.status_code
            async for line in stream.aiter_lines():
                if line.startswith("data:") and line[5:].strip():
                    msg = json.loads(line[5:])
                    if msg.get("id") == 2:
                        answer = msg
                        break
        found["answer"] = answer and {"is_error": answer["result"].get("isError"),
                                      "action": answer["result"]["structuredContent"]["action"]}
    return found


async def main():
    high = "--client" in sys.argv
    if high:
        sys.argv.remove("--client")
    if sys.argv[1] == "resume":
        print(json.dumps(await resume(sys.argv[2], sys.argv[3])))
        return
    if sys.argv[1] == "stdio":
        site, scenario = sys.argv[2:4]
        command = sys.argv[sys.argv.index("--") + 1 :]
        server = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
        if high:
            found = await high_level(server, site, scenario)
        else:
            async with stdio_client(server) as (read, write):
                found = await over(read, write, site, scenario)
    else:
        url, token, site, scenario = sys.argv[1:5]
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        async with http:
            if high:
                found = await high_level(streamable_http_client(url, http_client=http), site, scenario)
            else:
                async with streamable_http_client(url, http_client=http) as streams:
                    found = await over(streams[0], streams[1], site, scenario)
    print(json.dumps(found))


asyncio.run(main())
