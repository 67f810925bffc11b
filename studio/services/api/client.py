"""A client of the agent API shaped like the episode manager, so agents run against a server.

`RemoteEpisodeManager(url, token)` offers `create/get/list/delete` and episodes with `observe`,
`step`, `evaluate`, `request_feedback`, `close`, like `studio.services.episodes.episode`, but
every call goes over HTTP to `studio serve` (or the GUI's server). `run_episode` and batch runs
use it unchanged: this is how `studio run --api URL` drives episodes through the API. A refused
action (422, 409) is an `ActionError` with the server's message, as in-process.

An episode created with `feedback_turns` N asks the server for that budget (POST /episodes); a
feedback turn is an evaluate of the running episode, counted by the same ledger a local episode
keeps (`episodes.feedback.FeedbackTurns`) and refused as it would be (`FeedbackRefused`, also
when the server refuses with 409). With `record_to`, what the run's reports and measures read
is kept there (`remote_record.LocalRecord`: the turns, the result, the final program).

The calls go through httpx, which follows no redirect (a redirect is an `ApiCallError` naming
the Location: the bearer token is never sent on to it) and ignores the environment: the studio
listens on loopback, so no proxy from `HTTP_PROXY`/`ALL_PROXY` and no netrc are used.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
import ssl
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from studio.models.agent import ActionError, EpisodeStatus, Mode, Observation, StepRecord
from studio.models.errors import StudioError
from studio.models.evaluation import Clock, EvalResult
from studio.models.trajectory import RunInfo
from studio.services.api.remote_record import LocalRecord
from studio.services.core.store import TaskFolder
from studio.services.episodes.feedback import FeedbackRefused, FeedbackTurns

__all__ = ["ApiCallError", "ApiClient", "RemoteEpisode", "RemoteEpisodeManager"]

log = logging.getLogger(__name__)


class ApiCallError(StudioError):
    """The server answered an error that is not about the action (auth, unknown episode)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status


