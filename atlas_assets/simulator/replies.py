"""What the simulated model replies: deterministic decisions, no I/O.

Two streams of random numbers (`Draws`: BLAKE2b of a string key, so stable across
processes and machines, and cheap to start for every request):

* the answer stream, seeded by (profile seed, row key): right or wrong, malformed or not,
  the wrappers, the reasoning text. A row gets the same answer on every attempt, so a
  retried request after a 503 sees the answer it would have seen first time.
* the attempt stream, seeded by (profile seed, row key, attempt): which failure (if any)
  and whether a long generation gets a token splice -- serving events, per request.

The row key is "dataset/row-id" for a recognised row, else a digest of the request's
conversation; the attempt counts the earlier requests with the same body (0 first).

The answer for a recognised eval row is `corpus.reference.reference_output` (correct, with
probability skill[difficulty]) or `perturbed_output` (wrong). A vision row whose request
carries no image (or whose image the profile drops) is answered wrong, as a blind model
would; a tool row whose request offers no tools gets text instead of a call. Prompt-set rows and
unrecognised prompts get generic prose of `max_tokens` tokens (else the profile's
`output_tokens`). Where a scorer's perturbation is empty (instruction), the wrong answer is
the reference bent until the scorer rejects it (`_plausible_wrong`): never an empty reply.

tool_choice, as a real server: "none" answers text; "required" or a named function always
calls (the answer's own call when it fits, else the allowed function with placeholder
arguments from its schema); "auto" calls as the answer does. A turn whose last message is
a tool result is answered in text (the result, reported) unless tool_choice forces a call.

Wrappers are applied only where the specification's answer extraction removes them, so
accuracy follows skill and `malformed_rate` alone controls format failures:
<think> blocks everywhere but raw-text (instruction) rows, unless the reasoning goes to
`reasoning_content`; "Final answer:" lines for one-line answers of the exact, numeric,
mc, contains and json scorers (`Scorer.answer_line`); fences, in the scorer's
`fence_language`, for every scorer whose extraction removes them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import struct
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from atlas_assets.corpus.reference import perturbed_output, reference_output
from atlas_assets.corpus.scorers import SCORERS, ModelOutput, Scorer, ToolCall, score
from atlas_assets.corpus.splice import inject_splice
from atlas_assets.simulator.index import RequestView, RowEntry
from atlas_assets.simulator.profiles import SimulatorProfile

__all__ = ["BadParameter", "CHARS_PER_TOKEN", "Draws", "Failure", "Reply", "ReplyRequest", "compose_reply", "draw_failure", "tokens"]

CHARS_PER_TOKEN = 4
THINK_TOKENS = (16, 128)

Failure = Literal["error_500", "error_503", "timeout", "rate_limited", "dropped"]

_LEAD_INS = (
    "Let me work through this step by step.",
    "Checking each part of the question carefully.",
    "Here is my reasoning in brief.",
    "Working from the information given.",
)
_VOCABULARY = (
    "the model reads each part of the request and weighs what it knows about the topic "
    "before it settles on a reply that covers the main points in a clear order with short "
    "sentences plain words careful steps small examples and a note on what remains open "
    "first second third then next finally because however although while since until after "
    "system value measure record signal window report table method result sample process "
    "river garden engine market harbour library station bridge valley forest mountain "
    "careful simple steady bright quiet narrow broad early later common rare useful"
).split()


def tokens(text: str) -> int:
    """Tokens in `text` under the simulator's model: one per 4 characters, rounded up."""
    return -(-len(text) // CHARS_PER_TOKEN)


class Draws:
    """Uniform draws keyed by strings: block n of the stream is BLAKE2b(key, n), eight
    64-bit numbers."""

    __slots__ = ("_key", "_block", "_values", "_next")

    def __init__(self, *parts: object) -> None:
        self._key = "\x1f".join(map(str, parts)).encode("utf-8", "surrogatepass")
        self._block = 0
        self._values: tuple[int, ...] = ()
        self._next = 0

    def u64(self) -> int:
        if self._next == len(self._values):
            block = hashlib.blake2b(self._key + self._block.to_bytes(4, "little"), digest_size=64).digest()
            self._values, self._block, self._next = struct.unpack("<8Q", block), self._block + 1, 0
        value = self._values[self._next]
        self._next += 1
        return value

    def random(self) -> float:
        return (self.u64() >> 11) * (1.0 / 9007199254740992)  # 53 bits -> [0, 1)

    def below(self, n: int) -> int:
        return int(self.random() * n)

    def randint(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)


@functools.cache
def _filler() -> str:
    """Deterministic plain prose (~256 kB) that generic replies and reasoning are cut from."""
    rng = random.Random(0)
    paragraphs = []
    size = 0
    while size < 256_000:
        sentences = []
        for _ in range(rng.randint(3, 6)):
            words = [rng.choice(_VOCABULARY) for _ in range(rng.randint(7, 16))]
            sentences.append(" ".join(words).capitalize() + ".")
        paragraph = " ".join(sentences)
        paragraphs.append(paragraph)
        size += len(paragraph) + 2
    return "\n\n".join(paragraphs)


def _prose(rng: Draws, n_tokens: int) -> str:
    """`n_tokens` tokens (4 * n characters) of filler prose from a random offset."""
    text = _filler()
    need = n_tokens * CHARS_PER_TOKEN
    while len(text) < need:
        text += "\n\n" + _filler()
    start = rng.below(len(text) - need + 1)
    return text[start : start + need]


class BadParameter(ValueError):
    """An invalid request parameter: a 400 `invalid_request_error` naming `param`."""

    def __init__(self, param: str, message: str) -> None:
        super().__init__(message)
        self.param = param


def _number(body: Mapping[str, Any], name: str, low: float | None, high: float | None, integer: bool = False) -> float | None:
    """body[name] checked against [low, high] (a missing or null value is None)."""
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and value != int(value)):
        kind = "an integer" if integer else "a number"
        raise BadParameter(name, f"Invalid type for '{name}': expected {kind}, but got {type(value).__name__}.")
    if low is not None and value < low:
        raise BadParameter(name, f"Invalid '{name}': {value} is lower than the minimum value allowed ({low:g}).")
    if high is not None and value > high:
        raise BadParameter(name, f"Invalid '{name}': {value} is greater than the maximum value allowed ({high:g}).")
    return value


