# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Debug family "maze_runner": steer through a maze, with one injected bug per task.

The working game (maze_runner_golden.sb3): the Runner starts at (-200, -150) and moves 6
steps per frame while an arrow key is held; after each move, touching Wall1 or Wall2 undoes
it. Touching the Goal broadcasts "win" and stops the Runner; the Goal says "You win!". Wall1
is a bar at x -100 from y -180 up to 60, Wall2 a bar at x 60 from y -60 up to 180: the way
goes up, right over Wall1, down under Wall2 and right to the Goal at (200, -150).

Bugs: wrong_up_key (up listens to the space key), wall_not_checked (moving right ignores the
walls), win_broadcast_mismatch (the Goal waits for "won"), start_not_set (no go to the start).
"""

from __future__ import annotations

from studio.services.core.projectbuild import Block, ProjectBuilder
from tests.helpers.published_set.common import debug_family
from tests.helpers.published_set.kit import (
    backdrop,
    broadcast,
    changevar,
    changex,
    changey,
    flag,
    forever,
    goto,
    if_,
    key_pressed,
    look,
    on_message,
    op,
    project,
    say,
    setvar,
    stop,
    touching,
    wait,
)
from tests.helpers.published_set.spec import Case, TaskSpec, snippet

FAMILY = "maze_runner"
STEP = 6


def maze(bug: str | None, timer: bool = False) -> ProjectBuilder:
    """The game with `bug`; `timer` adds the time variable of the extend task."""
    p = project(backdrop("maze", "#edf6f9"))
    p.add_broadcast("win")
    if bug == "win_broadcast_mismatch":
        p.add_broadcast("won")
    runner = p.add_sprite(
        "Runner", [look("runner", 24, 24, "#e76f51", "circle", bitmap=True)], -200, -150
    )
    p.add_sprite("Wall1", [look("wall", 20, 240, "#264653", bitmap=True)], -100, -60)
    p.add_sprite("Wall2", [look("wall", 20, 240, "#264653", bitmap=True)], 60, 60)
    goal = p.add_sprite(
        "Goal", [look("goal", 40, 40, "#2a9d8f", bitmap=True, resolution=1)], 200, -150
    )
    wall = op("or", touching("Wall1"), touching("Wall2"))

    def step(key: str, move: Block, back: Block, checked: bool = True) -> Block:
        return if_(key_pressed(key), move, *([if_(wall, back)] if checked else []))

    start = [flag()] if bug == "start_not_set" else [flag(), goto(-200, -150)]
    up_key = "space" if bug == "wrong_up_key" else "up arrow"
    runner.add_script(
        *start,
        forever(
            step(up_key, changey(STEP), changey(-STEP)),
            step("down arrow", changey(-STEP), changey(STEP)),
            step("left arrow", changex(-STEP), changex(STEP)),
            step("right arrow", changex(STEP), changex(-STEP), bug != "wall_not_checked"),
            if_(touching("Goal"), broadcast("win"), stop("this script")),
        ),
    )
    won = [say("You win!")] + ([stop("other scripts in sprite")] if timer else [])
    goal.add_script(on_message("won" if bug == "win_broadcast_mismatch" else "win"), *won)
    if timer:
        p.add_variable("time", 0)
        goal.add_script(flag(), setvar("time", 0), forever(wait(1), changevar("time", 1)))
    return p


# Hold `key` until `done()` holds or `ms` pass; true when it held.
STEER = snippet(
    """
