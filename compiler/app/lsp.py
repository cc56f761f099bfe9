"""`rulec lsp`: a language server for rulespecs over stdio (pygls, lsprotocol).

The server keeps a `Workspace` (compiler.app.lsp_workspace): the rulespecs on disk and the documents
the editor has open. Each change re-parses the document, resolves and checks the titles built from
the open documents, and publishes their diagnostics with `rulec check`'s codes, spans and help.
Hover, definition, references, completion and document symbols are answered by
`compiler.app.lsp_features`. This module only converts between the protocol and those two: positions
(the editor's are 0-based and count UTF-16 code units; a `Span`'s count characters from 1), paths
and URIs, and the answers' types.

Changes are coalesced: the analysis of a document runs once the messages already received are
handled, on its newest text, so a burst of keystrokes is analysed once.
"""

from __future__ import annotations

import asyncio
import gc
import re
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import from_fs_path, to_fs_path

from compiler import __version__
from compiler.app import lsp_features as features
from compiler.diagnostics import Diagnostic, Severity, Span
from compiler.app.lsp_workspace import Workspace

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.NOTE: lsp.DiagnosticSeverity.Information,
}

_COMPLETION_KIND = {
    "property": lsp.CompletionItemKind.Property,
    "value": lsp.CompletionItemKind.EnumMember,
    "section": lsp.CompletionItemKind.Reference,
    "clause": lsp.CompletionItemKind.Reference,
    "builtin": lsp.CompletionItemKind.Function,
    "kind": lsp.CompletionItemKind.Class,
}

_SYMBOL_KIND = {
    "unit": lsp.SymbolKind.Module,
    "section": lsp.SymbolKind.String,
    "component": lsp.SymbolKind.Object,
    "overlay": lsp.SymbolKind.Object,
    "action": lsp.SymbolKind.Method,
    "procedure": lsp.SymbolKind.Function,
    "function": lsp.SymbolKind.Function,
    "trigger": lsp.SymbolKind.Event,
    "table": lsp.SymbolKind.Struct,
    "param": lsp.SymbolKind.Property,
    "property": lsp.SymbolKind.Field,
    "enum": lsp.SymbolKind.Enum,
    "kind": lsp.SymbolKind.Interface,
    "invariant": lsp.SymbolKind.Boolean,
    "sanction": lsp.SymbolKind.Boolean,
    "cite": lsp.SymbolKind.Key,
}


#: what `RulecProtocol.structure_message` reads a request it has answered as: nothing to handle
_ANSWERED = object()


class RulecProtocol(LanguageServerProtocol):
    """pygls's protocol, but a request whose params do not read as the protocol's (a position's line
    of -1, no document) is answered with JSON-RPC's invalid params, naming the field: pygls failed
    the whole message, logged a traceback, showed "Error in server" and left the request unanswered,
    the editor waiting for ever. A notification whose params do not read (a didChange with no
    document) has no answer: it is said in one line on stderr and ignored."""

    def structure_message(self, data: dict):
        if not (isinstance(data, dict) and "jsonrpc" in data and "method" in data
                and "error" not in data and "result" not in data):
            return super().structure_message(data)
        from cattrs import transform_error
        from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage

        request = "id" in data
        message_type = self.get_message_type(data["method"]) or (
            JsonRPCRequestMessage if request else JsonRPCNotification)
        try:
            return self._converter.structure(data, message_type)
        except Exception as exc:  # noqa: BLE001 - cattrs' ClassValidationError, or what a converter raised
            try:
                why = "; ".join(transform_error(exc, path="")) if hasattr(exc, "exceptions") else str(exc)
                # the fields as the protocol spells them (textDocument), not as lsprotocol's classes do
                why = re.sub(r"@ \S+", lambda m: re.sub(r"_([a-z])", lambda c: c[1].upper(), m[0]), why)
            except Exception:  # noqa: BLE001 - the reading of cattrs' error failed: its own words
                why = str(exc)
            message = f"{data['method']}: the params do not read as the protocol's: {why}"
            if request:
                self._send_response(data["id"], error=lsp.ResponseError(
                    code=lsp.ErrorCodes.InvalidParams, message=message))
            else:
                # a notification has no answer: said on the server's log (the editor's output channel),
                # as pygls's traceback and "Error in server" window were, in one line, and ignored
                print(f"rulec lsp: a notification ignored: {message}", file=sys.stderr, flush=True)
            return _ANSWERED

    def handle_message(self, message) -> None:
        if message is not _ANSWERED:
            super().handle_message(message)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams):
        """A change of a document the editor never opened (a client's slip) is said on stderr and
        ignored: pygls's workspace met it as a KeyError, shown in a window as an error in the server."""
        from urllib.parse import unquote

        uri = params.text_document.uri
        if unquote(uri) not in self.workspace.text_documents and uri not in self.workspace.text_documents:
            print(f"rulec lsp: a change of {uri}, which is not open, ignored", file=sys.stderr, flush=True)
            return
        yield from super().lsp_text_document__did_change(params)


class RulecServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulec", __version__, protocol_cls=RulecProtocol)
        self.rulespecs: Workspace | None = None
        self.pending: set[str] = set()
        self.opened: dict[str, str] = {}  # display path -> the uri the editor named it by

    def load(self) -> None:
        """Read every rulespec, once. The syntax read is kept for the session: the collector is
        told to leave it be (`gc.freeze`), or each edit's garbage has it walked again (on
        18co.rules, the slowest of 16 new-line edits: 0.42 s walked, 0.25 s left be)."""
        if self.rulespecs is None:
            self.rulespecs = Workspace()
            gc.freeze()

    # -- paths and positions
    def shown(self, uri: str) -> str:
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return self.rulespecs.display(Path(path)) if path else uri

    def uri(self, shown: str) -> str:
        path = self.rulespecs.path_of(shown)
        return from_fs_path(str(path.resolve())) if path is not None else shown

    def position_in(self, shown: str, position: lsp.Position) -> tuple[int, int]:
        """An editor's position as (line, column) from 1, in characters."""
        line = self._line(shown, position.line + 1)
        units = 0
        for index, char in enumerate(line):
            if units >= position.character:
                return position.line + 1, index + 1
            units += 2 if ord(char) > 0xFFFF else 1
        return position.line + 1, len(line) + 1

    def range_of(self, span: Span) -> lsp.Range:
        if span is None or span.line <= 0:
            return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
        return lsp.Range(self._position(span.path, span.line, span.column),
                         self._position(span.path, span.end_line, span.end_column))

    def location(self, span: Span) -> lsp.Location:
        return lsp.Location(uri=self.uri(span.path), range=self.range_of(span))

    def _position(self, shown: str, line: int, column: int) -> lsp.Position:
        text = self._line(shown, line)[:max(0, column - 1)]
        return lsp.Position(line - 1, len(text.encode("utf-16-le")) // 2)

    def _line(self, shown: str, line: int) -> str:
        return self.rulespecs.line(shown, line)

    # -- diagnostics
    def diagnostic(self, found: Diagnostic) -> lsp.Diagnostic:
        message = found.message
        if found.expected:
            message += "\nexpected: " + ", ".join(found.expected)
        if found.help:
            message += "\nhelp: " + found.help
        related = [lsp.DiagnosticRelatedInformation(self.location(span), note)
                   for span, note in found.notes if span is not None and span.line > 0]
        return lsp.Diagnostic(
            range=self.range_of(found.span), message=message, severity=_SEVERITY[found.severity],
            code=found.code, source="rulec", related_information=related or None,
            data={"suggestions": list(found.suggestions)} if found.suggestions else None,
        )

    def publish(self) -> None:
        by_path = self.rulespecs.analyse()
        for shown, found in by_path.items():
            uri = self.opened.get(shown) or self.uri(shown)
            version = self.workspace.text_documents[uri].version if uri in self.workspace.text_documents else None
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=uri, diagnostics=[self.diagnostic(d) for d in found], version=version))

    def changed(self, uri: str) -> None:
        """A document was opened or changed: analyse the open documents once the messages that
        came with it are handled (or before a request about them is answered)."""
        if not self.pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self.pending.add(uri)

    def flush(self) -> None:
        """Parse the documents changed since the last analysis, analyse, publish."""
        if not self.pending:
            return
        pending, self.pending = self.pending, set()
        for uri in pending:
            document = self.workspace.get_text_document(uri)
            path = to_fs_path(uri) if uri.startswith("file:") else None
            shown = self.shown(uri)
            self.opened[shown] = uri
            self.rulespecs.set_text(shown, document.source, Path(path) if path else None)
        self.publish()

    def at(self, params) -> tuple[str, int, int]:
        """The display path and (line, column) of a request's position, with every change analysed."""
        self.flush()
        shown = self.shown(params.text_document.uri)
        return (shown, *self.position_in(shown, params.position))


