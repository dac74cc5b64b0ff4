"""A real model: any OpenAI-compatible chat-completions endpoint, as the run's model.

Ollama (``http://127.0.0.1:11434/v1``), vLLM, llama.cpp's server and the
hosted APIs all answer one request: ``POST {url}/chat/completions`` with
``messages`` and ``tools``, answered by a message holding ``tool_calls`` or
text. This plugin asks such an endpoint through the ecosystem's own client
(the ``openai`` package), and hands ``propose`` the same thing the scripted
model hands it, raw text, in a ``Said`` that also names the endpoint, the
model asked for and the model the answer names (its ``model`` field), which
the run records with the text. It judges nothing. A tool call becomes one entry of
the reply ``propose`` parses (``{"proposals": [...]}``): its function name the
``tool``, its arguments' ``destination`` and ``why`` those fields, the rest its
``arguments``. Arguments that are not a JSON object (not JSON, a key written
twice, a bare list) are handed on as the string the model wrote, beside an
empty destination (none can be read), and the door refuses the reply
because of them (``propose.build_reply``); a tool the policy does not declare or allow is the door's
to refuse. A reply with no tool calls is handed on as its text.

The configuration names the plugin in ``plugins.model``::

    {"factory": "lab.endpoint:make_model", "url": "http://127.0.0.1:11434/v1",
     "model": "qwen2.5:7b"}

(``python -m core.run.main --model-url URL --model NAME`` writes the same).
Both settings are part of the configuration, so they name the run. The API
key is not: it is read from ``OPENAI_API_KEY`` alone, sent only over HTTPS or
to a loopback address, and written out nowhere (any text of the endpoint's
that quotes it has it replaced by ``[OPENAI_API_KEY]``; an endpoint that holds
the key can still spell it some other way).

Every failure of one call is an ``EndpointFailed`` with a one-line detail,
which ``propose`` records as a ``model_failed`` refusal; the run goes on.
A call sends at most ``ATTEMPTS`` requests: a 429 or a 5xx is sent once more
after the wait its ``Retry-After`` asks (one second if it names none), unless
that wait is over ``RETRY_AFTER_LIMIT``. The second request is the same
question delivered again, so it spends no second unit of ``max_model_calls``
(the budget counts the questions the run asks, each a ``model_call`` record);
it is not recorded unless it fails too (the detail then says so). A timeout or
a refused connection is not retried: a stalled server would stall twice.
"""

from __future__ import annotations

import email.utils
import ipaddress
import json
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from urllib.parse import urlsplit

import httpx2
import openai

from core.run.plugins import PluginError
from core.run.propose import Said

__all__ = ["ATTEMPTS", "BODY_LIMIT", "Endpoint", "EndpointFailed", "RETRY_AFTER_LIMIT", "answered_by", "make_model",
           "reply_text", "tools_of"]

KEY_VARIABLE = "OPENAI_API_KEY"
HIDDEN_KEY = "[OPENAI_API_KEY]"
BODY_LIMIT = 1024 * 1024  # bytes of a response body read at all (propose reads at most 64 KiB of reply text)
ATTEMPTS = 2  # requests one model call sends at most
RETRY_AFTER_LIMIT = 10.0  # seconds a 429 or 5xx may ask the call to wait before its second request
DEFAULT_TIMEOUT = 120.0  # seconds for each step of a request, and for reading a whole body
SCHEMA_TYPES = {"string": "string", "integer": "integer", "boolean": "boolean"}  # policy type -> JSON Schema
RESERVED = ("destination", "why")  # the argument names a tool call carries besides the tool's own
SYSTEM = (
    "You propose the next steps of an authorized security test. Propose each step as a call "
    "of one of the tools, with the URL to act on as its destination and a short why. Each "
    "message from the user shows what the run has observed so far. Nothing you propose runs "
    "unless the operator's policy allows it."
)


class EndpointFailed(RuntimeError):
    """One model call failed: the endpoint could not be asked, or its answer is not a chat completion."""


def make_model(lab_dir: str | Path | None = None, *, catalogue: list[dict], url: object, model: object,
               timeout: object = DEFAULT_TIMEOUT) -> Endpoint:
    """The model at ``url`` named ``model``, offered ``catalogue`` (the policy's tools) as its tools.

    The factory ``core.run.plugins.load_model`` calls for
    ``{"factory": "lab.endpoint:make_model", "url": ..., "model": ...}``.
    ``lab_dir`` is not read: the endpoint is the model. Raises PluginError
    (one line) for a URL or setting it will not use.
    """
    return Endpoint(endpoint_url(url), model_name(model), tools_of(catalogue), os.environ.get(KEY_VARIABLE, ""),
                    seconds(timeout))


