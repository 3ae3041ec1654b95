# The pyatspi side of `cargo xtask bench desktop`: dumps role, name, states, actions and
# screen extents of one app (by pid) the way the daemon's snapshot walks it (children of
# elements that are not showing are not entered), N times in this process, and prints one
# JSON line: the node count and each dump's time in milliseconds.
import json
import sys
import time

import pyatspi


def dump(acc, depth, out):
    role = acc.getRoleName()
    states = acc.getState().getStates()
    try:
        action = acc.queryAction()
        actions = [action.getName(i) for i in range(action.nActions)]
    except NotImplementedError:
        actions = []
    try:
        ext = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        box = [ext.x, ext.y, ext.width, ext.height]
    except NotImplementedError:
        box = None
    out.append([depth, role, acc.name, [int(s) for s in states], actions, box])
    showing = pyatspi.STATE_SHOWING in states
    if depth == 0 or showing or role == "application":
        for child in acc:
            if child is not None:
                dump(child, depth + 1, out)


def main():
    pid, runs = int(sys.argv[1]), int(sys.argv[2])
    desktop = pyatspi.Registry.getDesktop(0)
    app = next(a for a in desktop if a is not None and a.get_process_id() == pid)
    times, nodes = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        out = []
        dump(app, 0, out)
        text = json.dumps(out)
        times.append((time.perf_counter() - start) * 1000.0)
        nodes = len(out)
    print(json.dumps({"nodes": nodes, "bytes": len(text), "ms": times}))


main()
