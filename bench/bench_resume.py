"""Resuming a 1,000-episode campaign with 990 finished: seconds until the next episode plays.

Builds a campaign folder on disk as `studio run` leaves it: 100 task folders (copies of the
bundled tasks under ids of their own), 10 epochs, `campaign.json`, a `results.jsonl` with 990
result lines and the 990 episodes' folders (`<task>/epoch-<e>/` with run.json holding a verdict,
steps.jsonl, screenshots, observations, final.sb3, final.png); 5 of the 10 unfinished episodes
have a half-written folder (the run was killed in them), which the resume empties.

Figures, in one run:
- planning: reading the manifest, loading the tasks, reading the ledger and planning the jobs
  (studio.app.campaigns' `open_campaign` and `plan_episodes`, what `studio run --resume`
  calls), in this process on a copy of the campaign;
- from starting `studio run --resume DIR` (a new process, the idle agent): when it printed its
  plan; when the first of the 10 remaining episodes had its editor page ready with the task
  loaded (its run.json appears); and when it started playing: its first action was sent to the
  page and recorded (the first line of its steps.jsonl, written once the action is done). The
  last is the figure of the target. The run is then stopped (its process group).

With `--compare`, also the same for a new one-task campaign: what a resume costs beyond the
browser's start and the editor's load, which every run pays. `--repeat N` measures N times.
The runs use a browser profile of their own (XDG_CACHE_HOME in the bench's folder), warmed by
one whole run first (its editor and evaluation pages load the bundle twice, after which V8
keeps its compiled code), as a user's own profile is after a first run: the shared user profiles are
taken by whatever other studio processes run (three at most), and a run then gets a cold
throwaway one (`--shared-cache` measures that way).

Target (issue 29): starts playing within 5 s.
Usage: .venv/bin/python bench/bench_resume.py [--keep DIR] [--compare] [--repeat N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.models.agent import EpisodeStatus, Mode  # noqa: E402
from studio.models.evaluation import EvalResult  # noqa: E402
from studio.models.trajectory import RunInfo  # noqa: E402
from studio.services.core.store import load_task  # noqa: E402
from studio.services.runs import campaign  # noqa: E402

TARGET_S = 5.0
# the runs' environment: main() gives them a cache folder (browser profile) of their own
ENV: dict[str, str] = dict(os.environ)
TASKS, EPOCHS, LEFT = 100, 10, 10
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def make_tasks(where: Path) -> list[Path]:
    """TASKS task folders: the bundled tasks copied round-robin under ids of their own."""
    bundled = sorted(p for p in (ROOT / "tasks").iterdir() if (p / "task.json").is_file())
    folders = []
    for i in range(TASKS):
        source = bundled[i % len(bundled)]
        folder = where / f"{source.name}_{i:03d}"
        shutil.copytree(source, folder)
        data = json.loads((folder / "task.json").read_text())
        data["id"] = folder.name
        (folder / "task.json").write_text(json.dumps(data, indent=2))
        folders.append(folder)
    return folders


def write_episode(folder: Path, task_folder: Path, epoch: int, position: int) -> dict:
    """A finished episode's folder as `studio run` leaves it; its results.jsonl line."""
    folder.mkdir(parents=True)
    task_id = task_folder.name
    result = EvalResult(
        task_id=task_id, project="final.sb3", passed_tests=1, total_tests=3,
        partial_success_rate=1 / 3,
    )  # fmt: skip
    now = datetime.now(UTC)
    run = RunInfo(
        episode_id=f"{position:012x}", task_id=task_id, task_folder=str(task_folder),
        mode=Mode.COMPOSITE, agent="idle", started_at=now, ended_at=now,
        status=EpisodeStatus.DONE, steps=3, step_limit=100, eval=result,
        meta={"epoch": epoch, "seed_position": position},
    )  # fmt: skip
    (folder / "run.json").write_text(run.model_dump_json(indent=2) + "\n")
    with open(folder / "steps.jsonl", "w") as fh:
        for n in range(1, 4):
            step = {"index": n, "action": {"type": "wait", "seconds": 0.1}, "ok": True}
            fh.write(json.dumps(step) + "\n")
    for n in range(1, 4):
        (folder / f"step_{n:04d}.png").write_bytes(PNG)
        (folder / f"obs_{n:04d}.json").write_text(json.dumps({"step": n, "targets": []}))
    shutil.copy(task_folder / "initial.sb3", folder / "final.sb3")
    (folder / "final.png").write_bytes(PNG)
    return campaign.result_line(run, task_id, epoch, folder)