def endpoint_url(url: object) -> str:
    """``url`` if it is an endpoint this plugin may ask: http(s), a host, no credentials, no query."""
    if not isinstance(url, str) or not url.isprintable():
        raise PluginError("the model URL must be text, such as http://127.0.0.1:11434/v1")
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError as error:
        raise PluginError(f"the model URL {url!r} cannot be read: {error}") from None
    if parts.scheme not in ("http", "https") or not host:
        raise PluginError(f"the model URL must be http:// or https:// with a host, not {url!r}")
    if parts.username is not None or parts.password is not None:
        raise PluginError(f"the model URL carries credentials: give the key in {KEY_VARIABLE}, never in the URL")
    if parts.query or parts.fragment:
        raise PluginError("the model URL may carry no query or fragment (a key does not go in a URL)")
    if parts.scheme == "http" and not loopback(host) and os.environ.get(KEY_VARIABLE):
        raise PluginError(f"the model URL is plain http to {host}, which is not loopback: {KEY_VARIABLE} "
                          "is sent only over https, or to 127.0.0.1, ::1 or localhost")
    return url


def loopback(host: str) -> bool:
    """Whether ``host`` is this machine: ``localhost`` or a loopback address (127.0.0.0/8, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def model_name(model: object) -> str:
    """``model`` if it is a name an endpoint can be asked for: printable text, not blank."""
    if not isinstance(model, str) or not model.strip() or not model.isprintable():
        raise PluginError("the model name must be non-empty text, such as qwen2.5:7b")
    return model


def seconds(timeout: object) -> float:
    """``timeout`` as seconds, if it is a number from 0 (left out) to an hour."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
        raise PluginError(f"the model timeout must be a number of seconds from 0 to 3600, not {timeout!r}")
    return float(timeout)


def tools_of(catalogue: object) -> list[dict]:
    """The policy's tools as chat-completions ``tools``: each a function whose parameters are a JSON Schema.

    The schema is the tool's own declaration (each argument and its type),
    with ``destination`` (required) and ``why`` beside them. The policy's
    rule that a tool's arguments come all together or not at all is said in
    the description, not enforced here: the door enforces it.
    """
    if not isinstance(catalogue, list) or not all(isinstance(tool, Mapping) for tool in catalogue):
        raise PluginError("the model's catalogue must be the policy's list of tools")
    tools = []
    for tool in catalogue:
        declared = dict(tool.get("arguments", {}))
        clash = sorted(set(declared) & set(RESERVED))
        if clash:
            raise PluginError(f"tool {tool.get('tool_id')!r} declares the argument {clash[0]!r}, which a tool "
                              "call uses for itself")
        properties = {
            "destination": {"type": "string", "description": "the URL this step acts on"},
            **{name: {"type": SCHEMA_TYPES[kind]} for name, kind in sorted(declared.items())},
            "why": {"type": "string", "description": "why this step, in one sentence"},
        }
        needed = sorted(tool.get("requires", {}).items())
        requires = ", ".join(f"{name} = {json.dumps(value)}" for name, value in needed)
        description = (f"Action class {tool['activity']}."
                       + (" Give every argument or none." if declared else " Takes no arguments.")
                       + (f" Allowed once the run has observed {requires}." if requires else ""))
        tools.append({"type": "function", "function": {
            "name": tool["tool_id"], "description": description,
            "parameters": {"type": "object", "properties": properties, "required": ["destination"],
                           "additionalProperties": False}}})
    return tools