def _offered_tools(body: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """(name, parameters schema) of every function in `tools`."""
    tools = body.get("tools")
    if tools is None:
        return ()
    if not isinstance(tools, list):
        raise BadParameter("tools", "Invalid type for 'tools': expected an array of tool objects.")
    offered = []
    for k, tool in enumerate(tools):
        function = tool.get("function") if isinstance(tool, Mapping) else None
        if not isinstance(function, Mapping) or not isinstance(function.get("name"), str) or not function["name"]:
            raise BadParameter(f"tools[{k}].function.name", f"Missing required parameter: 'tools[{k}].function.name'.")
        offered.append((function["name"], function.get("parameters")))
    return tuple(offered)


def _tool_choice(body: Mapping[str, Any], names: tuple[str, ...]) -> str:
    """ "auto", "none", "required", or the name of the one function the request forces."""
    choice = body.get("tool_choice")
    if choice is None:
        return "auto" if names else "none"
    if isinstance(choice, Mapping):
        function = choice.get("function")
        name = function.get("name") if isinstance(function, Mapping) else None
        if choice.get("type") != "function" or not isinstance(name, str):
            raise BadParameter(
                "tool_choice", 'Invalid value for \'tool_choice\': expected {"type": "function", "function": {"name": ...}}.'
            )
        choice_name = name
    elif choice in ("auto", "none", "required"):
        choice_name = ""
    else:
        raise BadParameter(
            "tool_choice", f"Invalid value for 'tool_choice': {choice!r}; expected 'none', 'auto', 'required' or a named function."
        )
    if choice != "none" and not names:
        raise BadParameter("tool_choice", "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.")
    if choice_name and choice_name not in names:
        raise BadParameter(
            "tool_choice", f"Invalid value for 'tool_choice': no function named '{choice_name}' was specified in the 'tools' parameter."
        )
    return choice_name or str(choice)


@dataclass(frozen=True, slots=True)
class ReplyRequest:
    """The request parameters that shape a reply."""

    max_tokens: int | None = None
    stop: tuple[str, ...] = ()
    tools: tuple[tuple[str, Any], ...] = ()  # (name, parameters schema) per offered function
    tool_choice: str = "none"  # "auto", "none", "required", or the forced function's name
    after_tool: bool = False  # the last message is a tool result

    @property
    def tools_offered(self) -> bool:
        return bool(self.tools) and self.tool_choice != "none"

    @property
    def forced(self) -> bool:
        """tool_choice "required" or a named function: the reply must be a call."""
        return self.tools_offered and self.tool_choice != "auto"

    @classmethod
    def from_body(cls, body: Mapping[str, Any]) -> "ReplyRequest":
        """Raises BadParameter for a parameter a real server rejects (OpenAI's ranges)."""
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise BadParameter("messages", "Invalid 'messages': expected a non-empty array of messages.")
        for name in ("max_tokens", "max_completion_tokens"):
            _number(body, name, 1, None, integer=True)
        _number(body, "temperature", 0, 2)
        _number(body, "top_p", 0, 1)
        n = _number(body, "n", 1, None, integer=True)
        if n is not None and n != 1:
            raise BadParameter("n", f"Invalid 'n': {n}; this simulator generates one choice per request (n=1).")
        limit = body.get("max_completion_tokens", body.get("max_tokens"))
        stop = body.get("stop")
        stops = (stop,) if isinstance(stop, str) else tuple(s for s in stop or () if isinstance(s, str) and s)
        tools = _offered_tools(body)
        choice = _tool_choice(body, tuple(name for name, _ in tools))
        last = messages[-1]
        after_tool = isinstance(last, Mapping) and last.get("role") == "tool"
        return cls(int(limit) if limit is not None else None, stops, tools, choice, after_tool)


@dataclass(slots=True)
class Reply:
    content: str = ""
    reasoning: str = ""  # sent as reasoning_content (empty when none, or when inline)
    tool_calls: list[tuple[str, str, str]] = field(default_factory=list)  # (id, name, arguments JSON)
    finish_reason: str = "stop"
    reasoning_tokens: int = 0

    @property
    def completion_tokens(self) -> int:
        return tokens(self.reasoning) + tokens(self.content) + sum(tokens(n) + tokens(a) for _, n, a in self.tool_calls)


def draw_failure(profile: SimulatorProfile, row_key: str, attempt: int) -> Failure | None:
    """The failure of this attempt, if any: one uniform draw against the cumulative rates."""
    if not profile.failure_rate:
        return None
    rng = Draws(profile.seed, row_key, attempt, "failure")
    u = rng.random()
    for rate, failure in (
        (profile.error_5xx, "error_500" if rng.random() < 0.5 else "error_503"),
        (profile.timeout, "timeout"),
        (profile.rate_limit_429, "rate_limited"),
        (profile.drop, "dropped"),
    ):
        if u < rate:
            return failure  # type: ignore[return-value]
        u -= rate
    return None


@functools.lru_cache(maxsize=8192)
def _answers(entry: RowEntry, seed: int) -> tuple[ModelOutput, ModelOutput] | None:
    """(right, wrong) outputs for an eval row, or None when the corpus cannot produce them."""
    try:
        right = reference_output(entry.row, entry.default_scorer)
        wrong = perturbed_output(entry.row, entry.default_scorer, seed=seed)
    except (ValueError, KeyError):
        return None
    if not (wrong.text or wrong.tool_calls):
        wrong = _plausible_wrong(entry, right, seed)
    return right, wrong


_DISCLAIMER = "Sure, here you go!"


def _plausible_wrong(entry: RowEntry, right: ModelOutput, seed: int) -> ModelOutput:
    """A non-empty wrong reply where the scorer's own perturbation is empty (instruction
    rows): the right reply bent out of shape (a third of it, upper or lower case, an
    added line, its lines joined), the first variant, from a seeded start, that the
    row's scorer rejects."""
    text = right.text or ""
    third = text[: max(1, len(text) // 3)].rsplit(" ", 1)[0] or text[:1]
    variants = [
        third,
        text.lower(),
        text.upper(),
        text + " Also, one more thing: THAT is all, really!",
        text.replace("\n", " "),
        _DISCLAIMER,
    ]
    start = Draws(seed, entry.key, "wrong").below(len(variants))
    for candidate in variants[start:] + variants[:start]:
        if candidate and not score(entry.row, candidate, entry.default_scorer).correct:
            return ModelOutput(text=candidate)
    return ModelOutput(text=_DISCLAIMER)


def compose_reply(
    profile: SimulatorProfile,
    entry: RowEntry | None,
    view: RequestView,
    request: ReplyRequest,
    row_key: str,
    attempt: int,
) -> Reply:
    if entry is None and any(role == "system" and JSON_CASES_MARKER in text for role, text in view.turns):
        return _json_cases_reply(profile, view, row_key, attempt)
    if entry is None and any(role == "system" and JUDGE_MARKER in text for role, text in view.turns):
        return _judge_reply(view)
    rng = Draws(profile.seed, row_key, "answer")
    answers = _answers(entry, profile.seed) if entry is not None and entry.scorer is not None else None
    if answers is None:
        if request.forced:
            return _calls_reply(_forced(ModelOutput(), request), row_key)
        if request.after_tool:
            return _limit(Reply(content=_after_tool_text(view)), request)
        n = request.max_tokens or profile.output_tokens
        text = _splice(profile, _prose(rng, n), (), row_key, attempt)
        return _limit(Reply(content=text, finish_reason="length" if request.max_tokens else "stop"), request)
    assert entry is not None and entry.scorer is not None
    scorer = SCORERS[entry.scorer]
    right, wrong = answers
    correct = rng.random() < profile.skill.of(entry.difficulty)
    if entry.needs_image and view.images == 0:
        correct = False  # blind: the image never reached the model
    malformed = rng.random() < profile.malformed_rate
    think = rng.random() < profile.think_rate
    final_line = rng.random() < profile.final_answer_rate
    fence = rng.random() < profile.fence_rate
    reasoning = _prose(rng, rng.randint(*THINK_TOKENS)) if (think or malformed) else ""
    output = right if correct else wrong

    if request.after_tool and not request.forced:  # the tool has answered: reply in text
        return _limit(Reply(content=_after_tool_text(view)), request)
    if output.tool_calls and not request.tools_offered:
        output = ModelOutput(text="I would need a tool to do that, and none is available.")
    if request.forced:
        output = _forced(output, request)
    if malformed and (scorer.reads_tool_calls or not request.forced):
        if scorer.reads_tool_calls and request.tools_offered:
            name = output.tool_calls[0].name if request.forced else _tool_name(entry, right)
            return Reply(tool_calls=[(_call_id(row_key, 0), name, '{"')], finish_reason="tool_calls")
        return _cut_off_in_reasoning(profile, reasoning, scorer)

    if output.tool_calls:
        reply = _calls_reply(output, row_key)
        if think:
            _add_reasoning(profile, reply, reasoning)
        return reply

    context = (entry.row.get("meta") or {}).get("context_identifiers") or ()
    text = _splice(profile, output.text or "", context, row_key, attempt)
    if final_line and scorer.answer_line and "\n" not in text:
        text = f"{_LEAD_INS[rng.below(len(_LEAD_INS))]}\n\nFinal answer: {text}"
    if fence and scorer.extraction.strips_wrappers:
        text = f"```{scorer.fence_language}\n{text}\n```"
    reply = Reply(content=text)
    if think and (profile.reasoning_content or scorer.extraction.strips_wrappers):
        _add_reasoning(profile, reply, reasoning)
    return _limit(reply, request)


def _calls_reply(output: ModelOutput, row_key: str) -> Reply:
    calls = [(_call_id(row_key, i), c.name, _arguments(c.arguments)) for i, c in enumerate(output.tool_calls)]
    return Reply(tool_calls=calls, finish_reason="tool_calls")


def _forced(output: ModelOutput, request: ReplyRequest) -> ModelOutput:
    """`output` under a forcing tool_choice: its calls of the allowed functions (the named
    one, or any offered under "required"); without one, a call of the first allowed
    function with placeholder arguments that fit its schema."""
    schemas = dict(request.tools)
    allowed = list(schemas) if request.tool_choice == "required" else [request.tool_choice]
    calls = [c for c in output.tool_calls if c.name in allowed]
    if calls:
        return ModelOutput(tool_calls=calls)
    return ModelOutput(tool_calls=[ToolCall(name=allowed[0], arguments=json.dumps(_placeholder_arguments(schemas[allowed[0]])))])


_PLACEHOLDERS: dict[str, Any] = {"string": "example", "integer": 1, "number": 1, "boolean": False, "array": [], "object": {}}


def _placeholder_arguments(schema: Any) -> dict[str, Any]:
    """A value for every required property of a JSON-schema object (its first enum value,
    else one of the property's type)."""
    if not isinstance(schema, Mapping):
        return {}
    raw_properties = schema.get("properties")
    properties: Mapping[Any, Any] = raw_properties if isinstance(raw_properties, Mapping) else {}
    arguments: dict[str, Any] = {}
    for name in schema.get("required") or ():
        raw_spec = properties.get(name)
        spec: Mapping[Any, Any] = raw_spec if isinstance(raw_spec, Mapping) else {}
        kind = spec.get("type")
        kind = kind[0] if isinstance(kind, list) and kind else kind
        enum = spec.get("enum")
        arguments[str(name)] = (
            enum[0] if isinstance(enum, list) and enum else _PLACEHOLDERS.get(kind, "example") if isinstance(kind, str) else "example"
        )
    return arguments


def _after_tool_text(view: RequestView) -> str:
    """The text answer to a turn that ends with a tool result: the result, reported."""
    result = " ".join(view.turns[-1][1].split())[:400] if view.turns else ""
    return f"The tool returned: {result}" if result else "The tool returned no result."


def _call_id(row_key: str, index: int) -> str:
    return "call_" + Draws(row_key, index).u64().to_bytes(8, "big").hex()


def _tool_name(entry: RowEntry, right: ModelOutput) -> str:
    """The tool a malformed call names: the expected one, else the row's first tool."""
    if right.tool_calls:
        return right.tool_calls[0].name
    tools = (entry.row.get("meta") or {}).get("tools") or [{}]
    return str(tools[0].get("function", {}).get("name", "tool"))


def _arguments(arguments: Any) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments or {})


def _add_reasoning(profile: SimulatorProfile, reply: Reply, reasoning: str) -> None:
    reply.reasoning_tokens = tokens(reasoning)
    if profile.reasoning_content:
        reply.reasoning = reasoning
    else:
        reply.content = f"<think>\n{reasoning}\n</think>\n\n{reply.content}"
        reply.reasoning_tokens = tokens(f"<think>\n{reasoning}\n</think>")


def _cut_off_in_reasoning(profile: SimulatorProfile, reasoning: str, scorer: Scorer) -> Reply:
    """Malformed: the generation ran out inside its reasoning, no answer was given."""
    if profile.reasoning_content:
        return Reply(reasoning=reasoning, finish_reason="length", reasoning_tokens=tokens(reasoning))
    if not scorer.extraction.strips_wrappers:  # raw-text scorers would read the reasoning as the reply
        return Reply(finish_reason="length")
    content = f"<think>\n{reasoning}"
    return Reply(content=content, finish_reason="length", reasoning_tokens=tokens(content))


def _splice(profile: SimulatorProfile, text: str, context: Any, row_key: str, attempt: int) -> str:
    """`text` with a token splice, at `splice_rate` per attempt when it is a long generation
    (applied before any wrapper, so the splice lands in the answer, not the reasoning)."""
    if profile.splice_rate <= 0 or tokens(text) < profile.splice_min_tokens:
        return text
    rng = Draws(profile.seed, row_key, attempt, "splice")
    if rng.random() < profile.splice_rate:
        try:
            return inject_splice(text, list(context), random.Random(rng.u64()))
        except ValueError:  # nothing in this text can be spliced detectably
            pass
    return text


def _limit(reply: Reply, request: ReplyRequest) -> Reply:
    """Apply stop sequences, then max_tokens (reasoning tokens are spent first)."""
    for stop in request.stop:
        cut = reply.content.find(stop)
        if cut >= 0:
            reply.content = reply.content[:cut]
            reply.finish_reason = "stop"
    budget = request.max_tokens
    if budget is None or reply.completion_tokens <= budget:
        return reply
    spent = tokens(reply.reasoning)
    if spent >= budget:
        reply.reasoning = reply.reasoning[: budget * CHARS_PER_TOKEN]
        reply.content = ""
    else:
        reply.content = reply.content[: (budget - spent) * CHARS_PER_TOKEN]
    reply.reasoning_tokens = min(reply.reasoning_tokens, budget)
    reply.finish_reason = "length"
    return reply


# --- case generation (Autobench's LLM-backed generator) --------------------------------

JSON_CASES_MARKER = "[atlas-simulator:json-cases]"
"""A system prompt containing this marker asks the simulator to propose benchmark cases:
it answers with a JSON object {"cases": [{"id", "input": {"message"}, "expected": {"route"}}]}
of `n` cases (`n=K` right after the marker, default 4), drawn deterministically from a small
pool of support messages by (profile seed, conversation, attempt) -- so repeated calls
propose duplicates -- plus one malformed proposal (no `input`) for schema validation to
reject. A simulator behaviour for tests and demos only; nothing here is a model."""

_CASE_POOL = (
    ("Refund a duplicate charge on my subscription", "billing"),
    ("I was billed twice this month", "billing"),
    ("Send me last month's invoice", "billing"),
    ("My password reset email never arrived", "account"),
    ("How do I add a teammate to my workspace?", "account"),
    ("The export button returns an error", "technical"),
    ("The app crashes when I upload a photo", "technical"),
    ("Please delete my account and data", "privacy"),
)


def _json_cases_reply(profile: SimulatorProfile, view: RequestView, row_key: str, attempt: int) -> Reply:
    system = next(text for role, text in view.turns if role == "system" and JSON_CASES_MARKER in text)
    tail = system.split(JSON_CASES_MARKER, 1)[1].strip()
    n = 4
    if tail.startswith("n="):
        digits = "".join(ch for ch in tail[2:6] if ch.isdigit())
        n = max(1, min(50, int(digits))) if digits else n
    rng = Draws(profile.seed, row_key, attempt, "json-cases")
    cases: list[dict[str, Any]] = []
    for _ in range(n):
        message, route = _CASE_POOL[rng.below(len(_CASE_POOL))]
        digest = hashlib.sha256(message.encode()).hexdigest()[:8]
        cases.append({"id": f"sim-{digest}", "input": {"message": message}, "expected": {"route": route}})
    cases.append({"id": f"sim-malformed-{rng.below(1000):03d}", "expected": {"route": "billing"}})
    return Reply(content=json.dumps({"cases": cases}))


# --- an LLM judge (Autobench's llm-judge evaluator) -----------------------------------------

JUDGE_MARKER = "[atlas-simulator:judge]"
"""A system prompt containing this marker asks the simulator for a judge's verdict: it
answers {"pass", "score", "reason"} with pass when the last user message's <output> block
equals its <expected> block (as JSON when both parse, else as stripped text), so a
simulated judge agrees with equals-expected. For tests and demos only; nothing here is a model."""


_ABSENT = object()


def _tagged(text: str, tag: str) -> Any:
    start, end = text.rfind(f"<{tag}>\n"), text.rfind(f"\n</{tag}>")
    if start < 0 or end < start:
        return _ABSENT
    inner = text[start + len(tag) + 3 : end]
    try:
        return json.loads(inner)
    except ValueError:
        return inner.strip()


def _judge_reply(view: RequestView) -> Reply:
    user = next((text for role, text in reversed(view.turns) if role == "user"), "")
    output, expected = _tagged(user, "output"), _tagged(user, "expected")
    passed = output is not _ABSENT and output == expected
    reason = "the output equals the expected answer" if passed else "the output differs from the expected answer"
    return Reply(content=json.dumps({"pass": passed, "score": 1.0 if passed else 0.0, "reason": f"simulated judge: {reason}"}))