def build(run_dir: Path, task_folders: list[Path]) -> list[Path]:
    """The campaign folder; the folders of the LEFT unfinished episodes, in plan order."""
    tasks = [load_task(f) for f in task_folders]
    manifest = campaign.new_manifest(
        tasks, "idle", Mode.COMPOSITE, EPOCHS, 0, steps=3, realtime=False, retries=0,
        actions=None, max_seconds=None, max_tokens=None, max_cost=None, prices=None,
    )  # fmt: skip
    campaign.write_manifest(run_dir, manifest)
    left, lines = [], []
    total = TASKS * EPOCHS
    for epoch in range(1, EPOCHS + 1):
        for i, folder in enumerate(task_folders):
            position = (epoch - 1) * TASKS + i
            episode = campaign.episode_folder(run_dir, folder.name, epoch, EPOCHS)
            if position >= total - LEFT:
                left.append(episode)
                continue
            lines.append(write_episode(episode, folder, epoch, position))
    with open(run_dir / campaign.RESULTS_FILE, "w") as fh:
        fh.writelines(json.dumps(line) + "\n" for line in lines)
    tear(left)
    return left


def tear(left: list[Path]) -> None:
    """The unfinished episodes as a killed run leaves them: every other one half-written
    (steps begun, no verdict), the others not begun. Also undoes what a measured resume
    (stopped at its first action) left in them."""
    for n, episode in enumerate(left):
        shutil.rmtree(episode, ignore_errors=True)
        if n % 2:
            episode.mkdir(parents=True)
            (episode / "steps.jsonl").write_text('{"index": 1}\n{"ind')


def plan_seconds(run_dir: Path) -> tuple[float, int, int]:
    """Time of what `studio run --resume` does before it plays: (seconds, finished, left)."""
    from studio.app.campaigns import CampaignRequest, open_campaign, plan_episodes

    t0 = time.perf_counter()
    request = CampaignRequest(resume=run_dir)
    planned = plan_episodes(open_campaign(request, print), request, print)
    finished, jobs = planned.finished, planned.jobs
    return time.perf_counter() - t0, finished, len(jobs)


def first_action(folder: Path) -> bool:
    """Has the episode in `folder` recorded its first action (a whole step line, not the
    torn one a killed run left, which the resume removes)?"""
    try:
        line = (folder / "steps.jsonl").read_text(encoding="utf-8").split("\n", 1)[0]
        return "action" in json.loads(line)
    except (OSError, ValueError):
        return False


