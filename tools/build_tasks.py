"""Build the bundled task library: `python tools/build_tasks.py [OUT_DIR]` (default: tasks/).

Each task is defined here: its instruction, the initial and golden projects (built with
studio.services.core.projectbuild) and the metadata. The tool writes task.json, initial.sb3 and
golden.sb3 into tasks/<id>/; the evaluation scripts (tasks/<id>/evaluate.js) are written by
hand and left alone. An .sb3 whose content (project.json and assets) is unchanged is not
rewritten, so a rebuild leaves git clean. The review state and other fields authors set in the
studio are kept from an existing task.json.
"""

from __future__ import annotations

import io
import json
import sys
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from studio.models.task import TASK_FILE, Task  # noqa: E402
from studio.services.core import atomic  # noqa: E402
from studio.services.core.projectbuild import Costume, ProjectBuilder, Var, block  # noqa: E402

b = block
AUTHOR = "Scratch Bench Studio"
OWNED_FIELDS = ("id", "category", "instruction", "description", "initial_project")
OWNED_FIELDS += ("golden_project", "evaluation", "author", "metadata")
Pair = tuple[ProjectBuilder, ProjectBuilder]


@dataclass
class TaskDef:
    """One bundled task: text, the two projects and metadata."""

    id: str
    category: str
    instruction: str
    description: str
    evaluation: str
    projects: Callable[[], Pair]
    difficulty: str
    tags: list[str]
    test_cases: list[dict[str, Any]] = field(default_factory=list)


def flag() -> Any:
    return b("event_whenflagclicked")


def key(name: str) -> Any:
    return b("event_whenkeypressed", KEY_OPTION=name)


def say_is(text: str) -> Any:
    return b("looks_say", MESSAGE=text)


def pair(make: Callable[[bool], ProjectBuilder]) -> Pair:
    """Build the initial (False) and golden (True) variants of one project definition."""
    return make(False), make(True)


# ---- create ------------------------------------------------------------------------------


