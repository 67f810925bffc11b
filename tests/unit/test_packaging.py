"""A regular (non-editable) install works: the wheel carries the studio's code, its JavaScript,
resources/ (not the Scratch GUI bundle), tasks/ and diagnostics/, and the code finds them there.
And the set-up's constraints file pins every dependency pyproject.toml names, at its version.

The wheel is built (setuptools' PEP 517 backend, as `pip install .` does, without pip) from a
copy of the files the build reads, with a stand-in bundle and a hidden `.trash/` task added.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO

SHIPPED = {"resources": ("js", "web", "report"), "tasks": None, "diagnostics": None}


def _copy_sources(dest: Path) -> None:
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(REPO / name, dest / name)
    skip = shutil.ignore_patterns("__pycache__", "scratch-gui")
    for name in ("studio", "resources", "tasks", "diagnostics"):
        shutil.copytree(REPO / name, dest / name, ignore=skip)
    bundle = dest / "resources" / "scratch-gui" / "dist"
    bundle.mkdir(parents=True)
    (bundle / "scratch-gui-standalone.js").write_text("// 150 MB in real life")
    (dest / "tasks" / ".trash" / "old").mkdir(parents=True)
    (dest / "tasks" / ".trash" / "old" / "task.json").write_text("{}")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    _copy_sources(src)
    build = "from setuptools import build_meta; print(build_meta.build_wheel('dist'))"
    done = subprocess.run(
        [sys.executable, "-c", build], cwd=src, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.findall(r"\w*Warning\b.*", done.stderr) == []  # e.g. data folders seen as packages
    return src / "dist" / done.stdout.strip().splitlines()[-1]


def _shipped_files() -> list[str]:
    """Every file the wheel must carry besides Python code, as its path in the wheel."""
    found = [str(p.relative_to(REPO)) for p in (REPO / "studio").rglob("*.js")]
    for top, keep in SHIPPED.items():
        for folder in [REPO / top] if keep is None else [REPO / top / sub for sub in keep]:
            for path in sorted(folder.rglob("*")):
                parts = path.relative_to(REPO).parts
                if path.is_file() and not any(part.startswith(".") for part in parts):
                    found.append("studio/shipped/" + "/".join(parts))
    return found


def test_the_wheel_carries_code_resources_tasks_and_diagnostics(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    code = {str(p.relative_to(REPO)) for p in (REPO / "studio").rglob("*.py")}
    assert code <= names
    shipped = _shipped_files()
    assert len(shipped) > 100 and "studio/shipped/resources/js/evaluation_utils.js" in shipped
    assert "studio/shipped/tasks/create_cat_walk/golden.sb3" in shipped
    assert sorted(set(shipped) - names) == []
    assert not [n for n in names if "scratch-gui" in n or ".trash" in n]
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "studio = studio.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_installed_layout_finds_what_it_ships(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)  # a pure-Python wheel, installed
    probe = (
        "from studio.services.core import paths\n"
        "print(paths.INSTALLED, paths.HELPER_LIBRARY.is_file(), (paths.WEB_DIR / 'editor.html')"
        ".is_file(), (paths.RESOURCES / 'report' / 'report.html').is_file(), "
        "(paths.BUNDLED_TASKS / 'create_cat_walk' / 'task.json').is_file(), "
        "(paths.DIAGNOSTICS / 'qa').is_dir())\n"
        "print(*paths.bundle_places(), sep='\\n')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("STUDIO_BUNDLE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    found, *places = done.stdout.splitlines()
    assert found == "True True True True True True"
    assert places == [str(tmp_path / "data" / "scratch-bench-studio" / "scratch-gui" / "dist")]


def _pins(lines: list[str]) -> dict[str, str]:
    pins = {}
    for line in lines:
        match = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*==\s*([^\s;#]+).*", line)
        if match:
            pins[re.sub(r"[-_.]+", "-", match[1]).lower()] = match[2]
    return pins


def test_the_constraints_pin_every_dependency_at_its_version() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = _pins([*project["dependencies"], *project["optional-dependencies"]["dev"]])
    locked = _pins((REPO / "constraints.txt").read_text().splitlines())
    pip_leaves_out = {"setuptools", "pip", "wheel"}  # pip freeze does not list them
    wrong = {
        name: (version, locked.get(name))
        for name, version in declared.items()
        if name not in pip_leaves_out and locked.get(name) != version
    }
    assert wrong == {}, "run `make constraints` (pyproject pin, constraints pin): " + str(wrong)
    assert "opencv-python" not in locked and "opencv-python-headless" in locked
    assert "rapidocr-onnxruntime" not in locked