class Endpoint:
    """One endpoint and model, asked once per call with the conversation so far.

    Each call sends the system text, every earlier prompt and the text each
    reply became, then the new prompt: the run's prompts show only what is
    new since the last call, so the earlier ones are the model's memory of
    the run. A prompt whose call failed is sent again in front of the next
    one (the captures it showed are not shown again), so the roles still
    alternate as some servers' chat templates require.
    """

    def __init__(self, url: str, model: str, tools: list[dict], key: str, timeout: float) -> None:
        self.url, self.model, self.tools, self.key, self.timeout = url, model, tools, key, timeout
        self.history: list[dict] = []
        self.unanswered = ""  # the prompts of failed calls, sent again with the next one
        plain = urlsplit(url).scheme == "http"
        transport = Bounded(httpx2.HTTPTransport(trust_env=not plain), BODY_LIMIT, timeout)
        # No redirects (a key goes to the URL named, nowhere else); no proxy for plain http, which
        # would carry the key off this machine; the client's own retries off (``ask`` bounds them).
        http = httpx2.Client(transport=transport, follow_redirects=False, trust_env=not plain,
                             timeout=httpx2.Timeout(timeout))
        self.client = openai.OpenAI(api_key=key or "unused", base_url=url, max_retries=0,
                                    timeout=httpx2.Timeout(timeout), http_client=http)
        # Without a key no Authorization header is sent at all.
        self.headers = {"Accept-Encoding": "identity", **({} if key else {"Authorization": openai.omit})}

    def __call__(self, prompt: str) -> Said:
        asked = {"role": "user", "content": self.unanswered + prompt}
        self.unanswered = asked["content"] + "\n"
        body = self.ask([{"role": "system", "content": SYSTEM}, *self.history, asked])
        text = self.hidden(reply_text(body))
        self.history += [asked, {"role": "assistant", "content": text}]
        self.unanswered = ""
        return Said(text, self.url, self.hidden(self.model), self.hidden(answered_by(body)))

    def ask(self, messages: list[dict]) -> bytes:
        """The body of the endpoint's answer, at most ``ATTEMPTS`` requests; EndpointFailed names why not."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                raw = self.client.chat.completions.with_raw_response.create(
                    model=self.model, messages=messages, tools=self.tools or openai.omit, extra_headers=self.headers)
                return raw.http_response.content
            except openai.APIStatusError as error:
                status, after = error.status_code, error.response.headers.get("retry-after")
                wait = retry_wait(after)
                if status != 429 and status < 500:
                    raise self.failed(f"HTTP {status} from the endpoint") from None
                if wait > RETRY_AFTER_LIMIT:
                    raise self.failed(f"HTTP {status}, asked to wait {wait:.0f} s, over the limit of "
                                      f"{RETRY_AFTER_LIMIT:.0f} s") from None
                if attempt == ATTEMPTS:
                    raise self.failed(f"HTTP {status} from the endpoint, {ATTEMPTS} requests sent") from None
                time.sleep(wait)
            except openai.APITimeoutError:
                raise self.failed(f"no answer within {self.timeout:g} s") from None
            except openai.APIConnectionError as error:
                cause = described(error.__cause__ or error)
                raise self.failed(f"the endpoint could not be reached ({cause})") from None
            except EndpointFailed as error:
                raise self.failed(str(error)) from None
            except Exception as error:  # the client's own failure: one line, never a traceback
                raise self.failed(f"the request failed ({described(error)})") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def failed(self, detail: str) -> EndpointFailed:
        return EndpointFailed(self.hidden(f"{detail}; model {self.model!r} at {self.url}"))

    def hidden(self, text: str) -> str:
        """``text`` with the API key, wherever it appears whole, replaced by ``[OPENAI_API_KEY]``."""
        return text.replace(self.key, HIDDEN_KEY) if self.key else text


def described(error: BaseException) -> str:
    """An exception on one short line: its type and its words."""
    return f"{type(error).__name__}: {' '.join(str(error).split())}"[:300]


def retry_wait(value: str | None) -> float:
    """Seconds a ``Retry-After`` header asks for (a number or an HTTP date); one second when it names none."""
    if value is None:
        return 1.0
    value = value.strip()
    if value.isdigit():
        return float(value[:12])
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return 1.0
    if when is None or when.tzinfo is None:
        return 1.0
    return max(0.0, when.timestamp() - time.time())


class Bounded(httpx2.BaseTransport):
    """A transport that reads at most ``limit`` bytes of a body, each body within ``seconds`` of its request.

    Every body the client reads passes here, an error's too. A compressed
    body is refused (the request asks for none): its size says nothing of
    the size it unpacks to.
    """

    def __init__(self, inner: httpx2.BaseTransport, limit: int, seconds: float) -> None:
        self.inner, self.limit, self.seconds = inner, limit, seconds

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        deadline = time.monotonic() + self.seconds
        response = self.inner.handle_request(request)
        length = response.headers.get("content-length", "")
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            response.close()
            raise EndpointFailed(f"the answer is compressed ({encoding[:40]}), which the request asked it not to be")
        if length.isdigit() and int(length) > self.limit:
            response.close()
            raise EndpointFailed(f"the answer's body has {int(length)} bytes, over the limit of {self.limit}")
        return httpx2.Response(response.status_code, headers=response.headers, extensions=response.extensions,
                               stream=Capped(response.stream, self.limit, deadline, self.seconds))

    def close(self) -> None:
        self.inner.close()


class Capped(httpx2.SyncByteStream):
    """A body's bytes as they arrive, until ``limit`` of them or the ``deadline`` (time.monotonic) is passed."""

    def __init__(self, stream, limit: int, deadline: float, seconds: float) -> None:
        self.stream, self.limit, self.deadline, self.seconds = stream, limit, deadline, seconds

    def __iter__(self) -> Iterator[bytes]:
        read = 0
        for chunk in self.stream:
            read += len(chunk)
            if read > self.limit:
                raise EndpointFailed(f"the answer's body is over the limit of {self.limit} bytes")
            if time.monotonic() > self.deadline:
                raise EndpointFailed(f"the answer's body took over {self.seconds:g} s to arrive")
            yield chunk

    def close(self) -> None:
        self.stream.close()


