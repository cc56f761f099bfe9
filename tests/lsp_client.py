"""A small language-server client over real stdio JSON-RPC, as an editor talks to `rulec lsp`:
Content-Length framed messages on the server's stdin and stdout, requests built from lsprotocol's
types and answers read back into them. tests/test_lsp.py and benchmarks/lsp.py drive the server
with it.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from lsprotocol import converters, types as lsp

ROOT = Path(__file__).resolve().parent.parent
CONVERTER = converters.get_converter()


def rulec_lsp() -> list[str]:
    """The command an editor runs: the `rulec` script installed beside this Python."""
    script = Path(sys.executable).parent / "rulec"
    return [str(script), "lsp"] if script.exists() else [sys.executable, "-m", "compiler.app.cli", "lsp"]


class Client:
    """`rulec lsp` in a subprocess, and the messages it sent that no one has read yet."""

    def __init__(self, command: list[str] | None = None, cwd: Path = ROOT):
        self.log = tempfile.TemporaryFile()  # the server's stderr: a pipe no one reads would fill
        self.process = subprocess.Popen(
            command or rulec_lsp(), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
        )
        self.next_id = 0
        self.answers: dict[int, dict] = {}
        self.notifications: queue.Queue[dict] = queue.Queue()
        #: the messages the server asked the editor to show
        self.shown: list[dict] = []
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # -- the wire
    def _send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            if "id" in message and "method" not in message:
                with self.lock:
                    self.answers[message["id"]] = message
                    self.lock.notify_all()
            elif "method" in message and "id" in message:
                self._send({"id": message["id"], "result": None})  # a request of the server's: accepted
            elif message.get("method") == lsp.WINDOW_SHOW_MESSAGE:
                self.shown.append(message["params"])  # pygls reports a handler's exception so
            else:
                self.notifications.put(message)

    # -- requests and notifications
    def request(self, method: str, params, result_type=None, timeout: float = 30.0):
        """Send a request and wait for its answer; the result read into `result_type` if given."""
        self.next_id += 1
        number = self.next_id
        self._send({"id": number, "method": method, "params": CONVERTER.unstructure(params)})
        deadline = time.monotonic() + timeout
        with self.lock:
            while number not in self.answers:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer to {method} in {timeout} s")
                self.lock.wait(left)
            answer = self.answers.pop(number)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        result = answer.get("result")
        return CONVERTER.structure(result, result_type) if result_type is not None and result is not None else result

    def notify(self, method: str, params) -> None:
        self._send({"method": method, "params": CONVERTER.unstructure(params)})

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = 30.0) -> list[lsp.Diagnostic]:
        """The next diagnostics the server publishes for `uri`, of its text at `version` if given
        (others are dropped)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no diagnostics for {uri} in {timeout} s")
            try:
                message = self.notifications.get(timeout=left)
            except queue.Empty:
                continue
            if message.get("method") == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS and message["params"]["uri"] == uri:
                params = CONVERTER.structure(message["params"], lsp.PublishDiagnosticsParams)
                if version is None or params.version == version:
                    return params.diagnostics

    # -- the session
    def initialize(self, root: Path = ROOT) -> lsp.InitializeResult:
        result = self.request(lsp.INITIALIZE, lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), process_id=None, root_uri=root.as_uri()),
            lsp.InitializeResult)
        self.notify(lsp.INITIALIZED, lsp.InitializedParams())
        return result

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify(lsp.TEXT_DOCUMENT_DID_OPEN, lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="rulespec", version=version, text=text)))

    def change(self, uri: str, version: int, text: str, at: lsp.Range | None = None) -> None:
        """Replace the range `at` with `text` (the whole document when `at` is None)."""
        change = (lsp.TextDocumentContentChangeWholeDocument(text=text) if at is None
                  else lsp.TextDocumentContentChangePartial(range=at, text=text))
        self.notify(lsp.TEXT_DOCUMENT_DID_CHANGE, lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [change]))

    def stderr(self) -> str:
        """What the server wrote on its stderr so far."""
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def close(self) -> int:
        """Shut the server down as an editor does; its exit code."""
        try:
            self.request(lsp.SHUTDOWN, None, timeout=10)
            self.notify(lsp.EXIT, None)
            return self.process.wait(timeout=10)
        except (TimeoutError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            return self.process.wait()
        finally:
            self.log.close()
