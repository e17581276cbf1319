"""Editor latency: a scripted LSP client edits a document and times each new set of diagnostics.

A minimal JSON-RPC client over the server's stdio (no dependencies), so the measurement
includes what an editor sees: framing, the server's queue, the lint and the publish.
"""

from __future__ import annotations

import ast
import json
import queue
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


class Client:
    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            headers: dict[str, str] = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode()
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        stdin.flush()

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.messages.get(timeout=60)
            if message.get("id") == self.next_id and "method" not in message:
                return message.get("result")

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics_for(self, uri: str, version: int) -> list[Any]:
        while True:
            message = self.messages.get(timeout=60)
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                if params["uri"] == uri and params.get("version") == version:
                    return params["diagnostics"]


def measure(command: list[str], source: str, edits: int) -> dict[str, float]:
    """Open ``source``, then type ``edits`` keystrokes into it; latency percentiles in milliseconds.

    The keystrokes are what an editor sends while someone types a comment at the end of a line in
    the middle of the file: one character per change, and every tenth an Enter that starts a new
    comment line. Changes are incremental (a range and its new text) when the server asks for
    incremental sync, as editors do, else the whole text."""
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        path = root / "module.py"
        path.write_text(source, encoding="utf-8")
        client = Client(command)
        try:
            result = client.request(
                "initialize",
                {
                    "processId": None,
                    "rootUri": root.as_uri(),
                    "capabilities": {},
                    "initializationOptions": {"debounceMs": 0},
                },
            )
            incremental = _sync_kind(result) == INCREMENTAL_SYNC
            client.notify("initialized", {})
            uri = path.as_uri()
            client.notify(
                "textDocument/didOpen",
                {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": source}},
            )
            client.diagnostics_for(uri, 1)
            typist = Typist(source)
            latencies = []
            for number in range(edits):
                version = number + 2
                change = typist.keystroke(number)
                start = time.perf_counter()
                client.notify(
                    "textDocument/didChange",
                    {
                        "textDocument": {"uri": uri, "version": version},
                        "contentChanges": [change if incremental else {"text": typist.text}],
                    },
                )
                client.diagnostics_for(uri, version)
                latencies.append((time.perf_counter() - start) * 1000)
            client.request("shutdown", None)
            client.notify("exit", None)
        finally:
            client.process.kill()
    ordered = sorted(latencies)
    return {
        "lines": float(source.count("\n") + 1),
        "edits": float(edits),
        "p50": statistics.median(ordered),
        "p95": ordered[max(0, round(0.95 * len(ordered)) - 1)],
    }


INCREMENTAL_SYNC = 2


def _sync_kind(initialize_result: Any) -> int:
    sync = (initialize_result or {}).get("capabilities", {}).get("textDocumentSync")
    return sync.get("change", 0) if isinstance(sync, dict) else int(sync or 0)


class Typist:
    """Types a comment at the end of the line nearest the middle of the file where one fits."""

    def __init__(self, source: str) -> None:
        self.lines = source.split("\n")
        self.row = _typing_row(self.lines)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def keystroke(self, number: int) -> dict[str, Any]:
        """The change for keystroke ``number`` (an LSP content change with a UTF-16 range)."""
        line = self.lines[self.row]
        at = {"line": self.row, "character": len(line.encode("utf-16-le")) // 2}
        if number % 10 == 9:  # Enter, then the new line's comment sign
            typed = "\n#"
            self.row += 1
            self.lines.insert(self.row, "#")
        else:
            typed = ("" if number else "  #") + "abcdefghijklmnopqrstuvwxyz"[number % 26]
            self.lines[self.row] = line + typed
        return {"range": {"start": at, "end": at}, "text": typed}


def _typing_row(lines: list[str]) -> int:
    """The row nearest the middle where a trailing comment (and new comment lines) keep the
    file parsing: not a line continued with a backslash."""
    middle = len(lines) // 2
    for row in sorted(range(len(lines)), key=lambda r: abs(r - middle)):
        if lines[row].rstrip().endswith("\\"):
            continue
        trial = [*lines[:row], lines[row] + "  #x", "#", *lines[row + 1 :]]
        try:
            ast.parse("\n".join(trial))
        except SyntaxError:
            continue
        return row
    raise ValueError("no line to type into")