def start_seconds(
    args: list[str], marks: dict[str, Callable[[], bool]]
) -> tuple[dict[str, float], str]:
    """Run `studio run ARGS` until every mark is true; the seconds from the start to each mark
    (and to the line that printed a resume plan: "plan"), and what it printed."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "studio", "run", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its browser is ended with the group
        env=ENV,
    )
    lines: list[tuple[float, str]] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append((time.perf_counter() - t0, line.rstrip("\n")))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seen: dict[str, float] = {}
    try:
        deadline = t0 + 300
        while len(seen) < len(marks):
            for name, reached in marks.items():
                if name not in seen and reached():
                    seen[name] = time.perf_counter() - t0
            if proc.poll() is not None or time.perf_counter() > deadline:
                proc.wait(timeout=60)
                reader.join(timeout=10)
                raise SystemExit("no episode started:\n" + "\n".join(t for _, t in lines))
            time.sleep(0.01)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        reader.join(timeout=10)
    planned = next((at for at, text in lines if text.startswith("resuming")), None)
    if planned is not None:
        seen["plan"] = planned
    return seen, "\n".join(text for _, text in lines)


def load_average() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def new_campaign(task: Path, out: Path) -> dict[str, float]:
    """Time `studio run TASK` (a new one-task campaign) to its page and its first action."""

    def page() -> bool:
        return any(out.glob("*/*/run.json"))

    def plays() -> bool:
        return any(first_action(f) for f in out.glob("*/*"))

    fresh = [str(task), "--agent", "idle", "--steps", "3", "--out", str(out)]
    return start_seconds(fresh, {"page": page, "plays": plays})[0]


def resume_once(base: Path, left: list[Path], first: bool) -> None:
    """Time `studio run --resume` on the built campaign to its first action; print it."""
    tear(left)  # as built, whatever an earlier measurement left
    marks = {
        "page": lambda: any((f / "run.json").is_file() for f in left),
        "plays": lambda: any(first_action(f) for f in left),
    }
    seen, output = start_seconds(["--resume", str(base / "resumed")], marks)
    if first:
        said = [line for line in output.splitlines() if line.startswith("resuming")]
        print(said[0] if said else output)
    plan = f"plan printed {seen['plan']:.2f} s, " if "plan" in seen else ""
    verdict = "OK" if seen["plays"] <= TARGET_S else "SLOW"
    print(
        f"resume: {plan}first episode's page ready {seen['page']:.2f} s, starts playing "
        f"{seen['plays']:.2f} s (target {TARGET_S:.0f} s) {verdict} "
        f"(load average {load_average()})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build the campaign here and keep it")
    parser.add_argument(
        "--compare", action="store_true", help="also time a new one-task campaign's first episode"
    )
    parser.add_argument("--repeat", type=int, default=1, help="measure N times")
    parser.add_argument(
        "--shared-cache",
        action="store_true",
        help="use the user's browser profiles (shared with every studio process running), "
        "not a profile of the bench's own warmed by one run first",
    )
    args = parser.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="bench-resume-"))
    base.mkdir(parents=True, exist_ok=True)
    try:
        t0 = time.perf_counter()
        task_folders = make_tasks(base / "tasks")
        build(base / "planned", task_folders)
        left = build(base / "resumed", task_folders)
        print(f"built 2 campaigns of {TASKS * EPOCHS} episodes in {time.perf_counter() - t0:.1f} s")
        planning, finished, todo = plan_seconds(base / "planned")
        assert (finished, todo) == (TASKS * EPOCHS - LEFT, LEFT), (finished, todo)
        print(f"planning (manifest, {TASKS} tasks, ledger, jobs): {planning:.3f} s "
              f"({finished} finished, {todo} to play)")  # fmt: skip
        if not args.shared_cache:
            ENV["XDG_CACHE_HOME"] = str(base / "cache")
            t0 = time.perf_counter()
            warm = [str(task_folders[0]), "--agent", "idle", "--out", str(base / "warm-up")]
            subprocess.run(
                [sys.executable, "-m", "studio", "run", *warm],
                cwd=ROOT, env=ENV, capture_output=True, check=True, timeout=600,
            )  # fmt: skip
            print(
                f"warm-up run to its end (a new browser profile; its code cache is written "
                f"once the bundle loaded twice): {time.perf_counter() - t0:.2f} s"
            )
        for n in range(args.repeat):
            resume_once(base, left, n == 0)
            if args.compare:
                cold = new_campaign(task_folders[0], base / f"fresh-{n}")
                print(
                    f"for comparison, a new one-task campaign: page ready {cold['page']:.2f} s, "
                    f"starts playing {cold['plays']:.2f} s (load average {load_average()})"
                )
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