server = RulecServer()


@server.feature(lsp.INITIALIZED)
def _initialized(ls: RulecServer, params: lsp.InitializedParams) -> None:
    ls.load()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def _did_open(ls: RulecServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.load()
    ls.changed(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def _did_change(ls: RulecServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.changed(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def _did_close(ls: RulecServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.flush()
    ls.rulespecs.close(ls.shown(params.text_document.uri))
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))
    if ls.rulespecs.open:
        ls.publish()  # a map overlay closed is no longer applied to its title: the others' change


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def _files_changed(ls: RulecServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    """Rulespecs changed on disk: read them again, and analyse the open documents anew."""
    changed = [event.uri for event in params.changes if event.uri.endswith(".rules") and event.uri.startswith("file:")]
    if not changed or ls.rulespecs is None:
        return
    ls.flush()
    for uri in changed:
        ls.rulespecs.reread(Path(to_fs_path(uri)))
    ls.publish()


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def _hover(ls: RulecServer, params: lsp.HoverParams) -> lsp.Hover | None:
    found = features.hover(ls.rulespecs, *ls.at(params))
    if found is None:
        return None
    text, span = found
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text), range=ls.range_of(span))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def _definition(ls: RulecServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    return [ls.location(span) for span in features.definition(ls.rulespecs, *ls.at(params))]


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def _references(ls: RulecServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    return [ls.location(span) for span in features.references(ls.rulespecs, *ls.at(params))]


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["§", ":"]))
def _completion(ls: RulecServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    items = []
    for found in features.completion(ls.rulespecs, *ls.at(params)):
        edit = lsp.TextEdit(ls.range_of(found.span), found.label) if found.span is not None else None
        documentation = lsp.MarkupContent(lsp.MarkupKind.Markdown, found.documentation) if found.documentation else None
        items.append(lsp.CompletionItem(label=found.label, kind=_COMPLETION_KIND[found.kind], detail=found.detail,
                                        documentation=documentation, text_edit=edit, filter_text=found.label))
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def _symbols(ls: RulecServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    ls.flush()
    shown = ls.shown(params.text_document.uri)

    def convert(symbol: features.Symbol) -> lsp.DocumentSymbol:
        return lsp.DocumentSymbol(
            name=symbol.name, kind=_SYMBOL_KIND.get(symbol.kind, lsp.SymbolKind.Field), detail=symbol.detail,
            range=ls.range_of(symbol.span), selection_range=ls.range_of(symbol.selection),
            children=[convert(child) for child in symbol.children] or None)

    return [convert(symbol) for symbol in features.symbols(ls.rulespecs, shown)]


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION)
def _code_actions(ls: RulecServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """"did you mean": a diagnostic's suggestions, each as a fix replacing the diagnostic's span."""
    out = []
    for diagnostic in params.context.diagnostics:
        data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
        for suggestion in data.get("suggestions", []):
            edit = lsp.WorkspaceEdit(changes={params.text_document.uri: [lsp.TextEdit(diagnostic.range, suggestion)]})
            out.append(lsp.CodeAction(title=f"Replace with `{suggestion}`", kind=lsp.CodeActionKind.QuickFix,
                                      diagnostics=[diagnostic], edit=edit))
    return out


def main() -> int:
    """Serve on stdin and stdout until the editor shuts the server down."""
    server.start_io()
    return 0
