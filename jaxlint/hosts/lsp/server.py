"""The jaxlint language server (pygls): diagnostics as you type, quick fixes, ``# noqa``.

Documents are linted when opened or saved, and a short while after the last change (the delay
is ``initializationOptions.debounceMs``, 300 ms by default). Linting runs on one worker thread,
so the server keeps answering while a large file is analysed; after an edit it re-parses only
the top-level statements the edit touched and replays the scope walk of the others
(:mod:`jaxlint.engine.incremental`). Results for a version that has since changed are dropped.
Settings come from the ``[tool.jaxlint]`` of the closest ``pyproject.toml`` above the document
(the workspace root's for an unsaved document); saving a ``pyproject.toml``, a watched-file event
for a configuration file or ``workspace/didChangeConfiguration`` re-lints the open documents.
Hovering a finding shows its rule's documentation. Notebooks (``notebookDocument/*``) are linted
as ``jaxlint check`` lints a ``.ipynb``, with each cell's findings published on that cell.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from jaxlint import __version__
from jaxlint.engine.diagnostics import Applicability, Diagnostic
from jaxlint.engine.incremental import Incremental
from jaxlint.engine.linter import BUG_REPORT, INTERNAL_ERROR, Analysis, analyze, meta_diagnostic, split_lines
from jaxlint.engine.registry import fixable_codes, rule_by_code
from jaxlint.hosts.lsp.actions import FIX_ALL_KIND, FIX_ALL_TITLE, applicable_fix, noqa_edit, quick_fix_title
from jaxlint.hosts.lsp.convert import SOURCE, replacement_edit, to_lsp_diagnostic, to_text_edit
from jaxlint.hosts.lsp.transport import read_messages
from jaxlint.project.config import ConfigError, Settings
from jaxlint.project.files import CHECKED_SUFFIXES, SOURCE_SUFFIXES
from jaxlint.project.runner import gc_paused
from jaxlint.project.settings import SettingsCache
from jaxlint.project.workspace import ProjectModel
from jaxlint.semantic.cross_module import ProjectView

DEFAULT_DEBOUNCE_S = 0.3


@dataclass
class Linted:
    """The diagnostics published for one version of a document."""

    version: int | None
    source: str
    diagnostics: list[Diagnostic]
    published: list[types.Diagnostic]
    notices: list[tuple[types.MessageType, str]] = field(default_factory=list)
    view: ProjectView | None = None  # what the project said about the document when it was linted
    fixes_attached: bool = False  # fixes are computed on the first code-action request, not per edit
    fix_all: str | None = None  # the fixed source, computed on first request
    analysis: Analysis | None = None  # the syntax tree and model, until freed after publishing

    def free_analysis(self) -> None:
        """Drop the syntax tree and model, breaking their cycles, then collect what cycles are
        left: the server's collections, run here, after publishing (see :func:`serve`)."""
        analysis, self.analysis = self.analysis, None
        if analysis is not None and analysis.model is not None:
            analysis.model.release()
        del analysis
        collect_young_cycles()


_FULL_COLLECTION_EVERY = 100
_frees = itertools.count(1)


def collect_young_cycles() -> None:
    """Collect the cycles made since the last collection (a fraction of a millisecond: the
    documents' trees, kept for incremental parsing, are old by then and not walked again), and
    once every hundred calls the whole heap (several milliseconds)."""
    gc.collect(1 if next(_frees) % _FULL_COLLECTION_EVERY else 2)


@dataclass
class ServerState:
    settings: SettingsCache = field(default_factory=SettingsCache)
    debounce_s: float = DEFAULT_DEBOUNCE_S
    open_python: set[str] = field(default_factory=set)
    linted: dict[str, Linted] = field(default_factory=dict)
    pending: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    reported_config_errors: set[str] = field(default_factory=set)
    incremental: dict[str, Incremental] = field(default_factory=dict)  # used on the worker only
    worker: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(max_workers=1))


