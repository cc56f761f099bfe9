"""`rulec lsp` driven as an editor drives it: a subprocess, JSON-RPC over its stdin and stdout
(tests/lsp_client.py), one server for the module. Hover, definition, references, completion and
symbols are asked about the toy title (tests/fixtures/toy/toy.rules) and the rulespecs; what
`rulec check` would say of the same text is the oracle of the diagnostics.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as lsp  # noqa: E402

from compiler.lang import syntax as s  # noqa: E402
from compiler.paths import ROOT  # noqa: E402
from tests.conftest import TOY, check_source  # noqa: E402
from tests.lsp_client import Client  # noqa: E402

TOY_PATH = TOY / "toy.rules"
TOY_URI = TOY_PATH.as_uri()
TOY_TEXT = TOY_PATH.read_text(encoding="utf-8")
#: the toy with one mistake: a misspelt parameter (E024), which leaves `cert_limit` unset (E027)
MISTAKE = TOY_TEXT.replace("  cert_limit: 2 §2", "  cert_limt: 2 §2")
LIBRARY = ROOT / "rulespecs" / "lib" / "18xx.rules"

#: one worker runs the module, so that one server serves it
pytestmark = pytest.mark.xdist_group("lsp")


@pytest.fixture(scope="module")
def server():
    client = Client()
    client.capabilities = client.initialize().capabilities
    client.open(TOY_URI, MISTAKE)
    client.opened = client.diagnostics(TOY_URI, 1)
    yield client
    log = client.stderr()
    assert client.close() == 0
    assert "Traceback" not in log, log
    assert client.shown == []


def _at(text: str, line_start: str, word: str, nth: int = 0) -> lsp.Position:
    """The position of `word` on the `nth` line of `text` that starts (stripped) with `line_start`."""
    lines = [i for i, line in enumerate(text.split("\n")) if line.strip().startswith(line_start)]
    number = lines[nth]
    return lsp.Position(number, text.split("\n")[number].index(word) + 1)


def _document(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


def test_initialize_advertises_the_features(server):
    caps = server.capabilities
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.document_symbol_provider
    assert "§" in caps.completion_provider.trigger_characters


def test_a_mistake_gives_the_diagnostics_of_rulec_check(server):
    shown = "tests/fixtures/toy/toy.rules"
    expected = [d for d in check_source(MISTAKE, shown, with_library=True).diagnostics if d.span.path == shown]
    got = server.opened
    assert [d.code for d in got] == [d.code for d in expected]
    assert {d.code for d in got} >= {"E024", "E027"}
    for ours, theirs in zip(got, expected):
        assert (ours.range.start.line + 1, ours.range.start.character + 1) == (theirs.span.line, theirs.span.column)
        assert (ours.range.end.line + 1, ours.range.end.character + 1) == (theirs.span.end_line, theirs.span.end_column)
        assert ours.message.startswith(theirs.message)
        assert theirs.help is None or f"help: {theirs.help}" in ours.message
    misspelt = next(d for d in got if d.code == "E024")
    line = MISTAKE.split("\n").index("  cert_limt: 2 §2")
    assert misspelt.range == lsp.Range(lsp.Position(line, 2), lsp.Position(line, 11))
    assert misspelt.severity == lsp.DiagnosticSeverity.Error and misspelt.source == "rulec"


def test_a_quick_fix_offers_the_nearest_name(server):
    misspelt = next(d for d in server.opened if d.code == "E024")
    actions = server.request(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionParams(
        _document(TOY_URI), misspelt.range, lsp.CodeActionContext(diagnostics=[misspelt])), list[lsp.CodeAction])
    assert actions[0].edit.changes[TOY_URI][0].new_text == "cert_limit"


def test_hover_on_a_property_gives_the_library_parameter(server):
    hover = server.request(lsp.TEXT_DOCUMENT_HOVER, lsp.HoverParams(
        _document(TOY_URI), _at(MISTAKE, "first_round:", "first_round")), lsp.Hover)
    text = hover.contents.value
    assert "param first_round: {private_sale, draft, auction, open_auction, stock} required" in text
    assert "how the game opens" in text  # the parameter's meaning, from rulespecs/lib/18xx.rules
    assert "`open_auction`" in text  # its allowed values
    assert text.endswith("Cited:\n\n- §1 Setup")  # the clause's citation, with the section's heading


def test_hover_on_a_citation_gives_the_section_heading(server):
    hover = server.request(lsp.TEXT_DOCUMENT_HOVER, lsp.HoverParams(
        _document(TOY_URI), _at(MISTAKE, "float:", "§2")), lsp.Hover)
    assert hover.contents.value.startswith("**§2** Shares")


def test_hover_on_a_component_gives_its_citations(server):
    hover = server.request(lsp.TEXT_DOCUMENT_HOVER, lsp.HoverParams(
        _document(TOY_URI), _at(MISTAKE, "corporation TOY", "TOY")), lsp.Hover)
    assert "corporation TOY" in hover.contents.value and "- §2 Shares" in hover.contents.value


def test_definition_of_a_property_is_its_parameter_in_the_library(server):
    found = server.request(lsp.TEXT_DOCUMENT_DEFINITION, lsp.DefinitionParams(
        _document(TOY_URI), _at(MISTAKE, "holding_cap:", "holding_cap")), list[lsp.Location])
    assert len(found) == 1 and found[0].uri == LIBRARY.as_uri()
    line = LIBRARY.read_text(encoding="utf-8").split("\n")[found[0].range.start.line]
    assert line.strip().startswith("param holding_cap:")
    assert line[found[0].range.start.character:found[0].range.end.character] == "holding_cap"


def test_references_of_a_parameter_across_the_workspace(server):
    found = server.request(lsp.TEXT_DOCUMENT_REFERENCES, lsp.ReferenceParams(
        context=lsp.ReferenceContext(True), text_document=_document(TOY_URI),
        position=_at(MISTAKE, "holding_cap:", "holding_cap")),
        list[lsp.Location])
    files = {Path(location.uri).name for location in found}
    assert {"toy.rules", "18xx.rules", "1846.rules", "18co.rules"} <= files


def test_completion_of_a_value_inside_a_property(server):
    position = _at(MISTAKE, "first_round:", "stock")
    found = server.request(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionParams(
        _document(TOY_URI), lsp.Position(position.line, position.character - 1)), lsp.CompletionList)
    labels = [item.label for item in found.items]
    assert labels == ["private_sale", "draft", "auction", "open_auction", "stock"]


def test_completion_of_a_property_name_inside_a_component(server):
    found = server.request(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionParams(
        _document(TOY_URI), _at(MISTAKE, "float: 60%", "float")), lsp.CompletionList)
    labels = [item.label for item in found.items]
    # the corporation kind's parameters the component does not set yet, `f...`
    assert "float" not in labels and labels and all(label.startswith("f") for label in labels)


def test_completion_of_a_section_citation(server):
    position = _at(MISTAKE, "bid_step:", "§2")
    found = server.request(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionParams(
        _document(TOY_URI), lsp.Position(position.line, position.character)), lsp.CompletionList)
    assert [(item.label, item.detail) for item in found.items] == [
        ("§1", "Setup"), ("§2", "Shares"), ("§3", "Operating"), ("§4", "End"), ("§5", "Map")]


def test_document_symbols_outline_sections_and_components(server):
    found = server.request(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, lsp.DocumentSymbolParams(_document(TOY_URI)),
                           list[lsp.DocumentSymbol])
    assert found[0].name == 'title "Toy"'
    names = [child.name for child in found[0].children]
    assert "§2 Shares" in names and "corporation TOY" in names and 'train "2"' in names


@pytest.fixture(scope="module")
def reading(server):
    """18CO's 18xx.games reading (an erratum of 18CO), open: its path, text and diagnostics."""
    path = ROOT / "rulespecs" / "18co-18xx-games.rules"
    text = path.read_text(encoding="utf-8")
    server.open(path.as_uri(), text)
    return path, text, server.diagnostics(path.as_uri(), 1)


