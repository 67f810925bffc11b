"""A published-like task set for the script-phase bench (issue 39): scripts of the published
ScratchWorld set's shape, short in real time, so that the figure tuned is the one users see.

Each task starts the program with the helper library's `EU.start` (a short settle), then samples
it for one to four seconds: clones made every frame and their directions (the shape of the
published case whose verdict differed between the clocks), `touching` between sprites, a
`touching colour` test (the stage must be drawn), `ask` answered after a short delay, timed
waits (a traffic light), the mouse followed. `write_set(root)` writes them in the published
layout with the published-style set's helper library; `studio import scratchworld` imports it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.published_like_cases import CATCH, DROPS, FAN, FOLLOW, GREET, LIGHTS, PAINT
from studio.services.core.projectbuild import Block, ProjectBuilder, block
from tests.helpers.published_set import HELPER, PROJECTS_DIR, SCRIPTS_DIR, TASKS_DIR
from tests.helpers.published_set.common import default_project, task
from tests.helpers.published_set.kit import (
    answer,
    ask,
    changevar,
    changey,
    clone,
    costume,
    delete_clone,
    flag,
    forever,
    go_to,
    goto,
    hide,
    if_,
    look,
    lt,
    on_clone,
    point,
    project,
    random,
    repeat,
    say,
    setvar,
    show,
    touching,
    turn,
    until,
    wait,
    ypos,
)
from tests.helpers.published_set.spec import CATEGORIES, TaskSpec

__all__ = ["like_library", "specs", "write_set"]


def touching_color(hex_colour: str) -> Block:
    return block("sensing_touchingcolor", COLOR=hex_colour)


# ---- projects ------------------------------------------------------------------------------
def fan(golden: bool) -> ProjectBuilder:
    """A clone every frame, each turned 3 degrees more than the one before (120 of them)."""
    p = project()
    s = p.add_sprite("Spinner", [look("arm", 60, 8, "#e76f51")], 0, 0)
    if golden:
        s.add_script(flag(), point(-170), repeat(120, clone(), turn(3)))
        s.add_script(on_clone(), forever(block("motion_movesteps", STEPS=1)))
    return p


def catch(golden: bool) -> ProjectBuilder:
    p = project()
    apple = p.add_sprite("Apple", [look("apple", 30, 30, "#d62828", "circle")], 0, 170)
    p.add_sprite("Bowl", [look("bowl", 120, 30, "#8d5524")], 0, -140)
    if golden:
        p.add_variable("caught", 0)
        apple.add_script(
            flag(),
            setvar("caught", 0),
            goto(0, 170),
            forever(
                changey(-10),
                if_(touching("Bowl"), changevar("caught", 1), goto(0, 170)),
                if_(lt(ypos(), -170), goto(0, 170)),
            ),
        )
    return p


def greet(golden: bool) -> ProjectBuilder:
    p = default_project()
    if golden:
        sprite = p.sprite("Sprite1")
        sprite.add_script(
            flag(),
            ask("What is your name?"),
            say(block("operator_join", STRING1="Hello ", STRING2=answer()), 2),
        )
    return p


def lights(golden: bool) -> ProjectBuilder:
    p = project()
    looks = [look("red", 40, 40, "#d00000", "circle"), look("green", 40, 40, "#38b000", "circle")]
    s = p.add_sprite("Light", looks, 0, 0)
    if golden:
        s.add_script(flag(), forever(costume("red"), wait(0.5), costume("green"), wait(0.5)))
    return p


def paint(golden: bool) -> ProjectBuilder:
    p = project()
    p.add_sprite("Wall", [look("wall", 40, 360, "#2a9d8f")], 200, 0)
    ball = p.add_sprite("Ball", [look("ball", 30, 30, "#f4a261", "circle")], -200, 0)
    if golden:
        p.add_variable("hits", 0)
        ball.add_script(
            flag(),
            setvar("hits", 0),
            goto(-200, 0),
            until(touching_color("#2a9d8f"), block("motion_changexby", DX=8)),
            changevar("hits", 1),
            say("Wall!"),
        )
    return p


def drops(golden: bool) -> ProjectBuilder:
    p = project()
    s = p.add_sprite("Drop", [look("drop", 12, 20, "#4895ef")], 0, 170)
    if golden:
        s.add_script(flag(), hide(), forever(clone(), wait(0.1)))
        s.add_script(
            on_clone(),
            goto(random(-220, 220), 170),
            show(),
            until(lt(ypos(), -170), changey(-12)),
            delete_clone(),
        )
    return p


def follow(golden: bool) -> ProjectBuilder:
    p = default_project()
    if golden:
        p.sprite("Sprite1").add_script(flag(), forever(go_to("_mouse_")))
    return p


def specs() -> list[TaskSpec]:
    """The set's tasks (create tasks of their own projects, each with a golden)."""
    common = {"description": "A published-like task.", "timeout": 20}
    made = [
        (
            "like_fan_clones",
            fan,
            FAN,
            "Make a fan of 120 clones, each 3 degrees further round.",
            "Clone directions rise with creation order.",
        ),
        (
            "like_catch_touching",
            catch,
            CATCH,
            "The apple falls onto the bowl and counts a catch.",
            "Touching the bowl counts.",
        ),
        (
            "like_ask_greet",
            greet,
            GREET,
            "Ask for a name and greet for 2 seconds.",
            "Asks, greets with the answer.",
        ),
        (
            "like_traffic_waits",
            lights,
            LIGHTS,
            "A light that changes every half second.",
            "Red, then green, in turn.",
        ),
        (
            "like_touch_colour",
            paint,
            PAINT,
            "The ball moves right until it touches the wall's colour.",
            "Stops at the wall's colour.",
        ),
        (
            "like_rain_clones",
            drops,
            DROPS,
            "Rain of clones that fall and are deleted.",
            "Drops fall and never pile up.",
        ),
        (
            "like_follow_mouse",
            follow,
            FOLLOW,
            "The sprite follows the mouse pointer.",
            "Always at the mouse.",
        ),
    ]
    return [
        task("create", id, make, cases, instruction=instruction, check=check, **common)
        for id, make, cases, instruction, check in made
    ]