class JaxlintServer(LanguageServer):
    """pygls' server plus jaxlint's per-session state."""

    def __init__(self) -> None:
        notebooks = types.NotebookDocumentSyncOptions(
            notebook_selector=[
                types.NotebookDocumentFilterWithCells(
                    cells=[types.NotebookCellLanguage(language="python")], notebook="jupyter-notebook"
                )
            ],
            save=True,
        )
        super().__init__("jaxlint", __version__, notebook_document_sync=notebooks)
        self.state = ServerState()
        self._project: ProjectModel | None = None

    def _start_io_async(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """pygls' stdio server with jaxlint's read loop (:mod:`jaxlint.hosts.lsp.transport`)."""
        self._stop_event = threading.Event()
        reader = StdinAsyncReader(stdin or sys.stdin.buffer, self.thread_pool)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(read_messages(self._stop_event, reader, self.protocol))
        except (BrokenPipeError, KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    @property
    def project(self) -> ProjectModel:
        """The workspace's whole-project model (created on first use, when the root is known)."""
        if self._project is None:
            self._project = ProjectModel(self.root)
        return self._project

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)

    @property
    def root(self) -> Path | None:
        root = self.workspace.root_path
        return Path(root) if root else None


# ---------------------------------------------------------------------- linting


def document_path(uri: str) -> str:
    return to_fs_path(uri) or uri


def is_python(uri: str, language_id: str | None = None) -> bool:
    return language_id == "python" or document_path(uri).endswith(SOURCE_SUFFIXES)


def lint_now(ls: JaxlintServer, uri: str) -> None:
    """Lint ``uri`` as it is now (cancelling a pending debounced lint) and publish the result."""
    _cancel_pending(ls, uri)
    ls.state.pending[uri] = asyncio.ensure_future(_lint_and_publish(ls, uri))


def lint_later(ls: JaxlintServer, uri: str) -> None:
    """Lint ``uri`` once it has not changed for the debounce delay."""
    _cancel_pending(ls, uri)
    ls.state.pending[uri] = asyncio.ensure_future(_debounced(ls, uri))


def _cancel_pending(ls: JaxlintServer, uri: str) -> None:
    task = ls.state.pending.pop(uri, None)
    if task is not None and not task.done():
        task.cancel()


async def _debounced(ls: JaxlintServer, uri: str) -> None:
    await asyncio.sleep(ls.state.debounce_s)
    await _lint_and_publish(ls, uri)


async def _lint_and_publish(ls: JaxlintServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    source, version = document.source, document.version
    loop = asyncio.get_running_loop()
    linted = await loop.run_in_executor(ls.state.worker, lint_document, ls, uri, source, version)
    try:
        for kind, message in linted.notices:
            _notify(ls, kind, message)
        if uri not in ls.state.open_python:
            ls.state.incremental.pop(uri, None)  # closed meanwhile
            return
        current = ls.workspace.text_documents.get(uri)
        if current is None or current.version != version:
            return  # changed meanwhile: a newer lint is on its way
        ls.state.linted[uri] = linted
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=linted.published)
        )
    finally:  # free the tree after publishing, off the critical path
        with contextlib.suppress(RuntimeError):  # the worker is shut down
            ls.state.worker.submit(linted.free_analysis)