def test_overlay_definition_goes_to_the_clause_it_replaces(server, reading):
    path, text, found = reading
    assert [d for d in found if d.severity == lsp.DiagnosticSeverity.Error] == []
    found = server.request(lsp.TEXT_DOCUMENT_DEFINITION, lsp.DefinitionParams(
        _document(path.as_uri()), _at(text, "replace private_draw", "private_draw")), list[lsp.Location])
    assert [Path(location.uri).name for location in found] == ["18co.rules"]
    line = (ROOT / "rulespecs" / "18co.rules").read_text(encoding="utf-8").split("\n")[found[0].range.start.line]
    assert line.strip().startswith("private_draw:")


def test_hover_on_a_builtin_gives_its_signature(server, reading):
    path, text, _ = reading
    hover = server.request(lsp.TEXT_DOCUMENT_HOVER, lsp.HoverParams(
        _document(path.as_uri()), _at(text, "= step == lay_tile", "lays_left")), lsp.Hover)
    assert hover.contents.value.startswith("```rulespec\nlays_left()\n```\n\nbuiltin: ")


def test_definition_of_a_routine_parameter(server, reading):
    path, text, _ = reading
    found = server.request(lsp.TEXT_DOCUMENT_DEFINITION, lsp.DefinitionParams(
        _document(path.as_uri()), _at(text, "= step == lay_tile", "corporation")), list[lsp.Location])
    lines = text.split("\n")
    assert [(lines[f.range.start.line].strip()[:18], f.range.start.character) for f in found] == [
        ("function step_held", lines[found[0].range.start.line].index("corporation:"))]


