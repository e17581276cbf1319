"""The language server, driven by pytest-lsp as a real client over stdio (`jaxlint server`)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from lsprotocol.converters import get_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

pytestmark = pytest.mark.slow  # drives a real host as a subprocess

SERVER = [sys.executable, "-m", "jaxlint", "server"]
DOCUMENT = textwrap.dedent(
    """\
    import jax


    @jax.jit
    def step(x):
        print("naïve 😀", x)
        tag = "😀"; print(tag, x)
        if x > 0:
            return x
        return -x
    """
)
FIXED_LINE = '    jax.debug.print("naïve 😀 {}", x)'


def recording_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every publishDiagnostics it receives, in order."""
    client = LanguageClient(converter_factory=get_converter)
    published: list[types.PublishDiagnosticsParams] = []

    def record(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        published.append(params)

    register_lsp_features(
        client, {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: record}
    )
    client.published = published  # type: ignore[attr-defined]
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, client_factory=recording_client))
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    """A client connected to `jaxlint server`; each test initializes it with its own workspace."""
    yield
    await lsp_client.shutdown_session()


async def start(
    client: LanguageClient,
    root: Path,
    options: dict[str, Any] | None = None,
    encodings: list[str] | None = None,
) -> None:
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True)
        ),
        general=types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None,
    )
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="project")],
            initialization_options=options,
        )
    )


async def open_document(client: LanguageClient, path: Path, text: str) -> list[types.Diagnostic]:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id="python", version=1, text=text
            )
        )
    )
    return await next_diagnostics(client, path)


async def next_diagnostics(client: LanguageClient, path: Path) -> list[types.Diagnostic]:
    """The next diagnostics published for ``path``, skipping those for other documents.

    Reads the client's recording with a cursor, so nothing published between two calls is lost.
    """
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]
    uri = path.as_uri()
    deadline = asyncio.get_running_loop().time() + 20
    while asyncio.get_running_loop().time() < deadline:
        cursor: int = getattr(client, "cursor", 0)
        for index in range(cursor, len(published)):
            if published[index].uri == uri:
                client.cursor = index + 1  # type: ignore[attr-defined]
                return list(published[index].diagnostics)
        client.cursor = len(published)  # type: ignore[attr-defined]
        await asyncio.sleep(0.01)
    raise TimeoutError(f"no diagnostics published for {path.name} within 20 s")


def change(client: LanguageClient, path: Path, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def code_actions(
    client: LanguageClient, path: Path, diagnostics: list[types.Diagnostic], only: list[str] | None = None
) -> list[types.CodeAction]:
    target = (
        diagnostics[0].range
        if diagnostics
        else types.Range(start=types.Position(0, 0), end=types.Position(0, 0))
    )
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            range=target,
            context=types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )
    return [action for action in result or [] if isinstance(action, types.CodeAction)]


def utf16_offset(text: str, position: types.Position) -> int:
    """The string offset of an LSP position counted in UTF-16 code units (the client's side)."""
    lines = text.splitlines(keepends=True)
    if position.line >= len(lines):
        return len(text)
    offset = sum(len(line) for line in lines[: position.line])
    units = 0
    for index, char in enumerate(lines[position.line]):
        if units >= position.character:
            return offset + index
        units += 2 if ord(char) > 0xFFFF else 1
    return offset + len(lines[position.line])


def apply_workspace_edit(text: str, edit: types.WorkspaceEdit | None, version: int) -> str:
    """Apply the edits as an editor does (end to start), checking the version they were made for."""
    assert edit is not None and edit.document_changes
    (document_edit,) = edit.document_changes
    assert isinstance(document_edit, types.TextDocumentEdit)
    assert document_edit.text_document.version == version
    spans = []
    for text_edit in document_edit.edits:
        assert isinstance(text_edit, types.TextEdit)
        start, end = utf16_offset(text, text_edit.range.start), utf16_offset(text, text_edit.range.end)
        spans.append((start, end, text_edit.new_text))
    for start, end, new_text in sorted(spans, reverse=True):
        text = text[:start] + new_text + text[end:]
    return text


def by_code(diagnostics: list[types.Diagnostic], code: str) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.code == code]


