"""Cases about what a project carries: costumes (bitmap at resolution 2 and 1, vector), sounds,
the pen and music extensions, bitmap backdrops, and a large project."""

from __future__ import annotations

from studio.services.core.projectbuild import Block, Costume, ProjectBuilder, Sound, Var, block
from tests.corpus.case import Case, right_and_wrong
from tests.corpus.shortcuts import flag, on

b = block


# ---- costumes: bitmap (resolution 2 or 1) or vector, switching, touching ------------------


def _looks(kind: str) -> tuple[list[Costume], Costume]:
    """The Block sprite's two costumes (60x40 "wide", 40x40 "round") and the backdrop."""
    if kind == "vector":
        wide, round_ = (
            Costume.rect("wide", 56, 36, "#4c97ff"),
            Costume.circle("round", 18, "#4c97ff"),
        )
        return [wide, round_], Costume.backdrop("backdrop1", "#ffffff")
    res = 2 if kind == "bitmap2" else 1
    wide = Costume.bitmap("wide", 60, 40, "#4c97ff", resolution=res)
    round_ = Costume.bitmap("round", 40, 40, "#ff6680", shape="circle", resolution=res)
    return [wide, round_], Costume.bitmap_backdrop("backdrop1", "#ffffff", res, "#ddeeff")


def costumes_project(kind: str, right: bool) -> ProjectBuilder:
    costumes, backdrop = _looks(kind)
    p = ProjectBuilder(backdrop)
    p.add_variable("phase", 0)
    p.add_variable("hit_x", 0)
    for message in ("swap", "approach"):
        p.add_broadcast(message)
    p.add_sprite("Target", [Costume.circle("target", 20, "#59c059")], x=105, y=0)
    blk = p.add_sprite("Block", costumes, x=-150, y=0)
    blk.add_script(
        flag(),
        b("looks_switchcostumeto", COSTUME="wide"),
        b("motion_gotoxy", X=-150, Y=0),
        b("data_setvariableto", VARIABLE="phase", VALUE=0),
    )
    blk.add_script(
        on("swap"),
        b("looks_switchcostumeto", COSTUME="round" if right else "wide"),
        b("data_setvariableto", VARIABLE="phase", VALUE=1),
    )
    step = b("motion_changexby", DX=10)
    approach = (
        b(
            "control_repeat_until",
            CONDITION=b("sensing_touchingobject", TOUCHINGOBJECTMENU="Target"),
            SUBSTACK=[step],
        )
        if right
        else b("control_repeat", TIMES=5, SUBSTACK=[step])
    )
    blk.add_script(
        on("approach"),
        b("looks_switchcostumeto", COSTUME="round"),
        b("motion_gotoxy", X=0, Y=0),
        approach,
        b("data_setvariableto", VARIABLE="hit_x", VALUE=b("motion_xposition")),
        b("data_setvariableto", VARIABLE="phase", VALUE=2),
    )
    return p


COSTUME_TESTS = (
    "costumes load at their stage size",
    "switching costumes by name",
    "the round costume touches the vector Target at x 70",
)


def _costume_case(kind: str, label: str) -> Case:
    return right_and_wrong(
        f"costumes_{kind}",
        f"{label}: sizes on stage, switching by name, touching a vector sprite.",
        lambda right: costumes_project(kind, right),
        COSTUME_TESTS,
        (True, False, False),
        real_s=0.5,
        script="costumes",
    )


COSTUMES_BITMAP2 = _costume_case("bitmap2", "Bitmap costumes at resolution 2 (Scratch 3)")
COSTUMES_BITMAP1 = _costume_case("bitmap1", "Bitmap costumes at resolution 1 (from Scratch 2)")
COSTUMES_VECTOR = _costume_case("vector", "Vector costumes")


# ---- sounds -------------------------------------------------------------------------------


