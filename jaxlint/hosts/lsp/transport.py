"""The LSP base protocol over stdio, robust to a misbehaving client.

pygls' own read loop loses its place for good after one malformed header (``Content-Length: abc``)
and answers nothing more, not even ``shutdown``; and a request whose params do not fit the method
gets no response, where JSON-RPC requires an error. This loop finds the next header again after
any garbage, bounds message sizes, and answers every request it cannot take with a JSON-RPC error.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Awaitable
from typing import Any, Protocol

from lsprotocol.types import ResponseError
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
)
from pygls.protocol import JsonRPCProtocol

logger = logging.getLogger(__name__)


class _OneLineDeserialisationErrors(logging.Filter):
    """pygls logs a message it cannot read with the whole cattrs traceback; an editor's log
    gets the error's own line (the request itself is answered with a JSON-RPC error)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if (
            record.msg == "Unable to deserialize message\n%s"
            and isinstance(record.args, tuple)
            and record.args
        ):
            said = [line.lstrip(" |") for line in str(record.args[0]).splitlines()]
            errors = [line for line in said if _ERROR_LINE.match(line)]
            record.msg, record.args = "cannot read a message: %s", (errors[0] if errors else "",)
        return True


_ERROR_LINE = re.compile(r"[\w.]*(Error|Exception)\w*: ")


logging.getLogger("pygls.protocol.json_rpc").addFilter(_OneLineDeserialisationErrors())

HEADER = re.compile(rb"Content-Length:[ \t]*(\S*)[ \t]*\r?\n?$", re.IGNORECASE)
MAX_MESSAGE_BYTES = 256 * 1024 * 1024  # a larger announced length is treated as garbage


class AsyncReader(Protocol):
    def readline(self) -> Awaitable[bytes]: ...

    def readexactly(self, n: int) -> Awaitable[bytes]: ...


async def read_messages(stop: threading.Event, reader: AsyncReader, protocol: JsonRPCProtocol) -> None:
    """Read framed messages until the input ends or ``stop`` is set, handing each to ``protocol``."""
    length: int | None = None
    while not stop.is_set():
        line = await reader.readline()
        if not line:
            break
        header = HEADER.search(line)  # found after garbage too: that is how the loop resynchronises
        if header is not None:
            length = _length(header.group(1))
            continue
        if line.strip():
            continue  # another header (Content-Type), or garbage between messages
        if length is None:
            continue  # the end of a header block without a usable length: wait for the next one
        body = await reader.readexactly(length)
        length = None
        if not body:
            break
        handle(protocol, body)


def _length(text: bytes) -> int | None:
    if not text.isdigit():
        logger.error("malformed Content-Length header %r: waiting for the next message", text[:40])
        return None
    value = int(text)
    return value if 0 < value <= MAX_MESSAGE_BYTES else None


def handle(protocol: JsonRPCProtocol, body: bytes) -> None:
    """Hand one message to ``protocol``; a request it cannot take gets a JSON-RPC error reply."""
    try:
        raw: Any = json.loads(body)
    except (ValueError, RecursionError):
        _reply_error(protocol, None, JsonRpcParseError())
        return
    if not isinstance(raw, dict) or raw.get("jsonrpc") != "2.0":  # a batch, a number, no version
        _reply_invalid(protocol, raw)
        return
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except JsonRpcException as error:
        _reply_error(protocol, raw, error)
        return
    except Exception as error:
        logger.error("cannot read message: %r", error)
        _reply_error(protocol, raw, JsonRpcInternalError())
        return
    protocol.handle_message(message)


def _reply_invalid(protocol: JsonRPCProtocol, raw: Any) -> None:
    """JSON-RPC's answer to what is not a request object: Invalid Request, with its id if it has one."""
    message_id = raw.get("id") if isinstance(raw, dict) else None
    _send_error(protocol, message_id if isinstance(message_id, int | str) else None, JsonRpcInvalidRequest())


def _reply_error(protocol: JsonRPCProtocol, raw: Any, error: JsonRpcException) -> None:
    """An error response to ``raw`` if it is a request (it has an id and a method)."""
    message_id = raw.get("id") if isinstance(raw, dict) and "method" in raw else None
    if raw is not None and not isinstance(message_id, int | str):
        logger.error("dropped a notification that cannot be read: %s", error.message)
        return
    _send_error(protocol, message_id, error)


def _send_error(protocol: JsonRPCProtocol, message_id: int | str | None, error: JsonRpcException) -> None:
    protocol._send_response(  # pyright: ignore[reportPrivateUsage]
        message_id,  # pyright: ignore[reportArgumentType]
        error=ResponseError(code=error.code, message=error.message),
    )