async def test_diagnostics_carry_code_url_severity_and_utf16_columns(
    client: LanguageClient, tmp_path: Path
) -> None:
    await start(client, tmp_path)
    diagnostics = await open_document(client, tmp_path / "model.py", DOCUMENT)
    assert [d.code for d in diagnostics] == ["JAX101", "JAX101", "JAX501"]
    fixable, after_emoji, branch = diagnostics
    assert all(d.source == "jaxlint" for d in diagnostics)
    assert fixable.severity == types.DiagnosticSeverity.Warning
    assert branch.severity == types.DiagnosticSeverity.Error
    # no repository address is declared in the package metadata: no link to someone else's project
    assert branch.code_description is None
    assert "TracerBoolConversionError" in branch.message
    # `print("naïve 😀", x)`: the emoji is two UTF-16 code units, one character
    line = DOCUMENT.splitlines()[5]
    assert fixable.range.start == types.Position(line=5, character=4)
    assert fixable.range.end == types.Position(line=5, character=len(line) + 1)
    # `tag = "😀"; print(tag, x)`: the finding starts after the emoji
    line = DOCUMENT.splitlines()[6]
    assert after_emoji.range.start == types.Position(line=6, character=line.index("print") + 1)


async def test_utf8_position_encoding_when_the_client_asks(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path, encodings=[types.PositionEncodingKind.Utf8])
    diagnostics = await open_document(client, tmp_path / "model.py", DOCUMENT)
    line = DOCUMENT.splitlines()[6]
    expected = len(line[: line.index("print")].encode("utf-8"))
    assert by_code(diagnostics, "JAX101")[1].range.start.character == expected


async def test_quick_fix_applied_then_diagnostics_update(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    path = tmp_path / "model.py"
    diagnostics = await open_document(client, path, DOCUMENT)
    fixable = diagnostics[0]
    actions = await code_actions(client, path, [fixable])
    quick_fixes = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and a.is_preferred]
    assert [a.title for a in quick_fixes] == ["Replace with `jax.debug.print` (JAX101)"]
    fixed = apply_workspace_edit(DOCUMENT, quick_fixes[0].edit, version=1)
    assert fixed.splitlines()[5] == FIXED_LINE
    change(client, path, fixed, version=2)
    after = await next_diagnostics(client, path)
    assert [d.code for d in after] == ["JAX101", "JAX501"]
    assert after[0].range.start.line == 6