# --- the answer, as the text propose reads ---------------------------------------------


def reply_text(body: bytes) -> str:
    """The text ``propose`` is handed for a chat-completions ``body``; EndpointFailed if it is not one.

    The first choice's message counts. Its ``tool_calls``, if it has any,
    become ``{"proposals": [...]}``, one proposal per call in order (the
    message's text beside them is not read); otherwise its text is the reply,
    as it stands ("" for none). Everything inside a tool call is handed on
    for ``propose`` and the door to judge, whatever it holds.
    """
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as error:
        raise EndpointFailed(f"the answer is not JSON ({described(error)})") from None
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict) \
            or not isinstance(choices[0].get("message"), dict):
        raise EndpointFailed("the answer is not a chat completion: it has no choices[0].message object")
    message = choices[0]["message"]
    calls, content = message.get("tool_calls"), message.get("content")
    if not calls:
        if content is None or isinstance(content, str):
            return content or ""
        raise EndpointFailed(f"the message's content is {type(content).__name__}, not text")
    if not isinstance(calls, list):
        raise EndpointFailed(f"the message's tool_calls is {type(calls).__name__}, not a list")
    try:
        return json.dumps({"proposals": [proposal_of(number, call) for number, call in enumerate(calls, 1)]},
                          ensure_ascii=False)
    except RecursionError:
        raise EndpointFailed("a tool call is nested too deeply to write out") from None


def answered_by(body: bytes) -> str:
    """The name a chat-completions ``body`` gives the model that answered (its ``model`` field); "" for none.

    Read only from a body ``reply_text`` has accepted. The endpoint writes it:
    it names the model the endpoint says it ran, which is not always the name
    it was asked for (an alias, a version), and nothing checks it.
    """
    data = json.loads(body)
    model = data.get("model") if isinstance(data, dict) else None
    return model if isinstance(model, str) else ""


def proposal_of(number: int, call: object) -> dict:
    """One tool call as the fields of a proposal, every value as the model wrote it."""
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict):
        raise EndpointFailed(f"tool call {number} has no function object")
    arguments = decoded(function.get("arguments"))
    if not isinstance(arguments, dict):  # no destination can be read from it: the door refuses the arguments
        return {"tool": function.get("name"), "destination": "", "arguments": arguments, "why": ""}
    arguments = dict(arguments)
    proposal = {"tool": function.get("name"), "why": ""}
    for field in RESERVED:
        if field in arguments:
            proposal[field] = arguments.pop(field)
    return {**proposal, "arguments": arguments}


def decoded(arguments: object) -> object:
    """A tool call's arguments: the JSON a string holds, or the string itself when it holds no plain JSON.

    Plain means read one way only: no key twice, no NaN or Infinity. What is
    not plain is kept as the model's own string, for the door to refuse.
    """
    if not isinstance(arguments, str):
        return arguments
    try:
        return json.loads(arguments, object_pairs_hook=_once, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return arguments


def _once(pairs: list[tuple[str, object]]) -> dict:
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError("a key written twice")
    return dict(pairs)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")
