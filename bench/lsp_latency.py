"""Editor latency: a scripted LSP client edits a document and times each new set of diagnostics.

A minimal JSON-RPC client over the server's stdio (no dependencies), so the measurement
includes what an editor sees: framing, the server's queue, the lint and the publish.
"""

from __future__ import annotations

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
    """Open ``source``, then edit it ``edits`` times; latency percentiles in milliseconds."""
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        path = root / "module.py"
        path.write_text(source, encoding="utf-8")
        client = Client(command)
        try:
            client.request(
                "initialize",
                {
                    "processId": None,
                    "rootUri": root.as_uri(),
                    "capabilities": {},
                    "initializationOptions": {"debounceMs": 0},
                },
            )
            client.notify("initialized", {})
            uri = path.as_uri()
            client.notify(
                "textDocument/didOpen",
                {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": source}},
            )
            client.diagnostics_for(uri, 1)
            latencies = []
            for number in range(edits):
                version = number + 2
                text = source + f"\n# edit {number}\n"
                start = time.perf_counter()
                client.notify(
                    "textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
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
