"""The participant page's routes: links, what is served, and what is refused (and recorded)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.models.evaluation import EvalResult
from studio.services.core import paths
from studio.services.core.store import TaskFolder
from studio.services.runtime.editions import Edition
from studio.services.studies.desk import ParticipantDesk
from studio.services.studies.plan import StudyPlan, new_study
from studio.services.studies.server import load_tasks
from studio.services.studies.web import StudyWeb

IDS = ["create_cat_walk", "debug_score_reset"]


class Client:
    """A synchronous face on an httpx client of the ASGI app (one event loop per test)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def _call(self, method: str, path: str, **kw: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                return await c.request(method, path, **kw)

        return self.loop.run_until_complete(go())

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self._call("GET", path, **kw)

    def head(self, path: str, **kw: Any) -> httpx.Response:
        return self._call("HEAD", path, **kw)

    def post(self, path: str, **kw: Any) -> httpx.Response:
        return self._call("POST", path, **kw)

    loop = asyncio.new_event_loop()


@pytest.fixture
def site(tmp_path: Path) -> tuple[Client, StudyPlan, Path]:
    folder = tmp_path / "study"
    plan = new_study(paths.BUNDLED_TASKS, folder, 2, seed=1, task_ids=IDS)

    async def evaluate(task: TaskFolder, sb3: bytes) -> EvalResult:
        return EvalResult(task_id=task.task.id, project="final.sb3")

    tasks = load_tasks(plan)
    desks = {p.token: ParticipantDesk(folder, plan, p, tasks, evaluate) for p in plan.participants}
    return Client(StudyWeb(folder, desks, Edition.CURRENT).app), plan, folder


def test_a_wrong_link_is_refused_and_recorded(site: tuple[Client, StudyPlan, Path]) -> None:
    client, plan, folder = site
    for path in ("/p/not-a-token/", "/p/not-a-token/api/state", "/p/x/studio-js/study-page.js"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert "not part of the study" in answer.json()["error"]
    lines = (folder / "refusals.jsonl").read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["token_start"] == "not-"
    assert all(p.token[:8] not in "".join(lines) for p in plan.participants)


def test_the_page_and_only_its_scripts_and_the_bundle_are_served(
    site: tuple[Client, StudyPlan, Path],
) -> None:
    client, plan, _ = site
    base = f"/p/{plan.participants[0].token}/"
    page = client.get(base)
    assert page.status_code == 200
    for script in ("scratch-gui-standalone.js", "studio-js/edition-current.js",
                   "studio-js/input-capture.js", "studio-js/study-page.js"):  # fmt: skip
        assert f'src="{script}"' in page.text
    assert client.get(base + "studio-js/study-page.js").status_code == 200
    assert client.head(base + "scratch-gui-standalone.js").status_code in (200, 405)
    for refused in ("studio-js/eval-runner.js", "studio-js/../../tasks/create_cat_walk/golden.sb3",
                    "../../../tasks/create_cat_walk/evaluate.js", "eval.html"):  # fmt: skip
        assert client.get(base + refused).status_code == 404, refused


def test_the_page_has_no_overscroll(site: tuple[Client, StudyPlan, Path]) -> None:
    """A sideways scroll where the participant's page does not scroll must not go "back"
    (issue 44): the page's own html/body rule turns overscroll off."""
    client, plan, _ = site
    page = client.get(f"/p/{plan.participants[0].token}/").text
    rule = page[page.index("html, body {") :]
    assert "overscroll-behavior: none;" in rule[: rule.index("}")]


def test_calls_need_the_claiming_tab_and_bodies_have_a_cap(
    site: tuple[Client, StudyPlan, Path],
) -> None:
    client, plan, folder = site
    api = f"/p/{plan.participants[0].token}/api/"
    answer = client.get(api + "state")
    assert answer.status_code == 409 and "no longer the study's page" in answer.json()["error"]
    assert client.post(api + "claim", json={"tab": "tab-12345678"}).json()["screen"] == "consent"
    tab = {"X-Study-Tab": "tab-12345678"}
    assert client.post(api + "consent", headers=tab).json()["screen"] == "practice"
    state = client.post(api + "start", headers=tab, json={"editor": [1280, 720]}).json()
    assert state["screen"] == "task" and state["task"]["practice"] is True
    project = client.get(api + "project", headers=tab)
    assert project.content == (paths.BUNDLED_TASKS / plan.practice / "initial.sb3").read_bytes()
    big = client.post(api + "events", headers=tab, content=b"[" + b" " * 300_000 + b"]")
    assert big.status_code == 413 and "larger than" in big.json()["error"]
    assert client.post(api + "nothing", headers=tab).status_code == 404
    notes = json.loads((folder / "participants" / f"{plan.participants[0].code}.json").read_text())
    assert any("larger than" in r["what"] for r in notes["refusals"])