def lint_document(ls: JaxlintServer, uri: str, source: str, version: int | None) -> Linted:
    """Lint one document's text (on the worker thread); never raises."""
    path = document_path(uri)
    notices: list[tuple[types.MessageType, str]] = []
    view: ProjectView | None = None
    analysis: Analysis | None = None
    try:
        settings, problem = settings_for(ls, path)
        if problem is not None:
            notices.append((types.MessageType.Error, problem))
        view = ls.project.view(path, ls.state.settings)
        incremental = ls.state.incremental.setdefault(uri, Incremental())
        with gc_paused():
            analysis = lint_analysis(ls.state.settings, settings, source, path, view, incremental=incremental)
        diagnostics = [d.detached() for d in analysis.diagnostics]
    except Exception as error:  # the server must outlive any bug
        notices.append((types.MessageType.Error, f"{path}: {error!r}"))
        message = f"internal error: {type(error).__name__}: {error} ({BUG_REPORT})"
        diagnostics = [meta_diagnostic(INTERNAL_ERROR, message, path)]
    lines = split_lines(source)
    published = [to_lsp_diagnostic(d, lines, ls.encoding) for d in diagnostics]
    return Linted(version, source, diagnostics, published, notices=notices, view=view, analysis=analysis)


def lint_analysis(
    cache: SettingsCache,
    settings: Settings,
    source: str,
    path: str,
    view: ProjectView | None = None,
    with_fixes: bool = False,
    incremental: Incremental | None = None,
) -> Analysis:
    """The findings of ``source`` under ``settings``, with their fixes if asked (fixers parse with
    libcst, several times slower than the lint: editors get them on request, not on every edit);
    ``view`` says what the rest of the project traces in this module; ``incremental``, the
    document's state from its last lint, lets the lint redo only what changed since."""
    ruleset = cache.ruleset_for(settings, path)
    decorators = frozenset(settings.traced_decorators)
    analysis = analyze(source, path, ruleset, decorators, project=view, incremental=incremental)
    if with_fixes and analysis.model is not None and analysis.diagnostics:
        from jaxlint.fixing.fixer import attach_fixes  # asks only the fixers of the codes found

        analysis.diagnostics.extend(attach_fixes(analysis.diagnostics, source, analysis.model))
    return analysis


def attach_fixes_once(ls: JaxlintServer, uri: str, linted: Linted) -> None:
    """Give ``linted``'s diagnostics their fixes, computed from the same text and project view."""
    if linted.fixes_attached:
        return
    linted.fixes_attached = True
    if not any(d.code in fixable_codes() for d in linted.diagnostics):
        return
    path = document_path(uri)
    settings, _ = settings_for(ls, path)
    try:
        with gc_paused():
            fixed = lint_analysis(ls.state.settings, settings, linted.source, path, linted.view, True)
            if fixed.model is not None:
                fixed.model.release()
    except Exception as error:  # a fixer bug costs the quick fixes, not the session
        _notify(ls, types.MessageType.Error, f"{path}: computing fixes failed: {error!r}")
        return
    for error in fixed.diagnostics:
        if error.code == INTERNAL_ERROR:  # a crashing fixer costs its quick fix, and says so
            _notify(ls, types.MessageType.Error, f"{path}:{error.location.row}: {error.message}")
    by_place = {(d.code, d.location, d.end_location): d.fix for d in fixed.diagnostics}
    for diagnostic in linted.diagnostics:
        diagnostic.fix = by_place.get((diagnostic.code, diagnostic.location, diagnostic.end_location))


def settings_for(ls: JaxlintServer, path: str) -> tuple[Settings, str | None]:
    """The document's settings; a broken configuration falls back to the defaults, reported once."""
    try:
        return ls.state.settings.settings_for(path, ls.root), None
    except ConfigError as error:
        message = str(error)
        first_time = message not in ls.state.reported_config_errors
        ls.state.reported_config_errors.add(message)
        notice = f"{message} (using the default settings)" if first_time else None
        return Settings(root=ls.root or Path.cwd()), notice


def _notify(ls: JaxlintServer, kind: types.MessageType, message: str) -> None:
    params = types.ShowMessageParams(type=kind, message=f"jaxlint: {message}")
    ls.window_show_message(params)
    ls.window_log_message(types.LogMessageParams(type=kind, message=params.message))


# ---------------------------------------------------------------------- code actions


