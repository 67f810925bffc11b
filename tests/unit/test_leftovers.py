"""What killed processes leave behind is removed by the next one: save temporaries, import
folders, a scratchworld server's imported tasks; a live process's temporaries are left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from studio.services.core import atomic
from studio.services.core.leftovers import is_leftover, owner_tag, temp_dir
from studio.services.core.store import scan_library
from studio.services.formats.scratchworld.server.checkout import TEMP_PREFIX, SwCheckout
from studio.services.formats.scratchworld.tasks import import_scratchworld
from tests.helpers.scratchworld_fixture import build_set
from tests.helpers.tasks import make_task


def _killed(code: str) -> None:
    """Run `code` in a Python process that kills itself (SIGKILL) at its end, as a kill -9
    during a save or an import would."""
    kill = "\nimport os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
    done = subprocess.run([sys.executable, "-c", code + kill], check=False)
    assert done.returncode == -9


def test_a_killed_saves_temporary_goes_at_the_next_write_and_at_the_next_scan(
    tmp_path: Path,
) -> None:
    folder = make_task(tmp_path / "lib" / "t")
    code = (
        "from pathlib import Path\nfrom studio.services.core import atomic\n"
        "fd, _ = atomic._create_temp(Path({!r}))\n"
    )
    _killed(code.format(str(folder / "golden.sb3")))
    _killed(code.format(str(folder / "initial.sb3")))
    temps = sorted(p.name for p in folder.glob(".*.tmp"))
    assert len(temps) == 2  # young: an age rule alone would keep them for ten minutes
    fd, _ = atomic._create_temp(folder / "task.json")  # a live writer's temporary
    os.close(fd)
    atomic.write_bytes(folder / "golden.sb3", (folder / "golden.sb3").read_bytes())
    assert sorted(p.name for p in folder.glob(".*.tmp")) != temps
    assert not list(folder.glob(".golden.sb3.*.tmp"))
    scan_library(tmp_path / "lib")  # what the studio does at start
    left = [p.name for p in folder.glob(".*.tmp")]
    assert left == [n for n in left if n.startswith(".task.json.")] and len(left) == 1


def test_names_of_a_live_process_or_another_host_are_kept_until_old() -> None:
    assert not is_leftover(f".x.{owner_tag()}-0123456789abcdef.tmp", 0.0)  # this process
    assert not is_leftover(".x.12-00000000-0123456789abcdef.tmp", 9e18)  # other host, young
    assert is_leftover(".x.12-00000000-0123456789abcdef.tmp", 0.0)  # other host, old


def test_a_killed_imports_hidden_folders_go_at_the_next_import(tmp_path: Path) -> None:
    sw = build_set(tmp_path / "sw")
    lib = tmp_path / "lib"
    lib.mkdir()
    _killed(
        "from pathlib import Path\nfrom studio.services.core.leftovers import temp_dir\n"
        f"d = temp_dir(Path({str(lib)!r}), 'cat_walk', '.importing')\n"
        "(d / 'task.json').write_text('{}')\n"
        f"temp_dir(Path({str(lib)!r}), 'cat_walk', '.old')\n"
    )
    live = temp_dir(lib, "other", ".importing")  # an import running now
    assert len(list(lib.glob(".*"))) == 3
    report = import_scratchworld(sw.root, lib)
    assert report.ok
    assert [p.name for p in lib.glob(".*")] == [live.name]


def test_a_killed_scratchworld_servers_task_folder_goes_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    sw = build_set(tmp_path / "sw")
    where = str(tmp_path / "tmp")
    _killed(
        "import tempfile\nfrom studio.services.core.leftovers import owner_tag\n"
        f"tempfile.mkdtemp(prefix='{TEMP_PREFIX}' + owner_tag() + '.', dir={where!r})\n"
    )
    assert len(list((tmp_path / "tmp").glob(TEMP_PREFIX + "*"))) == 1
    checkout = SwCheckout(sw.root)
    try:
        [mine] = (tmp_path / "tmp").glob(TEMP_PREFIX + "*")
        assert owner_tag() in mine.name and checkout.task_count >= len(sw.ids)
    finally:
        checkout.close()
    assert list((tmp_path / "tmp").glob(TEMP_PREFIX + "*")) == []