async def test_fix_all_safe_findings(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    path = tmp_path / "model.py"
    text = DOCUMENT.replace("    return -x\n", "    print(x)\n    return -x\n")
    diagnostics = await open_document(client, path, text)
    assert len(by_code(diagnostics, "JAX101")) == 3
    actions = await code_actions(client, path, [], only=[types.CodeActionKind.SourceFixAll])
    (fix_all,) = actions
    assert fix_all.title == "Fix all safe jaxlint findings in file"
    assert fix_all.kind == "source.fixAll.jaxlint"
    fixed = apply_workspace_edit(text, fix_all.edit, version=1)
    assert fixed.count("jax.debug.print(") == 2
    assert 'tag = "😀"; print(tag, x)' in fixed  # no safe fix there: left alone
    change(client, path, fixed, version=2)
    assert [d.code for d in await next_diagnostics(client, path)] == ["JAX101", "JAX501"]


async def test_noqa_action_silences_the_finding(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    path = tmp_path / "model.py"
    diagnostics = await open_document(client, path, DOCUMENT)
    branch = by_code(diagnostics, "JAX501")[0]
    actions = await code_actions(client, path, [branch])
    (noqa,) = [a for a in actions if "noqa" in a.title]
    assert noqa.title == "Disable JAX501 for this line (# noqa: JAX501)"
    silenced = apply_workspace_edit(DOCUMENT, noqa.edit, version=1)
    assert silenced.splitlines()[7] == "    if x > 0:  # noqa: JAX501"
    change(client, path, silenced, version=2)
    assert [d.code for d in await next_diagnostics(client, path)] == ["JAX101", "JAX101"]


async def test_malformed_document_is_a_finding_not_a_crash(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    path = tmp_path / "broken.py"
    (syntax,) = await open_document(client, path, "import jax\n\ndef f(x:\n    return x\n")
    assert syntax.code == "JAX000"
    assert syntax.severity == types.DiagnosticSeverity.Error
    change(client, path, "import jax\x00\n", version=2)
    assert [d.code for d in await next_diagnostics(client, path)] == ["JAX000"]
    change(client, path, DOCUMENT, version=3)
    assert [d.code for d in await next_diagnostics(client, path)] == ["JAX101", "JAX101", "JAX501"]


async def test_changes_are_debounced(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path, options={"debounceMs": 500})
    path = tmp_path / "model.py"
    await open_document(client, path, DOCUMENT)
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]
    before = len(published)
    lines = DOCUMENT.splitlines(keepends=True)
    for version in range(2, 7):  # typing: five edits in quick succession
        change(client, path, "".join(lines[: 11 - version]), version=version)
        await asyncio.sleep(0.02)
    await next_diagnostics(client, path)
    await asyncio.sleep(0.5)
    assert [p.version for p in published[before:]] == [6]


async def test_save_lints_at_once_and_close_clears(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path, options={"debounceMs": 60_000})
    path = tmp_path / "model.py"
    await open_document(client, path, DOCUMENT)
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]
    before = len(published)
    change(client, path, DOCUMENT.replace('    tag = "😀"; print(tag, x)\n', ""), version=2)
    await asyncio.sleep(0.5)
    assert len(published) == before  # still waiting for the typing to stop
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    after_save = await next_diagnostics(client, path)
    assert [d.code for d in after_save] == ["JAX101", "JAX501"] and published[-1].version == 2
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    assert await next_diagnostics(client, path) == []


async def test_settings_come_from_the_workspace_pyproject(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nignore = ["JAX501"]\ntraced-decorators = ["mylib.compile"]\n'
        '[tool.jaxlint.per-file-ignores]\n"tests/*" = ["JAX1"]\n',
        encoding="utf-8",
    )
    await start(client, tmp_path)
    custom = "import jax\nimport mylib\n\n\n@mylib.compile\ndef g(y):\n    if y > 0:\n        print(y)\n    return y\n"
    assert [d.code for d in await open_document(client, tmp_path / "src" / "custom.py", custom)] == ["JAX101"]
    assert await open_document(client, tmp_path / "tests" / "test_model.py", DOCUMENT) == []


async def test_saving_pyproject_relints_open_documents(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    path = tmp_path / "model.py"
    assert len(await open_document(client, path, DOCUMENT)) == 3
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.jaxlint]\nignore = ["JAX1"]\n', encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=config.as_uri(), language_id="toml", version=1, text=config.read_text(encoding="utf-8")
            )
        )
    )
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=config.as_uri()))
    )
    assert [d.code for d in await next_diagnostics(client, path)] == ["JAX501"]


async def test_broken_configuration_is_shown_once_and_defaults_apply(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\nbogus = 1\n", encoding="utf-8")
    await start(client, tmp_path)
    diagnostics = await open_document(client, tmp_path / "model.py", DOCUMENT)
    assert [d.code for d in diagnostics] == ["JAX101", "JAX101", "JAX501"]
    errors = [m.message for m in client.messages if m.type == types.MessageType.Error]
    assert len(errors) == 1 and "unknown option `bogus`" in errors[0] and "pyproject.toml:2" in errors[0]


def test_server_without_pygls_prints_an_install_hint() -> None:
    probe = "import sys\nsys.modules['pygls'] = None\nfrom jaxlint.hosts.cli import main\nsys.exit(main(['server']))\n"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 2
    assert (
        result.stderr.count("\n") == 1 and "pip install" in result.stderr and "Traceback" not in result.stderr
    )


async def test_helpers_traced_by_other_modules_are_checked_with_the_project_model(
    client: LanguageClient, tmp_path: Path
) -> None:
    helper = "def scale_by(x, factor):\n    if factor > 1:\n        return x * factor\n    return x\n"
    caller = "import jax\n\nfrom pkg.helpers import scale_by\n\n\n@jax.jit\ndef step(w, x):\n    return scale_by(w, x.sum())\n"
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text(caller)
    await start(client, tmp_path)
    diagnostics = await open_document(client, tmp_path / "pkg" / "helpers.py", helper)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("JAX501", 1)]
    assert "called from traced `step` in `pkg.train`" in diagnostics[0].message

    # the caller stops passing a tracer: saving it re-lints the helper, now clean
    train = tmp_path / "pkg" / "train.py"
    train.write_text(caller.replace("scale_by(w, x.sum())", "scale_by(w, 2.0)"))
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=train.as_uri(), language_id="python", version=1, text=train.read_text()
            )
        )
    )
    await next_diagnostics(client, train)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=train.as_uri()))
    )
    for _ in range(4):
        diagnostics = await next_diagnostics(client, tmp_path / "pkg" / "helpers.py")
        if not diagnostics:
            break
    assert diagnostics == []