def code_actions(ls: JaxlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    linted = ls.state.linted.get(uri)
    if linted is None:
        return []
    attach_fixes_once(ls, uri, linted)
    only = params.context.only
    wanted_quick_fixes = _wants(only, types.CodeActionKind.QuickFix)
    actions: list[types.CodeAction] = []
    if wanted_quick_fixes:
        for client_diagnostic in params.context.diagnostics:
            found = _find(linted, client_diagnostic)
            if found is not None:
                actions.extend(_actions_for(ls, uri, linted, found, client_diagnostic))
    if _wants(only, FIX_ALL_KIND) and _has_safe_fix(linted):
        fix_all = _fix_all_action(ls, uri, linted)
        if fix_all is not None:
            actions.append(fix_all)
    return actions


def _wants(only: Sequence[str] | None, kind: str) -> bool:
    """Whether a request limited to the kinds ``only`` (None: any) accepts ``kind``."""
    return only is None or any(kind == k or kind.startswith(f"{k}.") for k in only)


def _find(linted: Linted, client_diagnostic: types.Diagnostic) -> Diagnostic | None:
    if client_diagnostic.source != SOURCE:
        return None
    for diagnostic, published in zip(linted.diagnostics, linted.published, strict=True):
        if published.code == client_diagnostic.code and published.range == client_diagnostic.range:
            return diagnostic
    return None


def _actions_for(
    ls: JaxlintServer, uri: str, linted: Linted, diagnostic: Diagnostic, client_diagnostic: types.Diagnostic
) -> list[types.CodeAction]:
    lines = split_lines(linted.source)
    actions = []
    fix = applicable_fix(diagnostic)
    if fix is not None:
        edits = [to_text_edit(edit, lines, ls.encoding) for edit in fix.edits]
        actions.append(
            types.CodeAction(
                title=quick_fix_title(diagnostic, fix),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[client_diagnostic],
                is_preferred=fix.applicability is Applicability.SAFE,
                edit=_workspace_edit(ls, uri, linted.version, edits),
            )
        )
    noqa = noqa_edit(linted.source, diagnostic)
    if noqa is not None:
        actions.append(
            types.CodeAction(
                title=f"Disable {diagnostic.code} for this line (# noqa: {diagnostic.code})",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[client_diagnostic],
                edit=_workspace_edit(ls, uri, linted.version, [to_text_edit(noqa, lines, ls.encoding)]),
            )
        )
    return actions


def _has_safe_fix(linted: Linted) -> bool:
    return any(d.fix is not None and d.fix.applicability is Applicability.SAFE for d in linted.diagnostics)


def _fix_all_action(ls: JaxlintServer, uri: str, linted: Linted) -> types.CodeAction | None:
    if linted.fix_all is None:
        try:
            linted.fix_all = _fixed_source(ls, uri, linted)
        except Exception as error:  # a fixer bug costs this action, not the session
            _notify(ls, types.MessageType.Error, f"{document_path(uri)}: fixing failed: {error!r}")
            linted.fix_all = linted.source
    if linted.fix_all == linted.source:
        return None
    lines = split_lines(linted.source)
    edit = replacement_edit(linted.source, linted.fix_all, lines, ls.encoding)
    return types.CodeAction(
        title=FIX_ALL_TITLE,
        kind=FIX_ALL_KIND,
        edit=_workspace_edit(ls, uri, linted.version, [edit]),
    )


def _fixed_source(ls: JaxlintServer, uri: str, linted: Linted) -> str:
    from jaxlint.fixing.applier import fix_source

    path = document_path(uri)
    settings, _ = settings_for(ls, path)
    ruleset = ls.state.settings.ruleset_for(settings, path)
    decorators = frozenset(settings.traced_decorators)
    return fix_source(linted.source, path, ruleset, decorators, project=linted.view).fixed


def _workspace_edit(
    ls: JaxlintServer, uri: str, version: int | None, edits: list[types.TextEdit]
) -> types.WorkspaceEdit:
    """Edits tied to the document version they were computed for, where the client can check it."""
    if not _supports_document_changes(ls):
        return types.WorkspaceEdit(changes={uri: edits})
    document = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    versioned: list[types.TextEdit | types.AnnotatedTextEdit | types.SnippetTextEdit] = list(edits)
    return types.WorkspaceEdit(
        document_changes=[types.TextDocumentEdit(text_document=document, edits=versioned)]
    )


def _supports_document_changes(ls: JaxlintServer) -> bool:
    workspace = ls.client_capabilities.workspace
    workspace_edit = workspace.workspace_edit if workspace is not None else None
    return bool(workspace_edit is not None and workspace_edit.document_changes)


# ---------------------------------------------------------------------- wiring


def create_server() -> JaxlintServer:
    server = JaxlintServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: JaxlintServer, params: types.InitializeParams) -> None:
        options: Any = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounceMs"), int | float):
            ls.state.debounce_s = max(0.0, options["debounceMs"] / 1000)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: JaxlintServer, params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        if is_python(document.uri, document.language_id):
            ls.state.open_python.add(document.uri)
            lint_now(ls, document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: JaxlintServer, params: types.DidChangeTextDocumentParams) -> None:
        if params.text_document.uri in ls.state.open_python:
            lint_later(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: JaxlintServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if document_path(uri).endswith("pyproject.toml"):
            _relint_all(ls)
        elif uri in ls.state.open_python:
            # what this module traces in the others (and they in it) may have changed
            ls.project.invalidate()
            for open_uri in ls.state.open_python:
                lint_now(ls, open_uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: JaxlintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        _cancel_pending(ls, uri)
        ls.state.open_python.discard(uri)
        ls.state.incremental.pop(uri, None)
        if ls.state.linted.pop(uri, None) is not None:
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND]),
    )
    def code_action(ls: JaxlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return code_actions(ls, params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: JaxlintServer, params: types.HoverParams) -> types.Hover | None:
        return hover_for(ls, params.text_document.uri, params.position)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: JaxlintServer, params: types.DidChangeConfigurationParams) -> None:
        _relint_all(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: JaxlintServer, params: types.DidChangeWatchedFilesParams) -> None:
        names = [document_path(change.uri) for change in params.changes]
        if any(name.endswith(CONFIG_FILES) for name in names):
            _relint_all(ls)
        elif any(name.endswith(CHECKED_SUFFIXES) for name in names):
            ls.project.invalidate()  # another module changed on disk: what it traces may have too
            for uri in ls.state.open_python:
                lint_now(ls, uri)

    @server.feature(types.INITIALIZED)
    def initialized(ls: JaxlintServer, params: types.InitializedParams) -> None:
        watch_configuration(ls)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_did_open(ls: JaxlintServer, params: types.DidOpenNotebookDocumentParams) -> None:
        lint_notebook(ls, params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_did_change(ls: JaxlintServer, params: types.DidChangeNotebookDocumentParams) -> None:
        lint_notebook(ls, params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_did_save(ls: JaxlintServer, params: types.DidSaveNotebookDocumentParams) -> None:
        lint_notebook(ls, params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_did_close(ls: JaxlintServer, params: types.DidCloseNotebookDocumentParams) -> None:
        for cell in params.cell_text_documents:
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell.uri, diagnostics=[]))

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: JaxlintServer, params: None) -> None:
        for uri in list(ls.state.pending):
            _cancel_pending(ls, uri)
        with contextlib.suppress(RuntimeError):
            ls.state.worker.shutdown(wait=False, cancel_futures=True)

    return server