const steer = async (key, done, ms) => {
  EU.keyDown(vm, key);
  const ok = await EU.waitUntil(done, ms, 20);
  EU.keyUp(vm, key);
  await EU.sleep(100);
  return ok;
};
"""
)

CASES = {
    "start": Case(
        "the Runner starts at the bottom left",
        5,
        1.0,
        """
        const runner = EU.sprite(vm, 'Runner');
        runner.setXY(100, 100);
        await EU.start(vm, 600);
        EU.assert(EU.near(runner.x, -200, 0.5) && EU.near(runner.y, -150, 0.5), `the Runner is at (${runner.x}, ${runner.y})`);
        """,
    ),
    "keys": Case(
        "the arrow keys move the Runner in open space",
        9,
        3.5,
        """
        const runner = EU.sprite(vm, 'Runner');
        await EU.start(vm, 300);
        runner.setXY(-170, -20);
        const moves = [];
        for (const [key, axis, sign] of [['ArrowUp', 'y', 1], ['ArrowRight', 'x', 1], ['ArrowDown', 'y', -1], ['ArrowLeft', 'x', -1]]) {
          const before = runner[axis];
          await EU.holdKey(vm, key, 400);
          await EU.sleep(150);
          moves.push(Math.round((runner[axis] - before) * sign));
        }
        meta.moves = moves;
        EU.assert(moves.every((m) => m >= 6), `moves up, right, down, left: ${moves.join(', ')}`);
        """,
    ),
    "walls": Case(
        "the walls stop the Runner",
        12,
        5.0,
        """
        const runner = EU.sprite(vm, 'Runner');
        await EU.start(vm, 300);
        const tries = [[-140, -100, 'ArrowRight', (r) => r.x <= -118], [20, 60, 'ArrowRight', (r) => r.x <= 42], [-60, -100, 'ArrowLeft', (r) => r.x >= -82], [100, 20, 'ArrowLeft', (r) => r.x >= 78]];
        for (const [x, y, key, held] of tries) {
          runner.setXY(x, y);
          await EU.holdKey(vm, key, 1000);
          await EU.sleep(150);
          EU.assert(held(runner), `from (${x}, ${y}) ${key} went through a wall to x ${Math.round(runner.x)}`);
        }
        """,
    ),
    "goal": Case(
        "reaching the Goal: the Goal says You win! and the Runner stops",
        9,
        4.0,
        """
        const runner = EU.sprite(vm, 'Runner');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 300);
          runner.setXY(120, -150);
          await EU.holdKey(vm, 'ArrowRight', 1500);
          EU.assert(await says.waitFor((t, e) => t === 'You win!' && e.sprite === 'Goal', 1000), `no You win!; said ${JSON.stringify(says.texts())}`);
          const x = runner.x;
          await EU.holdKey(vm, 'ArrowLeft', 800);
          EU.assert(runner.x === x, 'the Runner still moves after winning');
        } finally { says.stop(); }
        """,
    ),
    "route": Case(
        "the whole way through the maze",
        25,
        5.5,
        STEER
        + """
        const runner = EU.sprite(vm, 'Runner');
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 300);
          EU.assert(await steer('ArrowUp', () => runner.y >= 100, 5000), `could not go up (y ${Math.round(runner.y)})`);
          EU.assert(await steer('ArrowRight', () => runner.x >= 0, 5000), `could not go right over Wall1 (x ${Math.round(runner.x)})`);
          EU.assert(await steer('ArrowDown', () => runner.y <= -140, 5000), `could not go down (y ${Math.round(runner.y)})`);
          await steer('ArrowRight', () => says.find((t) => t === 'You win!'), 5000);
          EU.assert(says.find((t, e) => t === 'You win!' && e.sprite === 'Goal'), `no You win! at the Goal; said ${JSON.stringify(says.texts())}`);
        } finally { says.stop(); }
        """,
    ),
}

GAME = (
    "In this maze game the Runner starts at x: -200, y: -150 and moves 6 steps while an arrow "
    "key is held; after each move, if it touches Wall1 or Wall2 it moves back. When it "
    "touches the Goal it broadcasts 'win' and stops, and the Goal says 'You win!'."
)
BUGS = [
    (
        "wrong_up_key",
        "The Runner does not go up when the up arrow is pressed.",
        ["keys", "route", "walls", "start"],
    ),
    (
        "wall_not_checked",
        "The Runner can walk through the walls when it goes right.",
        ["walls", "keys", "start", "goal"],
    ),
    (
        "win_broadcast_mismatch",
        "When the Runner reaches the Goal, nobody says 'You win!'.",
        ["goal", "route", "start", "walls"],
    ),
    (
        "start_not_set",
        "When the game is played again, the Runner does not start at the bottom left.",
        ["start", "route", "keys", "goal"],
    ),
]


def tasks() -> list[TaskSpec]:
    return debug_family(
        FAMILY,
        GAME,
        "Maze",
        maze,
        CASES,
        BUGS,
        check="The Runner starts at the bottom left, moves with the arrow keys, cannot "
        "pass the walls and wins at the Goal, the whole way through the maze.",
        timeout=30,
    )