TYPED = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp


    @jax.jit
    def first(x):
        return x + 1


    @jax.jit
    def middle(x):
        y = x * 2
        return y


    def last(key):
        a = jax.random.normal(key)
        return a
    """
)


def type_edit(
    client: LanguageClient, path: Path, version: int, start: tuple[int, int], end: tuple[int, int], text: str
) -> None:
    """An incremental change, as editors send while typing: a range and what replaces it."""
    span = types.Range(start=types.Position(*start), end=types.Position(*end))
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=span, text=text)],
        )
    )


def replaced(text: str, start: tuple[int, int], end: tuple[int, int], new: str) -> str:
    lines = text.splitlines(keepends=True)
    offset = [sum(len(line) for line in lines[:row]) + column for row, column in (start, end)]
    return text[: offset[0]] + new + text[offset[1] :]


async def test_typing_edits_give_what_a_fresh_lint_gives(client: LanguageClient, tmp_path: Path) -> None:
    """Incremental changes, each re-parsed only where it landed: after every one, the server says
    what linting the whole text from scratch says (codes and lines)."""
    from jaxlint.engine.linter import lint_source
    from jaxlint.project.config import Settings
    from jaxlint.project.settings import SettingsCache

    ruleset = SettingsCache().ruleset_for(Settings(), "typed.py")
    await start(client, tmp_path, options={"debounceMs": 0})
    path = tmp_path / "typed.py"
    text = TYPED
    assert await open_document(client, path, text) == []
    edits = [  # (start, end, new text), what the whole text then holds
        ((11, 13), (11, 13), "\n    print(y)", [("JAX101", 12)]),  # a line added: the rest moves
        ((17, 30), (17, 30), "\n    b = jax.random.uniform(key)", [("JAX101", 12), ("JAX301", 18)]),
        ((6, 16), (6, 16), " if x > 0 else x", [("JAX501", 6), ("JAX101", 12), ("JAX301", 18)]),
        ((6, 4), (6, 10), "return (", [("JAX000", 6)]),  # unbalanced: a syntax error
        ((6, 35), (6, 35), ")", [("JAX501", 6), ("JAX101", 12), ("JAX301", 18)]),  # closed again
        ((9, 0), (14, 0), "", [("JAX501", 6), ("JAX301", 13)]),  # `middle` deleted
    ]
    for version, (start_at, end_at, new, expected) in enumerate(edits, start=2):
        type_edit(client, path, version, start_at, end_at, new)
        text = replaced(text, start_at, end_at, new)
        fresh = [(d.code, d.location.row - 1) for d in lint_source(text, str(path), ruleset)]
        assert fresh == expected, text
        published = await next_diagnostics(client, path)
        assert [(d.code, d.range.start.line) for d in published] == fresh, text


async def test_hover_shows_the_rule_documentation(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    path = tmp_path / "model.py"
    diagnostics = await open_document(client, path, DOCUMENT)
    branch = next(d for d in diagnostics if d.code == "JAX501")
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=branch.range.start
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value.startswith("**JAX501 python-branch-on-tracer**")
    assert "*Use instead*" in hover.contents.value and "lax.cond" in hover.contents.value
    nothing = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(0, 0)
        )
    )
    assert nothing is None


async def test_configuration_change_events_relint(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    path = tmp_path / "model.py"
    assert len(await open_document(client, path, DOCUMENT)) == 3
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.jaxlint]\nignore = ["JAX1"]\n', encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    assert [d.code for d in await next_diagnostics(client, path)] == ["JAX501"]
    config.write_text('[tool.jaxlint]\nignore = ["JAX5"]\n', encoding="utf-8")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    assert [d.code for d in await next_diagnostics(client, path)] == ["JAX101", "JAX101"]


async def test_notebook_cells_get_their_own_diagnostics(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    notebook_uri = (tmp_path / "analysis.ipynb").as_uri()
    texts = [
        "import jax\nif False:\n    !pip install jax",
        "# Notes",
        "@jax.jit\ndef f(x):\n    print(x)\n    return x",
    ]
    kinds = [types.NotebookCellKind.Code, types.NotebookCellKind.Markup, types.NotebookCellKind.Code]
    uris = [f"vscode-notebook-cell:{tmp_path}/analysis.ipynb#cell{i}" for i in range(3)]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook_uri,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[types.NotebookCell(kind=k, document=u) for k, u in zip(kinds, uris, strict=True)],
            ),
            cell_text_documents=[
                types.TextDocumentItem(
                    uri=u,
                    language_id="python" if k == types.NotebookCellKind.Code else "markdown",
                    version=1,
                    text=t,
                )
                for u, k, t in zip(uris, kinds, texts, strict=True)
            ],
        )
    )
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]
    deadline = asyncio.get_running_loop().time() + 20
    while not any(p.uri == uris[2] for p in published) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    by_uri = {p.uri: p.diagnostics for p in published}
    assert list(by_uri[uris[0]]) == []  # the indented shell escape is not a syntax error
    (finding,) = by_uri[uris[2]]
    assert finding.code == "JAX101" and finding.range.start == types.Position(line=2, character=4)
    assert "at line 1" in finding.message  # lines of the cell, not of the concatenated module


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _responses(stdout: bytes) -> dict[int, dict[str, Any]]:
    """The responses (by id) in a server's whole output."""
    found: dict[int, dict[str, Any]] = {}
    for part in stdout.split(b"\r\n\r\n")[1:]:
        body = part.split(b"Content-Length")[0]
        message = json.loads(body)
        if "id" in message and ("result" in message or "error" in message):
            found[message["id"]] = message
    return found


