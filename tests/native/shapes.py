"""Checks native.* requests and answers against the vendors' own published types.

Reads a JSON file written by tests/integration/native.rs:
  {"anthropic": {"tool": {...}, "calls": [{"input": {...}, "result": {...}, "refused": b}, ...]},
   "openai": {"tool": {...}, "calls": [{"actions": [...], "pending_safety_checks": [...],
                                        "result": {...}}, ...]}}
and validates, with the pydantic types of the `anthropic` and `openai` SDKs (PyPI), the tool
definitions and model inputs the test sent (but the ones it sent to be refused) and the
tool_result / computer_call_output a runtime builds from each answer. Prints one JSON line: {"checked": N} or {"error": "..."}.
"""

import json
import sys

import pydantic
from anthropic.types import beta as ab
from openai.types.responses import ResponseComputerToolCall, ResponseComputerToolCallOutputScreenshot
from openai.types.responses.response_input_param import ComputerCallOutput



def only_known(value, typed):
    """A TypedDict takes unknown keys silently; the vendors' API refuses them: so do we."""
    known = set(typed.__annotations__)
    for base in getattr(typed, "__orig_bases__", ()):
        known |= set(getattr(base, "__annotations__", {}))
    extra = set(value) - known
    assert not extra, "%s is no key of %s" % (sorted(extra), typed.__name__)


def validate(typed, value):
    pydantic.TypeAdapter(typed).validate_python(value)
    only_known(value, typed)


def pascal(name):
    return "".join(w.capitalize() for w in name.split("_"))


def check_anthropic(part):
    tool = part["tool"]
    tool_type = {
        "computer_20250124": ab.BetaToolComputerUse20250124Param,
        "computer_20251124": ab.BetaToolComputerUse20251124Param,
    }[tool["type"]]
    validate(tool_type, tool)
    n = 0
    for call in part["calls"]:
        if not call.get("refused"):
            inp = dict(call["input"])
            action = inp.pop("action")
            model = getattr(ab, "BetaComputer%sInput" % pascal(action))
            model.model_validate(inp, strict=False)
            extra = set(inp) - set(model.model_fields)
            assert not extra, "%s: %s is no field of %s" % (action, extra, model.__name__)
        r = call["result"]
        block = {"type": "tool_result", "tool_use_id": "toolu_01", "content": r["content"],
                 "is_error": r["is_error"]}
        validate(ab.BetaToolResultBlockParam, block)
        for c in r["content"]:
            if c["type"] == "image":
                validate(ab.BetaImageBlockParam, c)
                validate(ab.BetaBase64ImageSourceParam, c["source"])
            else:
                assert c["type"] == "text", c["type"]
                validate(ab.BetaTextBlockParam, c)
        n += 1
    return n


def check_openai(part):
    n = 0
    for call in part["calls"]:
        item = {"id": "cu_1", "call_id": "call_1", "type": "computer_call", "status": "completed",
                "pending_safety_checks": call.get("pending_safety_checks", []),
                "actions": call["actions"]}
        ResponseComputerToolCall.model_validate(item)
        for a in call["actions"]:
            ResponseComputerToolCall.model_validate(dict(item, actions=None, action=a))
        r = call["result"]
        ResponseComputerToolCallOutputScreenshot.model_validate(r["output"])
        out = {"type": "computer_call_output", "call_id": "call_1", "output": r["output"]}
        if r.get("acknowledged_safety_checks"):
            out["acknowledged_safety_checks"] = r["acknowledged_safety_checks"]
        validate(ComputerCallOutput, out)
        assert r["output"]["image_url"].startswith("data:image/png;base64,"), "a PNG data URL"
        n += 1
    return n


def main():
    with open(sys.argv[1]) as f:
        found = json.load(f)
    try:
        n = check_anthropic(found["anthropic"]) + check_openai(found["openai"])
        print(json.dumps({"checked": n}))
    except Exception as e:  # the test reads the reason
        print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}))


if __name__ == "__main__":
    main()