def write_set(root: Path) -> list[str]:
    """Write the set at `root` in the published layout; the ids of its tasks."""
    out: list[str] = []
    for spec in specs():
        files = {
            root / TASKS_DIR / spec.category / f"{spec.id}.json": json.dumps(
                spec.task_json(), indent=2
            )
            + "\n",
            root / SCRIPTS_DIR / f"{spec.id}.js": spec.script(),
        }
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        for name, make in ((spec.initial, spec.make_initial), (spec.golden, spec.make_golden)):
            if name and make:
                (root / PROJECTS_DIR).mkdir(parents=True, exist_ok=True)
                (root / PROJECTS_DIR / name).write_bytes(make().build())
        out.append(spec.id)
    (root / SCRIPTS_DIR / "evaluation_utils.js").write_text(
        HELPER.read_text(encoding="utf-8"), encoding="utf-8"
    )
    lists = {c: [f"{i}.json" for i in out] if c == "create" else [] for c in CATEGORIES}
    (root / TASKS_DIR / "all_tasks.json").write_text(
        json.dumps(lists, indent=2) + "\n", encoding="utf-8"
    )
    return out


def like_library(work: Path) -> Path:
    """The set written under `work` and imported as a studio library (`studio import
    scratchworld`, in a new process), as a user would: the library's folder."""
    checkout = work / "like"
    write_set(checkout)
    lib = work / "like-lib"
    subprocess.run(
        [sys.executable, "-m", "studio", "import", "scratchworld", str(checkout), str(lib)],
        cwd=Path(__file__).resolve().parent.parent,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return lib