@pytest.mark.parametrize("body", [b"[1,2]", b"7", b"null", b'{"id": 9, "method": "shutdown"}'])
def test_json_that_is_not_a_request_object_gets_invalid_request(body: bytes) -> None:
    """Valid JSON but no JSON-RPC request (a batch, a number, no version): an Invalid Request
    error, and the server goes on (it crashed with a traceback)."""
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    stream = (
        _frame(initialize)
        + b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        + _frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
        + _frame({"jsonrpc": "2.0", "method": "exit"})
    )
    result = subprocess.run(SERVER, input=stream, capture_output=True, timeout=60, check=False)
    assert result.returncode == 0 and b"Traceback" not in result.stderr, result.stderr[-2000:]
    assert b'"code": -32600' in result.stdout or b'"code":-32600' in result.stdout
    assert _responses(result.stdout)[3]["result"] is None


def test_a_misbehaving_client_gets_answers_not_silence() -> None:
    """A malformed Content-Length and a request with invalid params: the server finds the next
    message again, answers the bad request with a JSON-RPC error, and still shuts down cleanly."""
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    bad_hover = {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"bogus": 1}}
    shutdown = {"jsonrpc": "2.0", "id": 3, "method": "shutdown"}
    stream = (
        _frame(initialize)
        + b"Content-Length: abc\r\n\r\n{garbage}"
        + _frame(bad_hover)
        + _frame(shutdown)
        + _frame({"jsonrpc": "2.0", "method": "exit"})
    )
    result = subprocess.run(SERVER, input=stream, capture_output=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    responses = _responses(result.stdout)
    assert responses[2]["error"]["code"] == -32602  # Invalid Params
    assert b"Traceback" not in result.stderr  # the editor's log gets one line per unreadable message
    assert responses[3]["result"] is None