def test_a_map_overlay_resolves_of_its_title(server):
    path = ROOT / "tests" / "fixtures" / "18gj_test_map.rules"
    server.open(path.as_uri(), path.read_text(encoding="utf-8"))
    found = server.diagnostics(path.as_uri())
    assert [d.code for d in found if d.severity == lsp.DiagnosticSeverity.Error] == []


@pytest.mark.parametrize("params, says", [
    ({"textDocument": {"uri": TOY_URI}, "position": {"line": -1, "character": 0}}, "@ .params.position"),
    ({"textDocument": {"uri": TOY_URI}, "position": {"line": 0, "character": "a"}}, "@ .params.position.character"),
    ({"position": {"line": 0, "character": 0}}, "required field missing @ .params.textDocument"),
    (None, "params"),
])
def test_a_request_whose_params_do_not_read_is_answered_with_an_error(server, params, says):
    """A hover whose position had a negative line, or no document, was never answered (the editor
    waited for ever): pygls failed to read the message as a whole, logged a traceback and showed
    "Error in server: Invalid Params" in a window. It is answered with JSON-RPC's invalid params
    (-32602), saying which field, and the server goes on (the fixture checks no traceback, nothing shown)."""
    server.next_id += 1
    number = server.next_id
    server._send({"id": number, "method": lsp.TEXT_DOCUMENT_HOVER, "params": params})
    with server.lock:
        server.lock.wait_for(lambda: number in server.answers, timeout=15)
        answer = server.answers.pop(number, None)
    assert answer is not None, "no answer"
    assert answer["error"]["code"] == -32602 and says in answer["error"]["message"], answer
    position = _at(MISTAKE, "first_round:", "first_round")
    assert server.request(lsp.TEXT_DOCUMENT_HOVER, lsp.HoverParams(_document(TOY_URI), position),
                          lsp.Hover) is not None