def sounds_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    for name in ("phase", "until_done_s", "start_s"):
        p.add_variable(name, 0)
    for message in ("long", "short"):
        p.add_broadcast(message)
    speaker = p.add_sprite("Speaker", [Costume.circle("speaker", 20, "#cf63cf")])
    speaker.add_sound(Sound.tone("beep", 1.0, hz=440))
    wait_op, start_op = ("sound_playuntildone", "sound_play")
    if not right:
        wait_op, start_op = start_op, wait_op
    for message, opcode, var, phase in (
        ("long", wait_op, "until_done_s", 1),
        ("short", start_op, "start_s", 2),
    ):
        speaker.add_script(
            on(message),
            b("sensing_resettimer"),
            b(opcode, SOUND_MENU="beep"),
            b("data_setvariableto", VARIABLE=var, VALUE=b("sensing_timer")),
            b("data_setvariableto", VARIABLE="phase", VALUE=phase),
        )
    return p


SOUNDS = right_and_wrong(
    "sounds",
    "A 1 s tone: 'play sound until done' takes about 1 s, 'start sound' does not wait.",
    sounds_project,
    (
        "the project carries its sound",
        "play sound until done waits for the 1 s tone",
        "start sound does not wait",
    ),
    (True, False, False),
    real_s=1.3,
)


# ---- pen ------------------------------------------------------------------------------------


def pen_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("done", 0)
    pen = p.add_sprite("Pen", [Costume.circle("pen", 6, "#0fbd8c")])
    square = b(
        "control_repeat",
        TIMES=4 if right else 3,
        SUBSTACK=[b("motion_movesteps", STEPS=50), b("motion_turnright", DEGREES=90)],
    )
    tail = [b("pen_stamp"), b("pen_penUp"), b("pen_clear")] if right else [b("pen_stamp")]
    pen.add_script(
        flag(),
        b("data_setvariableto", VARIABLE="done", VALUE=0),
        b("pen_clear"),
        b("motion_gotoxy", X=0, Y=0),
        b("motion_pointindirection", DIRECTION=90),
        b("pen_setPenColorToColor", COLOR="#ff0000"),
        b("pen_setPenSizeTo", SIZE=4 if right else 2),
        b("pen_changePenSizeBy", SIZE=1),
        b("pen_penDown"),
        square,
        *tail,
        b("data_setvariableto", VARIABLE="done", VALUE=1),
    )
    return p


PEN = right_and_wrong(
    "pen",
    "Pen: clear, colour, size, pen down, draw a square, stamp, pen up, clear.",
    pen_project,
    (
        "the pen square ends where it started",
        "pen state after the program",
        "the pen extension is loaded",
    ),
    (False, False, True),
    real_s=0.2,
)


# ---- music ----------------------------------------------------------------------------------


def music_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    for name in ("done", "elapsed", "tempo"):
        p.add_variable(name, 0)
    drummer = p.add_sprite("Drummer", [Costume.circle("drummer", 20, "#ffbf00")])
    drummer.add_script(
        flag(),
        b("data_setvariableto", VARIABLE="done", VALUE=0),
        b("music_setTempo", TEMPO=120 if right else 60),
        b("sensing_resettimer"),
        b("music_restForBeats", BEATS=1),
        b("music_playDrumForBeats", DRUM=1, BEATS=0.5),
        b("music_playNoteForBeats", NOTE=60, BEATS=0.5),
        b("data_setvariableto", VARIABLE="elapsed", VALUE=b("sensing_timer")),
        b("data_setvariableto", VARIABLE="tempo", VALUE=b("music_getTempo")),
        b("data_setvariableto", VARIABLE="done", VALUE=1),
    )
    return p


MUSIC = right_and_wrong(
    "music",
    "Music: at 120 bpm, rest 1 beat, a drum for 0.5 beat and a note for 0.5 beat take 1 s.",
    music_project,
    ("two beats at 120 bpm take one second", "the tempo is 120 bpm"),
    (False, False),
    real_s=2.0,
)


# ---- backdrops ------------------------------------------------------------------------------