CONFIG_FILES = ("pyproject.toml", "jaxlint.toml", ".gitignore")


def watch_configuration(ls: JaxlintServer) -> None:
    """Ask the client to report changes of configuration files and modules on disk (when it
    can register watchers dynamically)."""
    capabilities = ls.client_capabilities.workspace
    watched = capabilities.did_change_watched_files if capabilities else None
    if not (watched and watched.dynamic_registration):
        return
    globs = ["**/pyproject.toml", "**/jaxlint.toml", "**/.gitignore", "**/*.py"]
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in globs]
    )
    registration = types.Registration(
        id="jaxlint-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
    )
    ls.client_register_capability(types.RegistrationParams(registrations=[registration]))


def hover_for(ls: JaxlintServer, uri: str, position: types.Position) -> types.Hover | None:
    """The documentation of the rules whose findings cover ``position``."""
    linted = ls.state.linted.get(uri)
    if linted is None:
        return None
    codes = []
    here = (position.line, position.character)
    for published in linted.published:
        start, end = published.range.start, published.range.end
        covers = (start.line, start.character) <= here <= (end.line, end.character)
        if covers and published.code not in codes:
            codes.append(published.code)
    sections = [rule_hover(str(code)) for code in codes]
    text = "\n\n---\n\n".join(section for section in sections if section)
    if not text:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def rule_hover(code: str) -> str | None:
    """A rule's documentation as hover markdown: what it does, why, and what to write instead."""
    rule = rule_by_code(code)
    if rule is None:
        return None
    docs = rule.docs()
    parts = [f"**{rule.code} {rule.name}**: {rule.message}"]
    for title in ("What it does", "Why is this bad?", "Use instead", "Fix safety"):
        if title in docs:
            parts.append(f"*{title}*\n\n{docs[title]}")
    return "\n\n".join(parts)