@pytest.mark.parametrize("method, params, says", [
    (lsp.TEXT_DOCUMENT_DID_CHANGE, {"textDocument": {"uri": 5}, "contentChanges": []}, "textDocument"),
    (lsp.TEXT_DOCUMENT_DID_OPEN, {"textDocument": {"uri": "file:///x.rules"}}, "textDocument"),
    (lsp.TEXT_DOCUMENT_DID_SAVE, None, "params"),
])
def test_a_notification_whose_params_do_not_read_is_logged_and_ignored(method, params, says):
    """A didChange whose document's uri was a number (or a didOpen with no text) has no answer to give:
    pygls logged a traceback of cattrs' error and showed "Error in server: Invalid Params" in a window.
    It is said in one line on the server's log, and the server goes on. A server of its own: the module's
    checks no traceback only at its end."""
    client = Client()
    try:
        client.initialize()
        client._send({"method": method, "params": params})
        client.open(TOY_URI, MISTAKE)
        assert [d.code for d in client.diagnostics(TOY_URI, 1)] == [d.code for d in _server_codes()]
        log = client.stderr()
    finally:
        assert client.close() == 0
    assert "Traceback" not in log and client.shown == [], (log, client.shown)
    (line,) = [x for x in log.splitlines() if "notification ignored" in x]
    assert line.startswith(f"rulec lsp: a notification ignored: {method}: the params do not read") and says in line


def _server_codes():
    shown = "tests/fixtures/toy/toy.rules"
    return [d for d in check_source(MISTAKE, shown, with_library=True).diagnostics if d.span.path == shown]


def test_a_change_of_a_document_never_opened_is_ignored(server):
    """A didChange for a document the editor never opened (a client's slip) showed "Error in server:
    KeyError: 'file:///...'" in a window: pygls's workspace has no such document. It is ignored (said
    on the server's log), and the server goes on."""
    never = "file:///nonexistent/never-opened.rules"
    server.change(never, 2, "title \"X\" {\n}\n")
    position = _at(MISTAKE, "first_round:", "first_round")
    assert server.request(lsp.TEXT_DOCUMENT_HOVER, lsp.HoverParams(_document(TOY_URI), position),
                          lsp.Hover) is not None
    assert server.shown == []
    assert "never-opened.rules" in server.stderr()


def test_a_syntax_error_then_a_fix_of_the_mistake_clears_the_diagnostics(server):
    # a change of one range, as an editor sends it: `holding_cap: 80%` loses its colon
    line = MISTAKE.split("\n").index("  holding_cap: 80% §2")
    server.change(TOY_URI, 2, "", lsp.Range(lsp.Position(line, 13), lsp.Position(line, 14)))
    broken = server.diagnostics(TOY_URI, 2)
    lines = MISTAKE.split("\n")
    lines[line] = "  holding_cap 80% §2"
    shown = "tests/fixtures/toy/toy.rules"
    expected = check_source("\n".join(lines), shown, with_library=True).diagnostics
    assert [d.code for d in broken] == [d.code for d in expected] == ["E002"]
    assert (broken[0].range.start.line + 1, broken[0].range.start.character + 1) == (
        expected[0].span.line, expected[0].span.column)
    # the colon back: the misspelt property's diagnostics again
    server.change(TOY_URI, 3, ":", lsp.Range(lsp.Position(line, 13), lsp.Position(line, 13)))
    assert [d.code for d in server.diagnostics(TOY_URI, 3)] == [d.code for d in server.opened]
    # the mistake fixed, `cert_limt` typed into `cert_limit`: no diagnostic left
    misspelt = MISTAKE.split("\n").index("  cert_limt: 2 §2")
    server.change(TOY_URI, 4, "i", lsp.Range(lsp.Position(misspelt, 10), lsp.Position(misspelt, 10)))
    assert list(server.diagnostics(TOY_URI, 4)) == []


#: edits of the toy, each (what, old text, new text, parsed by the clauses it touches)
EDITS = [
    ("a value", "    price: $200 §3", "    price: $250 + 5 §3, §1", True),
    ("a new line in a clause", "    price: $200 §3", "    price: $200\n      §3", True),
    ("a clause added", '  section §4 "End"', '  tile_lays: 2 §4\n\n  section §4 "End"', True),
    ("a comment between clauses", '  section §4 "End"', '  /* the end */ section §4 "End"', True),
    ("lines taken away", "  final_turns: 0 §3\n  layout: flat §3\n", "", True),
    ("a clause commented out", "  track_off_board: false §3", "  // track_off_board: false §3", True),
    ("a comment running on over the next clause", "  track_off_board: false §3\n  dead_end_colors",
     "  track_off_board: false §3 // and  dead_end_colors", False),
    ("a syntax error", "  layout: flat §3", "  layout flat §3", False),
]


