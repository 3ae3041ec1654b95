"""MCP sessions as channels bound to their token, spoken by hand over Streamable HTTP (httpx2,
the MCP SDK's own HTTP client), revision 2025-11-25 (the one with sessions).

Usage:
  channels.py hijack URL OWNER THIEF   the owner starts a call and drops its stream; the
                                       thief, holding the owner's Mcp-Session-Id, tries every
                                       request a session takes; then the owner resumes
  channels.py revoked URL TOKEN        a 6 s wait; prints `calling` once it runs, then how
                                       it ended and when
  channels.py cap URL TOKEN OTHER N    OTHER opens a session, then TOKEN opens N + 1: which
                                       of them still answer
  channels.py idle URL TOKEN TTL       a session used within its TTL lives on; one left idle
                                       past it is gone (404), and a new one resumes its
                                       Glovebox session by the handle its result named
  channels.py handle URL TOKEN         a stateless call naming a 129-character session handle
  channels.py flood URL TOKEN N MS     N calls at once, each naming a fresh session, each a
                                       wait of MS: the error codes they got (null: ran)

Prints one JSON line (revoked: after its `calling` line).
"""

import json
import sys
import time

import httpx2 as httpx

VERSION = "2025-11-25"


def headers(token, sid=None):
    h = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    if sid:
        h.update({"Mcp-Session-Id": sid, "MCP-Protocol-Version": VERSION})
    return h


async def open_session(http, url, token):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": VERSION, "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "glovebox-channels-test", "version": "1"}}}
    r = await http.post(url, json=init, headers=headers(token))
    sid = r.headers["mcp-session-id"]
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    await http.post(url, json=note, headers=headers(token, sid))
    return sid


def wait_call(ms, id_=2):
    return {"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": {
        "name": "computer", "arguments": {"action": "wait", "duration_ms": ms}}}


async def first_event_id(http, url, token, sid, call):
    """Post `call` and drop its stream after the first event: the id to resume from."""
    async with http.stream("POST", url, json=call, headers=headers(token, sid)) as stream:
        async for line in stream.aiter_lines():
            if line.startswith("id:"):
                return line[3:].strip()
    return None


def data_of(line):
    """The JSON-RPC message an SSE `data:` line carries, or None."""
    if line.startswith("data:") and line[5:].strip():
        return json.loads(line[5:])
    return None


async def streamed_answer(stream, id_):
    """The answer to request `id_` on an open SSE stream, or None when the stream ends."""
    async for line in stream.aiter_lines():
        msg = data_of(line)
        if msg and msg.get("id") == id_:
            return msg
    return None


async def answer_of(http, url, token, sid, last, id_):
    """GET with Last-Event-ID: the status, and the answer to request `id_` if it comes."""
    get = dict(headers(token, sid), **{"Last-Event-ID": last})
    async with http.stream("GET", url, headers=get) as stream:
        if stream.status_code != 200:
            return stream.status_code, None
        return 200, await streamed_answer(stream, id_)


async def hijack(url, owner, thief):
    found = {}
    async with httpx.AsyncClient(timeout=30) as http:
        sid = await open_session(http, url, owner)
        last = await first_event_id(http, url, owner, sid, wait_call(1500))
        found["event_id"] = bool(last)
        # Every request the owner's session takes, with the thief's token.
        status, msg = await answer_of(http, url, thief, sid, last, 2)
        found["thief_get"] = status
        found["thief_got_answer"] = msg is not None
        r = await http.post(url, json=wait_call(10, 3), headers=headers(thief, sid))
        found["thief_post"] = r.status_code
        answer = {"jsonrpc": "2.0", "id": 0, "result": {"action": "accept", "content": {"approve": True}}}
        r = await http.post(url, json=answer, headers=headers(thief, sid))
        found["thief_answer"] = r.status_code
        r = await http.delete(url, headers=headers(thief, sid))
        found["thief_delete"] = r.status_code
        # The owner's call result still reaches the owner, on its session still open.
        status, msg = await answer_of(http, url, owner, sid, last, 2)
        found["owner_get"] = status
        found["owner_answer"] = msg and msg["result"]["structuredContent"]["action"]
        r = await http.post(url, json=wait_call(10, 4), headers=headers(owner, sid))
        found["owner_post"] = r.status_code
        r = await http.delete(url, headers=headers(owner, sid))
        found["owner_delete"] = r.status_code
        r = await http.post(url, json=wait_call(10, 5), headers=headers(owner, sid))
        found["after_delete"] = r.status_code
    return found