def cat_walk(golden: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    cat = p.add_sprite("Cat", [Costume.circle("cat", 30, "#ff9f1c")])
    if golden:
        cat.add_script(
            flag(),
            b("motion_gotoxy", X=-100, Y=0),
            b(
                "control_repeat",
                TIMES=10,
                SUBSTACK=[b("motion_movesteps", STEPS=15), b("control_wait", DURATION=0.1)],
            ),
        )
    return p


def arrow_keys(golden: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    ball = p.add_sprite("Ball", [Costume.circle("ball", 20, "#2ec4b6")])
    if golden:
        ball.add_script(key("right arrow"), b("motion_changexby", DX=10))
        ball.add_script(key("left arrow"), b("motion_changexby", DX=-10))
        ball.add_script(key("up arrow"), b("motion_changeyby", DY=10))
        ball.add_script(key("down arrow"), b("motion_changeyby", DY=-10))
    return p


def button_click(golden: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    costumes = [Costume.rect("up", 120, 50, "#6ad16a"), Costume.rect("pressed", 120, 50, "#2f7d32")]
    button = p.add_sprite("Button", costumes)
    if golden:
        button.add_script(flag(), b("looks_switchcostumeto", COSTUME="up"))
        button.add_script(
            b("event_whenthisspriteclicked"),
            b("looks_switchcostumeto", COSTUME="pressed"),
            say_is("Hello!"),
        )
    return p


# ---- debug -------------------------------------------------------------------------------


def score_reset(golden: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("score", 7)  # left over from the author's last game
    coin = p.add_sprite("Coin", [Costume.circle("coin", 35, "#ffd166")])
    start = [flag(), b("motion_gotoxy", X=0, Y=0), b("looks_show")]
    if golden:
        start.insert(1, b("data_setvariableto", VARIABLE="score", VALUE=0))
    coin.add_script(*start)
    coin.add_script(
        b("event_whenthisspriteclicked"),
        b("data_changevariableby", VARIABLE="score", VALUE=1),
    )
    return p


def game_over(golden: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("lives", 3)
    p.add_broadcast("check lives")
    p.add_broadcast("game over")
    bug = p.add_sprite("Bug", [Costume.circle("bug", 30, "#e63946")], x=-120, y=-40)
    banner = p.add_sprite("Banner", [Costume.rect("banner", 200, 60, "#1d3557")], y=110)
    bug.add_script(
        flag(),
        b("data_setvariableto", VARIABLE="lives", VALUE=3),
        b("motion_gotoxy", X=-120, Y=-40),
        b("looks_show"),
    )
    click = [
        b("event_whenthisspriteclicked"),
        b("data_changevariableby", VARIABLE="lives", VALUE=-1),
    ]
    if golden:
        click.append(b("event_broadcast", BROADCAST_INPUT="check lives"))
    bug.add_script(*click)
    bug.add_script(
        b("event_whenbroadcastreceived", BROADCAST_OPTION="check lives"),
        b(
            "control_if",
            CONDITION=b("operator_equals", OPERAND1=Var("lives"), OPERAND2=0),
            SUBSTACK=[b("looks_hide"), b("event_broadcast", BROADCAST_INPUT="game over")],
        ),
    )
    banner.add_script(flag(), b("looks_hide"))
    banner.add_script(
        b("event_whenbroadcastreceived", BROADCAST_OPTION="game over"),
        b("looks_show"),
        say_is("Game Over!"),
    )
    return p


def rocket(golden: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    ship = p.add_sprite("Rocket", [Costume.rect("rocket", 30, 70, "#8d99ae")], y=-150)
    comparator = "operator_gt" if golden else "operator_lt"
    ship.add_script(
        flag(),
        b("motion_gotoxy", X=0, Y=-150),
        b(
            "control_repeat_until",
            CONDITION=b(comparator, OPERAND1=b("motion_yposition"), OPERAND2=100),
            SUBSTACK=[b("motion_changeyby", DY=10)],
        ),
        say_is("Up here!"),
    )
    return p


# ---- extend ------------------------------------------------------------------------------


def frog_jump(golden: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    frog = p.add_sprite("Frog", [Costume.circle("frog", 25, "#57cc99")], y=-100)
    frog.add_script(flag(), b("motion_gotoxy", X=0, Y=-100))
    frog.add_script(key("right arrow"), b("motion_changexby", DX=10))
    frog.add_script(key("left arrow"), b("motion_changexby", DX=-10))
    if golden:
        frog.add_script(
            key("space"),
            b("control_repeat", TIMES=10, SUBSTACK=[b("motion_changeyby", DY=10)]),
            b("control_repeat", TIMES=10, SUBSTACK=[b("motion_changeyby", DY=-10)]),
        )
    return p


def rain_clones(golden: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    cloud = p.add_sprite("Cloud", [Costume.rect("cloud", 140, 50, "#dfe7fd")], y=150)
    drop = p.add_sprite("Drop", [Costume.circle("drop", 8, "#4361ee")], y=150, visible=False)
    cloud.add_script(flag(), b("motion_gotoxy", X=0, Y=150))
    cloud.add_script(key("right arrow"), b("motion_changexby", DX=20))
    cloud.add_script(key("left arrow"), b("motion_changexby", DX=-20))
    drop.add_script(flag(), b("looks_hide"))
    if golden:
        cloud.add_script(key("space"), b("control_create_clone_of", CLONE_OPTION="Drop"))
        drop.add_script(
            b("control_start_as_clone"),
            b("motion_goto", TO="Cloud"),
            b("looks_show"),
            b("control_repeat", TIMES=20, SUBSTACK=[b("motion_changeyby", DY=-10)]),
            b("control_delete_this_clone"),
        )
    return p


def balloon_pops(golden: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    costumes = [Costume.circle("red", 40, "#ef476f"), Costume.circle("blue", 40, "#118ab2")]
    balloon = p.add_sprite("Balloon", costumes)
    start = [flag(), b("motion_gotoxy", X=0, Y=0), b("looks_switchcostumeto", COSTUME="red")]
    start.append(b("looks_show"))
    click = [b("event_whenthisspriteclicked"), b("looks_nextcostume")]
    if golden:
        p.add_variable("pops", 0)
        start.insert(1, b("data_setvariableto", VARIABLE="pops", VALUE=0))
        click.append(b("data_changevariableby", VARIABLE="pops", VALUE=1))
        won = b("operator_equals", OPERAND1=Var("pops"), OPERAND2=5)
        click.append(b("control_if", CONDITION=won, SUBSTACK=[say_is("You win!")]))
    balloon.add_script(*start)
    balloon.add_script(*click)
    return p


# ---- compute -----------------------------------------------------------------------------


def robot(golden: bool, variables: list[str], script: Callable[[], list[Any]]) -> ProjectBuilder:
    p = ProjectBuilder()
    bot = p.add_sprite("Robot", [Costume.rect("robot", 60, 80, "#adb5bd")], x=-120, y=-40)
    if golden:
        for name in variables:
            p.add_variable(name, 0)
        bot.add_script(flag(), *script())
    return p


def ask(question: str) -> Any:
    return b("sensing_askandwait", QUESTION=question)


def set_var(name: str, value: Any) -> Any:
    return b("data_setvariableto", VARIABLE=name, VALUE=value)


def larger(golden: bool) -> ProjectBuilder:
    return robot(
        golden,
        ["first", "second"],
        lambda: [
            ask("First number?"),
            set_var("first", b("sensing_answer")),
            ask("Second number?"),
            set_var("second", b("sensing_answer")),
            b(
                "control_if_else",
                CONDITION=b("operator_gt", OPERAND1=Var("first"), OPERAND2=Var("second")),
                SUBSTACK=[b("looks_say", MESSAGE=Var("first"))],
                SUBSTACK2=[b("looks_say", MESSAGE=Var("second"))],
            ),
        ],
    )


def sum_to_n(golden: bool) -> ProjectBuilder:
    return robot(
        golden,
        ["total", "counter"],
        lambda: [
            ask("Pick a number"),
            set_var("total", 0),
            set_var("counter", 0),
            b(
                "control_repeat",
                TIMES=b("sensing_answer"),
                SUBSTACK=[
                    b("data_changevariableby", VARIABLE="counter", VALUE=1),
                    b("data_changevariableby", VARIABLE="total", VALUE=Var("counter")),
                ],
            ),
            b("looks_say", MESSAGE=Var("total")),
        ],
    )


def count_vowels(golden: bool) -> ProjectBuilder:
    letter = b("operator_letter_of", LETTER=Var("index"), STRING=b("sensing_answer"))
    return robot(
        golden,
        ["vowels", "index"],
        lambda: [
            ask("Type a word"),
            set_var("vowels", 0),
            set_var("index", 0),
            b(
                "control_repeat",
                TIMES=b("operator_length", STRING=b("sensing_answer")),
                SUBSTACK=[
                    b("data_changevariableby", VARIABLE="index", VALUE=1),
                    b(
                        "control_if",
                        CONDITION=b("operator_contains", STRING1="aeiou", STRING2=letter),
                        SUBSTACK=[b("data_changevariableby", VARIABLE="vowels", VALUE=1)],
                    ),
                ],
            ),
            b("looks_say", MESSAGE=Var("vowels")),
        ],
    )


def _cases(pairs: list[tuple[Any, Any]]) -> list[dict[str, Any]]:
    return [{"input": i, "output": o} for i, o in pairs]


TASKS: list[TaskDef] = [
    TaskDef(
        "create_cat_walk",
        "create",
        "When the green flag is clicked, make the Cat go to x: -100, y: 0, then repeat 10 "
        "times: move 15 steps and wait 0.1 seconds. The Cat should end at x: 50, y: 0 and walk "
        "there step by step, not jump there at once.",
        "Make the Cat walk to the right in small steps when the green flag is clicked.",
        "Green flag from anywhere: the Cat passes x -100, y 0, ends at x 50, y 0, takes small "
        "steps and about one second.",
        lambda: pair(cat_walk),
        "easy",
        ["motion", "loops", "wait", "green flag"],
    ),
    TaskDef(
        "create_arrow_keys",
        "create",
        "Make the Ball move with the arrow keys. Each press of the right arrow key moves it 10 "
        "steps to the right (x goes up by 10), the left arrow key 10 steps to the left, the up "
        "arrow key 10 steps up (y goes up by 10) and the down arrow key 10 steps down.",
        "Steer the Ball with the four arrow keys.",
        "Each arrow key moves the Ball by 10 in its direction; presses add up; other keys do "
        "nothing.",
        lambda: pair(arrow_keys),
        "easy",
        ["keys", "motion"],
    ),
    TaskDef(
        "create_button_click",
        "create",
        "When the green flag is clicked, the Button should switch to its costume named up. "
        "When the Button is clicked, it should switch to its costume named pressed and say "
        "Hello!",
        "A button that changes costume and says Hello! when clicked.",
        "Green flag shows the up costume; a click on the Button shows pressed and says Hello!; "
        "a click elsewhere does nothing; every click says Hello! again.",
        lambda: pair(button_click),
        "easy",
        ["sprite click", "costumes", "say"],
    ),
    TaskDef(
        "debug_score_reset",
        "debug",
        "When the green flag is clicked, the Coin should show itself in the middle of the "
        "stage (x: 0, y: 0) and the score should be 0. Each click on the Coin adds 1 to the "
        "score. Right now the score keeps its old value from the last game. Fix the project.",
        "Missing initialization: the score variable is never reset.",
        "Green flag shows the Coin at the centre and resets score to 0 from any value; each "
        "click on the Coin adds exactly 1; a new game starts again from 0.",
        lambda: pair(score_reset),
        "easy",
        ["variables", "sprite click", "missing initialization"],
    ),
    TaskDef(
        "debug_game_over",
        "debug",
        "Each click on the Bug takes away one of its 3 lives (the variable lives). When lives "
        "reaches 0, the message game over should be broadcast, the Bug should hide, and the "
        "Banner should appear and say Game Over!. Right now nothing happens when lives reaches "
        "0. Fix the project.",
        "Untriggered event: the message that checks the lives is never broadcast.",
        "Green flag sets lives to 3 and hides the Banner; clicks take lives; three clicks "
        "broadcast game over, hide the Bug, show the Banner saying Game Over!; two do not.",
        lambda: pair(game_over),
        "medium",
        ["broadcast", "variables", "sprite click", "visibility", "untriggered event"],
    ),
    TaskDef(
        "debug_rocket_comparator",
        "debug",
        "When the green flag is clicked, the Rocket should start at x: 0, y: -150, fly up 10 "
        "steps at a time until it is higher than y: 100, and then say Up here!. Right now it "
        "says Up here! without flying. Fix the project.",
        "Flipped comparator in the loop condition.",
        "The Rocket starts at y -150, climbs in steps of 10 to y 110, says Up here! only at the "
        "top, and does it again on the next green flag.",
        lambda: pair(rocket),
        "medium",
        ["loops", "conditions", "motion", "flipped comparator"],
    ),
    TaskDef(
        "extend_frog_jump",
        "extend",
        "The Frog already walks with the left and right arrow keys. Add a jump: when the space "
        "key is pressed, the Frog should move up 10 steps at a time, 10 times (100 steps "
        "higher), and then come back down 10 steps at a time, 10 times, to where it started. "
        "Walking must still work.",
        "Add a space-bar jump to a Frog that already walks.",
        "Arrow keys still walk by 10; space lifts the Frog 100 steps in small steps and lands "
        "it where it started, without moving sideways.",
        lambda: pair(frog_jump),
        "medium",
        ["keys", "loops", "motion"],
    ),
    TaskDef(
        "extend_rain_clones",
        "extend",
        "The Cloud already moves left and right with the arrow keys, and the Drop sprite is "
        "hidden. Add rain: when the space key is pressed, the Cloud should create a clone of "
        "the Drop. Each Drop clone should go to the Cloud, show itself, move down 10 steps at a "
        "time, 20 times, and then delete itself. The Drop sprite itself stays hidden.",
        "Add clones: rain drops that fall from the Cloud and disappear.",
        "Arrow keys still move the Cloud; each space press makes one Drop clone at the Cloud "
        "that shows, falls and deletes itself; the original Drop stays hidden.",
        lambda: pair(rain_clones),
        "hard",
        ["clones", "keys", "loops", "visibility"],
    ),
    TaskDef(
        "extend_balloon_pops",
        "extend",
        "Clicking the Balloon already changes its colour. Add a variable named pops (for all "
        "sprites): when the green flag is clicked it should be 0, and every click on the "
        "Balloon should add 1 to pops. When pops reaches 5, the Balloon should say You win!",
        "Add a click counter and a win message to a Balloon.",
        "Clicks still switch between the red and blue costumes; green flag sets pops to 0; each "
        "click adds 1; the fifth click says You win!, the fourth does not.",
        lambda: pair(balloon_pops),
        "medium",
        ["variables", "sprite click", "conditions", "costumes"],
    ),
    TaskDef(
        "compute_larger_number",
        "compute",
        "When the green flag is clicked, the Robot should ask for a first number, then ask for "
        "a second number, and then say the larger of the two numbers (if they are equal, say "
        "that number).",
        "Ask two numbers and say the larger one.",
        "Answers both questions for each test case and checks the last thing said.",
        lambda: pair(larger),
        "easy",
        ["ask", "conditions", "operators"],
        _cases([([3, 8], 8), ([10, 2], 10), ([-5, -9], -5), ([7, 7], 7), ([2, 11], 11)]),
    ),
    TaskDef(
        "compute_sum_to_n",
        "compute",
        "When the green flag is clicked, the Robot should ask for a number and then say the "
        "sum of all whole numbers from 1 up to that number. For example, for 4 it says 10 "
        "(1 + 2 + 3 + 4). For 0 it says 0.",
        "Sum the whole numbers from 1 to n.",
        "Answers the question for each test case and checks the last thing said.",
        lambda: pair(sum_to_n),
        "medium",
        ["ask", "loops", "variables"],
        _cases([(4, 10), (1, 1), (10, 55), (100, 5050), (0, 0)]),
    ),
    TaskDef(
        "compute_count_vowels",
        "compute",
        "When the green flag is clicked, the Robot should ask for a word and then say how many "
        "vowels (a, e, i, o, u, capital or small) the answer has. For example, for banana it "
        "says 3.",
        "Count the vowels in a word.",
        "Answers the question for each test case and checks the last thing said.",
        lambda: pair(count_vowels),
        "hard",
        ["ask", "loops", "strings", "conditions"],
        _cases([("banana", 3), ("Scratch", 1), ("EDUCATION", 5), ("rhythm", 0), ("hi you", 3)]),
    ),
]


# ---- analysis of the built projects -----------------------------------------------------


def _script_blocks(project: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(target name, block id, block) for every non-shadow block, variables reporters included."""
    out = []
    for target in project["targets"]:
        for bid, blk in target["blocks"].items():
            if isinstance(blk, dict) and not blk.get("shadow"):
                out.append((target["name"], bid, blk))
    return out


def block_types_used(project: dict[str, Any]) -> list[str]:
    """The opcodes of the project's scripts (a variable reporter counts as data_variable)."""
    used = set()
    for _, _, blk in _script_blocks(project):
        used.add(blk["opcode"])
        for value in blk["inputs"].values():
            if isinstance(value[1], list) and value[1][0] == 12:
                used.add("data_variable")
    return sorted(used)


def _signatures(project: dict[str, Any]) -> Counter[str]:
    """One string per block: target, opcode, fields and the literal values of its inputs."""
    shadows = {bid: blk for t in project["targets"] for bid, blk in t["blocks"].items()}
    sigs: Counter[str] = Counter()
    for target, _, blk in _script_blocks(project):
        literals = {}
        for name, value in sorted(blk["inputs"].items()):
            slot = value[1]
            if isinstance(slot, list):
                literals[name] = slot[1:2]
            elif slot in shadows and shadows[slot].get("shadow"):
                literals[name] = shadows[slot]["fields"]
        fields = {k: v[0] for k, v in blk["fields"].items()}
        sigs[json.dumps([target, blk["opcode"], fields, literals], sort_keys=True)] += 1
    return sigs


def blocks_changed(initial: dict[str, Any], golden: dict[str, Any]) -> int:
    """How many blocks were added, removed or edited from initial to golden (edit = one)."""
    a, b_ = _signatures(initial), _signatures(golden)
    return max(sum((a - b_).values()), sum((b_ - a).values()))


# ---- writing -----------------------------------------------------------------------------


def sb3_content(data: bytes) -> tuple[Any, dict[str, bytes]]:
    """project.json (parsed) and the other members of an .sb3, for comparing content."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    return json.loads(members.pop("project.json")), members


def write_sb3(path: Path, builder: ProjectBuilder) -> bool:
    """Write the project unless the file already has the same content; True if written."""
    data = builder.build()
    if path.is_file():
        try:
            if sb3_content(path.read_bytes()) == sb3_content(data):
                return False
        except (zipfile.BadZipFile, KeyError, ValueError):
            pass
    atomic.write_bytes(path, data)
    return True


def task_json(task: TaskDef, initial: dict[str, Any], golden: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": task.id,
        "category": task.category,
        "instruction": task.instruction,
        "description": task.description,
        "initial_project": "initial.sb3",
        "golden_project": "golden.sb3",
        "evaluation": {
            "script": "evaluate.js",
            "timeout_s": 60.0,
            "description": task.evaluation,
            "helper_library": None,
            "test_cases": task.test_cases,
        },
        "author": AUTHOR,
        "metadata": {
            "block_types_used": block_types_used(golden),
            "blocks_changed": blocks_changed(initial, golden),
            "difficulty": task.difficulty,
            "tags": task.tags,
        },
    }


def write_task(task: TaskDef, out: Path) -> list[str]:
    """Write one task folder; return the names of the files that changed."""
    folder = out / task.id
    folder.mkdir(parents=True, exist_ok=True)
    initial, golden = task.projects()
    changed = [
        name
        for name, builder in (("initial.sb3", initial), ("golden.sb3", golden))
        if write_sb3(folder / name, builder)
    ]
    fields = task_json(task, initial.to_json(), golden.to_json())
    existing: dict[str, Any] = {}
    if (folder / TASK_FILE).is_file():
        existing = json.loads((folder / TASK_FILE).read_text(encoding="utf-8"))
    kept = {k: v for k, v in existing.items() if k not in OWNED_FIELDS}
    data = Task.model_validate(kept | fields).model_dump(mode="json")
    if data != existing:
        atomic.write_json(folder / TASK_FILE, data)
        changed.append(TASK_FILE)
    if not (folder / "evaluate.js").is_file():
        print(f"warning: {task.id} has no evaluate.js yet", file=sys.stderr)
    return changed


def build_all(out: Path) -> dict[str, list[str]]:
    return {task.id: write_task(task, out) for task in TASKS}


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "tasks"
    for task_id, changed in build_all(out).items():
        print(f"{task_id}: {', '.join(changed) if changed else 'up to date'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