@pytest.mark.parametrize("what, old, new, by_clause", EDITS, ids=[edit[0] for edit in EDITS])
def test_an_edit_parses_as_the_whole_text(what, old, new, by_clause):
    """The workspace parses an edit by parsing only the clauses it touches: the module must be the
    whole parse's, every span included."""
    from compiler.app.lsp_workspace import Workspace
    from compiler.lang.parse import parse_unsaved

    workspace = Workspace([TOY])
    shown = "tests/fixtures/toy/toy.rules"
    workspace.set_text(shown, TOY_TEXT)
    assert old in TOY_TEXT
    edited = TOY_TEXT.replace(old, new, 1)
    document = workspace.set_text(shown, edited)
    assert document.by_clause == by_clause
    whole, found = parse_unsaved(edited, shown)

    def spans(module):
        return [(type(node).__name__, getattr(node, "span", None)) for node in s.walk(module)]

    assert document.module == whole and list(document.syntax) == found
    if whole is not None:
        assert spans(document.module) == spans(whole)


def test_an_open_rulespec_gets_the_diagnostics_of_rulec_check():
    """Only the files a document's titles are built from are resolved and checked: what is said of
    the document is what `rulec check` says of it with every rulespec read (here a variant whose
    `replace` names a clause its title lacks, E012)."""
    from compiler.app.lsp_workspace import Workspace
    from compiler.lang.pipeline import load_texts, rulespec_files
    from compiler import paths

    shown = "rulespecs/1846-two-player.rules"
    workspace = Workspace()
    text = workspace.text(shown).replace("replace holding_cap:", "replace holding_cape:")
    workspace.set_text(shown, text)
    ours = workspace.analyse()[shown]
    texts = {paths.display(path): path.read_text(encoding="utf-8") for path in rulespec_files()}
    texts[shown] = text
    theirs = [d for d in load_texts(texts).diagnostics if d.span is not None and d.span.path == shown]
    assert "E012" in [d.code for d in ours]
    assert ours == theirs
    assert len(workspace.related({shown})) < len(workspace.documents)


def test_a_title_defined_again_in_the_open_document_is_shown_there():
    """A variant's file turned into `title "1800" {}` defines 1800 a second time; `rulec check` says so
    in 1800.rules, whose definition comes second in the files' order, with a note at the open
    document. The editor showed nothing in the document being edited; now the E014 is there too, at
    the note's place, pointing back to where it is reported."""
    from compiler.app.lsp_workspace import Workspace

    shown = "rulespecs/1800-three-player.rules"
    workspace = Workspace()
    workspace.set_text(shown, 'title "1800" {\n  players: 2 §1\n}\n')
    ours = [d for d in workspace.analyse()[shown] if d.code == "E014"]
    assert len(ours) == 1 and ours[0].message == "title '1800' is defined twice"
    assert (ours[0].span.path, ours[0].span.line, ours[0].span.column) == (shown, 1, 7)
    assert ours[0].notes[0][0].path == "rulespecs/1800.rules"


def test_a_map_overlay_of_a_variant_is_checked_on_its_variant():
    """1880 Romania's Amira map (`rulec play "1880 Romania" --variant Amira --map FILE`) fills clauses the
    Amira variant declares and the title lacks: open in the editor, it was checked on the title and
    showed five false E012s ("cannot replace property 'map': the base does not define it"). It is
    checked on the variant where it fits best now: clean, and a real mistake in it still shown alone."""
    from compiler.app.lsp_workspace import Workspace

    shown = "tests/fixtures/1880_amira_test_map.rules"
    text = (ROOT / shown).read_text(encoding="utf-8")
    workspace = Workspace()
    workspace.set_text(shown, text)
    assert [d for d in workspace.analyse()[shown] if d.is_error] == []
    workspace.set_text(shown, text.replace("replace map:", "replace mapp:"))
    errors = [d for d in workspace.analyse()[shown] if d.is_error]
    assert [(d.code, d.message) for d in errors] == [("E012", "cannot replace property 'mapp': the base does not define it")]