def lint_notebook(ls: JaxlintServer, notebook_uri: str) -> None:
    """Lint a notebook's code cells as one module (as ``jaxlint check`` does a ``.ipynb``) and
    publish each cell's findings on the cell's own document."""
    notebook = ls.workspace.get_notebook_document(notebook_uri=notebook_uri)
    if notebook is None:
        return
    cells, uris = [], []
    for cell in notebook.cells:
        document = ls.workspace.text_documents.get(cell.document)
        is_code = cell.kind == types.NotebookCellKind.Code
        cells.append(
            {"cell_type": "code" if is_code else "markdown", "source": document.source if document else ""}
        )
        uris.append(cell.document)
    path = document_path(notebook_uri)
    try:
        from jaxlint.project.notebooks import notebook_from_data

        module = notebook_from_data({"cells": cells})
        settings, _ = settings_for(ls, path)
        analysis = lint_analysis(ls.state.settings, settings, module.source, path, None)
        diagnostics = [module.to_cells(d.detached()) for d in analysis.diagnostics]
    except Exception as error:  # the server must outlive any bug
        _notify(ls, types.MessageType.Error, f"{path}: {error!r}")
        return
    by_cell: dict[int, list[types.Diagnostic]] = {number: [] for number in range(1, len(uris) + 1)}
    for diagnostic in diagnostics:
        number = diagnostic.cell or 1
        source = cells[number - 1]["source"]
        by_cell.setdefault(number, []).append(to_lsp_diagnostic(diagnostic, split_lines(source), ls.encoding))
    for number, published in by_cell.items():
        if 0 < number <= len(uris):
            ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uris[number - 1], diagnostics=published)
            )


def _relint_all(ls: JaxlintServer) -> None:
    ls.project.invalidate()
    ls.state.settings.forget_configs()
    ls.state.reported_config_errors.clear()
    for uri in ls.state.open_python:
        lint_now(ls, uri)


def serve() -> None:
    """Speak LSP over stdin/stdout until the client says exit.

    The cycle collector never runs on its own here: an automatic collection that fell between a
    lint and its publish would walk the whole fresh syntax tree (tens of milliseconds on a large
    file). The modules loaded at start are frozen out of collections, and each lint collects
    after publishing, once its tree is freed (:meth:`Linted.free_analysis`)."""
    server = create_server()
    gc.disable()
    gc.freeze()
    server.start_io()
