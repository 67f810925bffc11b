"""One way into pages: outside studio/services/runtime/page_scripts.py no studio module hands a page
script text of its own. Every script a page runs comes from resources/js through page_scripts.

The scan reads every module under studio/ (its syntax tree) and reports:
- a call that runs script text in a page (`evaluate_handle`, `add_init_script`,
  `add_script_tag`, `wait_for_function`, Qt's `runJavaScript`, ...; `evaluate` and
  `evaluate_function` when the receiver is a page or the text is spelled out) whose script
  is not made by page_scripts (a `page_scripts.<name>(...)` call or constant) nor the
  enclosing function's own parameter (a page adapter passing on what it was given, which the
  scan checks at the caller);
- a string constant, docstrings aside, that reads as page JavaScript (a function source, or
  `window.` / `document.`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from studio.services.runtime import page_scripts

ROOT = Path(__file__).resolve().parents[2]
STUDIO = ROOT / "studio"
HOME = Path(page_scripts.__file__).resolve().relative_to(ROOT).as_posix()
# Methods that run the script text they are given in a page (Playwright's and Qt's).
RUNS_TEXT = {
    "evaluate_handle",
    "add_init_script",
    "add_script_tag",
    "wait_for_function",
    "runJavaScript",
    "expose_function",
    "expose_binding",
    "eval_on_selector",
    "eval_on_selector_all",
    "evaluate_all",
}
# Methods of that name that are also other objects' (`evaluator.evaluate(entry, ...)`).
EVALUATE = {"evaluate", "evaluate_function"}
PAGE_LIKE = re.compile(r"page|reader|handle|frame", re.IGNORECASE)
JS_TEXT = re.compile(
    r"^\s*(async\s+)?(\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>"  # an arrow function's source
    r"|^\s*\(?\s*(async\s+)?function\s*[\w$]*\s*\("  # a function expression's
    r"|\bwindow\.\w|\bdocument\.\w"  # the page's globals
)


def _is_page_scripts(node: ast.expr) -> bool:
    """`page_scripts.X(...)` or `page_scripts.X`."""
    target = node.func if isinstance(node, ast.Call) else node
    return (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "page_scripts"
    )


def _spelled_out(node: ast.expr) -> bool:
    """Script text written in place: a literal, an f-string, text glued or formatted, or a
    module constant (UPPER_CASE)."""
    if isinstance(node, ast.Constant | ast.JoinedStr | ast.BinOp):
        return True
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return bool(re.fullmatch(r"_?[A-Z][A-Z0-9_]*", name))


def _receiver(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


class _Scan(ast.NodeVisitor):
    def __init__(self) -> None:
        self.found: list[str] = []
        self.params: list[set[str]] = [set()]
        self.docstrings: set[int] = set()

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        a = node.args
        names = {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
        self.params.append(names)
        self.generic_visit(node)
        self.params.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Module(self, node: ast.Module) -> None:
        for holder in ast.walk(node):
            body = getattr(holder, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                value = body[0].value
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    self.docstrings.add(id(value))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        text = node.value
        if isinstance(text, str) and id(node) not in self.docstrings and JS_TEXT.search(text):
            self.found.append(f"line {node.lineno}: page JavaScript in a string")

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        if not isinstance(node.func, ast.Attribute):
            return
        method = node.func.attr
        if method not in RUNS_TEXT and method not in EVALUATE:
            return
        script = node.args[0] if node.args else None
        if script is None:
            for kw in node.keywords:
                if kw.arg in ("expression", "script", "source", "path", "url", "content"):
                    script = kw.value
        if script is None:
            if method in RUNS_TEXT:
                self.found.append(f"line {node.lineno}: .{method}(...) without page_scripts")
            return
        if _is_page_scripts(script):
            return
        if isinstance(script, ast.Name) and script.id in self.params[-1]:
            return  # an adapter passing on its caller's script
        if method in EVALUATE and not (
            PAGE_LIKE.search(_receiver(node.func.value)) or _spelled_out(script)
        ):
            return  # another object's evaluate (an evaluator's, an episode's)
        self.found.append(f"line {node.lineno}: .{method}(...) of a script not from page_scripts")


def offences(source: str) -> list[str]:
    """What the scan reports in one module's source."""
    scan = _Scan()
    scan.visit(ast.parse(source))
    return scan.found


def test_no_module_but_page_scripts_hands_a_page_script_text() -> None:
    found = []
    for path in sorted(STUDIO.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name == HOME:
            continue
        found += [f"{name}: {o}" for o in offences(path.read_text(encoding="utf-8"))]
    assert found == [], "page scripts must come from resources/js via page_scripts:\n" + "\n".join(
        found
    )


def test_the_scan_reports_page_script_text() -> None:
    for source in (
        'page.evaluate("1")',
        'await self.page.evaluate("() => window.vm.toJSON()")',
        "page.evaluate(PAUSE_VM)",
        "page.evaluate(script, [1])",
        'reader.evaluate("(r) => r.read()")',
        "page.evaluate_handle(READER)",
        "page.add_init_script(path=CONTAINMENT)",
        "page.add_script_tag(url=server.url(RUNNER))",
        'page.wait_for_function("window.ready === true", timeout=5)',
        'self.page.runJavaScript("studioRest.allow(true)")',
        "self.runJavaScript(script, 0, done)",
        'self.evaluate("() => document.title")',
        'run_in_page(page, "(a) => window.StudioEval.run(a)", prepared)',
        "X = '''function (kind) { return kind; }'''",
    ):
        assert offences(source), source


def test_the_scan_passes_page_scripts_calls_and_other_evaluates() -> None:
    source = '''
"""A docstring may name window.vm and `document.title`."""
async def go(page, evaluator, entry, episode):
    await page_scripts.call(page, page_scripts.EDITOR, "program")
    await page.evaluate(page_scripts.PING_JS)
    self.page.runJavaScript(page_scripts.own_call("studioRest", "allow", True))
    await evaluator.evaluate(entry, b"sb3", project_name="final.sb3")
    await self.evaluator.evaluate(entry)
    await episode.evaluate(clock=clock)

async def evaluate(self, expression, arg):
    return await self.editor.page.evaluate_function(expression, arg, True)
'''
    assert offences(source) == []