async def revoked(url, token):
    found = {}
    async with httpx.AsyncClient(timeout=30) as http:
        sid = await open_session(http, url, token)
        start = time.monotonic()
        async with http.stream("POST", url, json=wait_call(6000), headers=headers(token, sid)) as stream:
            print("calling", flush=True)
            found["status"] = stream.status_code
            answer = None
            try:
                answer = await streamed_answer(stream, 2)
            except httpx.HTTPError as e:
                found["stream_error"] = type(e).__name__
        found["ended_after_ms"] = int((time.monotonic() - start) * 1000)
        if answer is not None:
            result = answer.get("result") or {}
            found["is_error"] = result.get("isError")
            found["code"] = ((result.get("structuredContent") or {}).get("error") or {}).get("code")
    return found


async def answers(http, url, token, sid):
    r = await http.post(url, json=wait_call(1, 9), headers=headers(token, sid))
    return r.status_code


async def cap(url, token, other, n):
    async with httpx.AsyncClient(timeout=30) as http:
        theirs = await open_session(http, url, other)
        mine = [await open_session(http, url, token) for _ in range(int(n) + 1)]
        return {"mine": [await answers(http, url, token, s) for s in mine],
                "theirs": await answers(http, url, other, theirs)}


async def idle(url, token, ttl):
    import asyncio

    ttl = float(ttl)
    found = {}
    async with httpx.AsyncClient(timeout=30) as http:
        used, left = await open_session(http, url, token), await open_session(http, url, token)
        # `left` makes one call (its result names its Glovebox session), then sees no request;
        # `used` sees one every half TTL, for one and a half TTLs.
        r = await http.post(url, json=wait_call(1, 8), headers=headers(token, left))
        handle = structured(r.text, 8).get("session")
        found["handle"] = bool(handle)
        for _ in range(3):
            await asyncio.sleep(ttl / 2)
            found.setdefault("used", []).append(await answers(http, url, token, used))
        found["left"] = await answers(http, url, token, left)
        # The host opens a new MCP session and resumes the Glovebox one by its handle.
        fresh = await open_session(http, url, token)
        call = {"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {
            "name": "context", "arguments": {"action": "get_state", "session": handle}}}
        r = await http.post(url, json=call, headers=headers(token, fresh))
        got = structured(r.text, 11)
        found["resumed"] = (got.get("result") or {}).get("session_id") == handle
    return found


def answer(text, id_):
    """The answer to request `id_` in an SSE or JSON body ({} when there is none)."""
    data = [m for m in map(data_of, text.splitlines()) if m]
    if not data and text.startswith("{"):
        data = [json.loads(text)]
    return next((m for m in data if m.get("id") == id_), None) or {}


def structured(text, id_):
    """The structuredContent of the answer to request `id_`."""
    return (answer(text, id_).get("result") or {}).get("structuredContent") or {}


async def handle(url, token):
    async with httpx.AsyncClient(timeout=30) as http:
        sid = await open_session(http, url, token)
        call = wait_call(1, 7)
        call["params"]["arguments"]["session"] = "s" * 129
        r = await http.post(url, json=call, headers=headers(token, sid))
        result = answer(r.text, 7).get("result") or {}
        return {"is_error": result.get("isError"), "code": code_of(r.text, 7)}


def code_of(text, id_):
    """The error code of the answer to request `id_` (None: it ran)."""
    return (structured(text, id_).get("error") or {}).get("code")


async def flood(url, token, n, ms):
    import asyncio

    async with httpx.AsyncClient(timeout=30) as http:
        sid = await open_session(http, url, token)

        async def one(i):
            call = wait_call(int(ms), 100 + i)
            call["params"]["arguments"]["session"] = "new"
            r = await http.post(url, json=call, headers=headers(token, sid))
            return code_of(r.text, 100 + i)

        return {"codes": await asyncio.gather(*(one(i) for i in range(int(n))))}


async def main():
    kind = sys.argv[1]
    if kind == "hijack":
        found = await hijack(*sys.argv[2:5])
    elif kind == "revoked":
        found = await revoked(*sys.argv[2:4])
    elif kind == "cap":
        found = await cap(*sys.argv[2:6])
    elif kind == "idle":
        found = await idle(*sys.argv[2:5])
    elif kind == "handle":
        found = await handle(*sys.argv[2:4])
    elif kind == "flood":
        found = await flood(*sys.argv[2:6])
    else:
        raise SystemExit(f"unknown scenario {kind}")
    print(json.dumps(found), flush=True)


if __name__ == "__main__":
    import asyncio

    asyncio.run(main())