class ApiClient:
    """JSON calls with the bearer token; blocking I/O runs in a worker thread.

    One httpx client (a pool of kept-alive connections) serves every call, from any thread;
    `close()` releases it (a later call opens a new one).
    """

    def __init__(self, url: str, token: str, timeout_s: float = 900.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout_s = timeout_s
        self._http: httpx.Client | None = None
        self._lock = threading.Lock()

    async def call(self, method: str, path: str, body: Any = None) -> Any:
        return await asyncio.to_thread(self._call, method, path, body)

    def close(self) -> None:
        with self._lock:
            http, self._http = self._http, None
        if http is not None:
            http.close()

    def _client(self) -> httpx.Client:
        with self._lock:
            if self._http is None:
                self._http = httpx.Client(
                    follow_redirects=False,  # the token must not travel to another address
                    trust_env=False,  # loopback: no proxy, no netrc
                    verify=ssl.create_default_context(),  # the system's store, as urllib's
                )
            return self._http

    def _call(self, method: str, path: str, body: Any) -> Any:
        data = json.dumps(body).encode("utf-8") if body is not None else None
        headers = {"Authorization": f"Bearer {self.token}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        url = self.url + path
        try:
            resp = self._client().request(
                method, url, content=data, headers=headers, timeout=self.timeout_s
            )
        except (httpx.RequestError, httpx.InvalidURL) as exc:
            reason = str(exc) or type(exc).__name__
            raise StudioError(f"cannot reach the agent API at {self.url}: {reason}") from None
        if 300 <= resp.status_code < 400:
            location = resp.headers.get("Location", "(no Location)")
            raise ApiCallError(
                resp.status_code,
                f"{url} redirects to {location}; redirects are not followed "
                "(the token is only sent to the address given)",
            )
        if resp.status_code >= 400:
            raise ApiCallError(resp.status_code, _error_text(resp))
        return json.loads(resp.content)


def _error_text(resp: httpx.Response) -> str:
    raw = resp.content
    try:
        return str(json.loads(raw)["error"])
    except (ValueError, KeyError, TypeError):
        return raw[:300].decode("utf-8", "replace") or resp.reason_phrase


class RemoteEpisode:
    """An episode living in a server; mirrors its status from the answers."""

    def __init__(
        self,
        client: ApiClient,
        data: dict[str, Any],
        task: TaskFolder,
        feedback_turns: int = 0,
        record: LocalRecord | None = None,
    ) -> None:
        self.client = client
        self.id = str(data["id"])
        self.task = task
        self.mode = Mode(data["mode"])
        self.status = EpisodeStatus(data["status"])
        self.step_count = int(data["steps"])
        self.trajectory_dir: Path | None = None  # the steps are recorded on the server's side
        self.feedback_turns = FeedbackTurns(budget=feedback_turns)
        self.record = record  # what this machine keeps (remote_record), or None

    @property
    def running(self) -> bool:
        return self.status is EpisodeStatus.RUNNING

    async def observe(self) -> Observation:
        data = await self._call("GET", "/observation")
        self.status = EpisodeStatus(data.pop("status", self.status))
        return Observation.model_validate(data)

    async def step(
        self, raw_action: dict[str, Any], reasoning: str = "", usage: dict[str, Any] | None = None
    ) -> StepRecord:
        """One action through the server (which records the steps; `usage` stays with the
        caller's run.json)."""
        body = {"api": raw_action.get("api"), "args": raw_action.get("args") or {}}
        if reasoning:
            body["reasoning"] = reasoning
        try:
            data = await self._call("POST", "/actions", body)
        except ApiCallError as exc:
            if exc.status in (400, 409, 422):
                await self._refresh()  # a refused action still counts as a step
                raise ActionError(str(exc).removeprefix(f"HTTP {exc.status}: ")) from None
            raise
        record = StepRecord.model_validate(data)
        self.status, self.step_count = record.status_after, record.index
        return record

    async def evaluate(self, clock: Clock = Clock.REAL, seed: int = 0) -> EvalResult:
        """The episode's result; an episode still running (a limit ended the loop) is
        evaluated as it stands and closed (`final`), never as a feedback turn. With a local
        record, the program is kept first (as `final.sb3`) and the result after."""
        body: dict[str, Any] = {"clock": Clock(clock).value, "seed": seed}
        if self.running:
            body["final"] = True
        if self.record is not None:
            await self._keep_program(self.record)
        result = EvalResult.model_validate(await self._call("POST", "/evaluate", body))
        if self.record is not None:
            if self.running:  # `final` closed it on the server
                self.status = EpisodeStatus.CLOSED
            self.record.result(result, self.step_count, self.status)
        return result

    async def request_feedback(
        self, clock: Clock = Clock.REAL, seed: int = 0
    ) -> tuple[EvalResult, dict[str, Any]]:
        """One feedback turn: the running episode evaluated on the server and counted here as
        a local episode counts it; FeedbackRefused beyond the budget, here or on the server."""
        if not self.running:
            raise self.feedback_turns.refusal()

        async def evaluate() -> EvalResult:
            body = {"clock": Clock(clock).value, "seed": seed}
            try:
                return EvalResult.model_validate(await self._call("POST", "/evaluate", body))
            except ApiCallError as exc:
                if exc.status == 409:
                    raise FeedbackRefused(str(exc).removeprefix("HTTP 409: ")) from None
                raise

        result, turn = await self.feedback_turns.take(evaluate, self.step_count)
        if self.record is not None:
            self.record.turns(self.feedback_turns.budget, self.feedback_turns.turns)
        return result, turn

    async def _keep_program(self, record: LocalRecord) -> None:
        """The current program from the server into the local record; a server that cannot
        give it (an older one, a lost page) leaves the episode without a final program."""
        try:
            data = await self._call("GET", "/program")
            record.program(base64.b64decode(str(data["sb3_base64"]), validate=True))
        except (ApiCallError, KeyError, TypeError, binascii.Error) as exc:
            log.warning("episode %s: its program was not kept: %s", self.id, exc)

    async def close(self) -> None:
        try:
            await self.client.call("DELETE", f"/episodes/{self.id}")
        except ApiCallError as exc:
            if exc.status != 404:
                raise

    async def _refresh(self) -> None:
        data = await self.client.call("GET", f"/episodes/{self.id}")
        self.status, self.step_count = EpisodeStatus(data["status"]), int(data["steps"])

    async def _call(self, method: str, sub: str, body: Any = None) -> Any:
        return await self.client.call(method, f"/episodes/{self.id}{sub}", body)


class RemoteEpisodeManager:
    """The episode manager's interface over the API (tasks are sent as folder paths)."""

    def __init__(self, url: str, token: str, step_limit: int | None = None) -> None:
        self.client = ApiClient(url, token)
        self.step_limit = step_limit
        self._episodes: dict[str, RemoteEpisode] = {}

    async def start(self) -> None:
        try:
            await self.client.call("GET", "/episodes")  # reachable, and the token is right
        except BaseException:
            self.client.close()  # no `close()` follows a failed start
            raise

    async def close(self) -> None:
        try:
            for episode in list(self._episodes.values()):
                await episode.close()
            self._episodes.clear()
        finally:
            self.client.close()

    async def __aenter__(self) -> RemoteEpisodeManager:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def create(
        self,
        task: TaskFolder,
        mode: Mode,
        record_to: Path | None = None,
        agent_name: str = "unknown",
        step_limit: int | None = None,
        feedback_turns: int = 0,
    ) -> RemoteEpisode:
        """Start an episode on the server, which records its steps; with `record_to`, the
        feedback turns, the result and the final program are kept there too (module
        docstring). `feedback_turns`: the mid-episode evaluations it grants."""
        body: dict[str, Any] = {
            "task": str(Path(task.folder).resolve()),
            "mode": Mode(mode).value,
            "agent": agent_name,
        }
        if step_limit or self.step_limit:
            body["step_limit"] = step_limit or self.step_limit
        if feedback_turns:
            body["feedback_turns"] = feedback_turns
        data = await self.client.call("POST", "/episodes", body)
        record = None
        if record_to is not None:
            header = RunInfo(
                episode_id=str(data["id"]),
                task_id=task.task.id,
                task_folder=str(task.folder),
                mode=Mode(mode),
                agent=agent_name,
                started_at=datetime.now(UTC),
                step_limit=step_limit or self.step_limit,
            )
            record = LocalRecord(Path(record_to), header)
        episode = RemoteEpisode(self.client, data, task, feedback_turns, record)
        self._episodes[episode.id] = episode
        return episode

    def get(self, episode_id: str) -> RemoteEpisode:
        return self._episodes[episode_id]

    def list(self) -> list[RemoteEpisode]:
        return list(self._episodes.values())

    async def delete(self, episode_id: str) -> None:
        episode = self._episodes.pop(episode_id)
        await episode.close()