def backdrops_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder(Costume.bitmap_backdrop("day", "#88ccff", gradient="#ffffff"))
    p.add_backdrop(Costume.bitmap_backdrop("night", "#000033", gradient="#202060"))
    p.add_backdrop(Costume.backdrop("dawn", "#ffcc99"))
    p.add_variable("done", 0)
    p.add_list("log")
    sun = p.add_sprite("Sun", [Costume.bitmap("sun", 40, 40, "#ffdd00", shape="circle")])
    switch = "looks_switchbackdroptoandwait" if right else "looks_switchbackdropto"
    sun.add_script(
        flag(),
        b("data_setvariableto", VARIABLE="done", VALUE=0),
        b("data_deletealloflist", LIST="log"),
        b("looks_switchbackdropto", BACKDROP="day"),
        b("data_addtolist", LIST="log", ITEM="switching"),
        b(switch, BACKDROP="night"),
        b("data_addtolist", LIST="log", ITEM="after wait"),
        b("looks_nextbackdrop"),
        b("data_addtolist", LIST="log", ITEM=b("looks_backdropnumbername", NUMBER_NAME="name")),
        b("data_setvariableto", VARIABLE="done", VALUE=1),
    )
    p.stage.add_script(
        b("event_whenbackdropswitchesto", BACKDROP="night"),
        b("data_addtolist", LIST="log", ITEM="night begins"),
        b("control_wait", DURATION=0.3),
        b("data_addtolist", LIST="log", ITEM="night ends"),
    )
    return p


BACKDROPS = right_and_wrong(
    "backdrops",
    "Bitmap backdrops; 'switch backdrop to night and wait' waits for 'when backdrop "
    "switches to night'; next backdrop.",
    backdrops_project,
    (
        "bitmap backdrops fill the stage",
        "switch backdrop and wait waits for the backdrop's scripts",
        "when backdrop switches to night starts its script",
    ),
    (True, False, True),
    real_s=0.4,
)


# ---- a large project ------------------------------------------------------------------------

SPRITES = 40


def _filler(i: int) -> list[Block]:
    """A script of 75 blocks that never runs (its message is never sent): bulk, like a real
    project's many scripts."""
    blocks: list[Block] = [on("never")]
    for k in range(18):
        blocks += [
            b("motion_changexby", DX=b("operator_add", NUM1=k, NUM2=i)),
            b("looks_say", MESSAGE=b("operator_join", STRING1="n", STRING2=Var("ticks"))),
            b("data_changevariableby", VARIABLE="ticks", VALUE=-1),
        ]
    return blocks


def large_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder(Costume.bitmap_backdrop("field", "#eeffee", gradient="#aaddaa"))
    p.add_variable("ticks", 0)
    p.add_broadcast("never")
    for i in range(SPRITES):
        shape = "circle" if i % 2 else "rect"
        costumes = [Costume.bitmap(f"c{i}", 16, 16, f"#{(i * 6) % 256:02x}60c0", shape=shape)]
        sprite = p.add_sprite(f"Sprite{i}", costumes, x=-200 + i * 10, y=-150 + i * 7)
        times = 9 if (i == 17 and not right) else 10
        sprite.add_script(
            flag(),
            b("motion_gotoxy", X=-200 + i * 10, Y=-150 + i * 7),
            b(
                "control_repeat",
                TIMES=times,
                SUBSTACK=[
                    b("motion_changexby", DX=1),
                    b("data_changevariableby", VARIABLE="ticks", VALUE=1),
                ],
            ),
        )
        sprite.add_script(*_filler(i))
    return p


LARGE = right_and_wrong(
    "large_project",
    "40 bitmap sprites, about 3800 blocks; every sprite moves 10 steps on the flag.",
    large_project,
    ("all 40 sprites and their 3000 blocks load", "every sprite runs its flag script"),
    (True, False),
    real_s=1.4,
)

MEDIA_CASES: tuple[Case, ...] = (
    COSTUMES_BITMAP2,
    COSTUMES_BITMAP1,
    COSTUMES_VECTOR,
    SOUNDS,
    PEN,
    MUSIC,
    BACKDROPS,
    LARGE,
)