def test_definition_from_an_amend_and_a_replace_of_a_title_extending_another():
    """18 Grand Junction extends 1846: its `amend` and `replace` lead to 1846's clause."""
    from compiler.app.lsp_features import definition
    from compiler.app.lsp_workspace import Workspace

    workspace = Workspace()
    shown = "rulespecs/18-grand-junction.rules"
    workspace.set_text(shown, workspace.text(shown))
    workspace.analyse()
    lines = workspace.text(shown).split("\n")
    for head, clause in (('amend train "2"', 'train "2"'), ("replace declinable_decisions:", "declinable_decisions:")):
        number = next(i for i, line in enumerate(lines) if line.strip().startswith(head)) + 1
        [found] = definition(workspace, shown, number, lines[number - 1].index(head) + 2)
        assert found.path == "rulespecs/1846.rules"
        assert workspace.line(found.path, found.line).strip().startswith(clause)


def test_random_edits_parse_as_the_whole_text():
    """Seeded random edits of the toy (characters typed, taken away, new lines, comments opened):
    whichever way the workspace parses each, the module is the whole parse's, spans included."""
    import random

    from compiler.app.lsp_workspace import Document, Workspace
    from compiler.lang.parse import parse_unsaved

    shown = "tests/fixtures/toy/toy.rules"
    workspace = Workspace([TOY])
    module, _ = parse_unsaved(TOY_TEXT, shown)
    chance = random.Random(36)
    spliced = 0
    for _ in range(60):
        workspace.documents[shown] = Document(shown, TOY_TEXT, module, (), module)
        at = chance.randrange(len(TOY_TEXT))
        end = min(len(TOY_TEXT), at + chance.choice([0, 0, 1, 2, 5]))
        typed = "".join(chance.choice('ab_ 09:${}"§/\n.()') for _ in range(chance.choice([0, 1, 1, 2])))
        edited = TOY_TEXT[:at] + typed + TOY_TEXT[end:]
        document = workspace.set_text(shown, edited)
        whole, found = parse_unsaved(edited, shown)
        assert (document.module, list(document.syntax)) == (whole, found), (at, end, typed)
        if whole is not None:
            assert [getattr(n, "span", None) for n in s.walk(document.module)] == \
                [getattr(n, "span", None) for n in s.walk(whole)], (at, end, typed)
        spliced += document.by_clause
    assert spliced >= 10  # the seed exercises the spliced parse, not only the whole one


def test_a_rulespec_changed_on_disk_is_read_again(tmp_path):
    """A file of the workspace that the editor does not have open, changed on disk, is read again
    (the server does so on workspace/didChangeWatchedFiles): a title beside its own library."""
    from compiler.app.lsp_workspace import Workspace

    library = tmp_path / "own.rules"
    library.write_text('library "own" {\n  param colour: {red, blue} "a colour"\n}\n', encoding="utf-8")
    title = tmp_path / "mine.rules"
    title.write_text('title "Mine" {\n  uses lib "own"\n  colour: green §1\n  section §1 "Colours"\n}\n',
                     encoding="utf-8")
    workspace = Workspace([tmp_path])
    shown = workspace.display(title)
    workspace.set_text(shown, title.read_text(encoding="utf-8"), title)
    assert [d.code for d in workspace.analyse()[shown]] == ["E026"]  # green is not a colour
    library.write_text('library "own" {\n  param colour: {red, green} "a colour"\n}\n', encoding="utf-8")
    workspace.reread(library)
    assert workspace.analyse()[shown] == []


def test_the_server_reads_changed_files_again(server):
    """workspace/didChangeWatchedFiles for a rulespec: the server reads it and analyses anew (the
    module's server ends without an error reported)."""
    server.notify(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, lsp.DidChangeWatchedFilesParams(
        [lsp.FileEvent(LIBRARY.as_uri(), lsp.FileChangeType.Changed)]))
    assert server.diagnostics(TOY_URI) is not None
