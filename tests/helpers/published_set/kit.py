"""Short names for the blocks the set's projects use, and the costume factory.

Projects are built with `studio.services.core.projectbuild`. Scripts read like Scratch:

    sprite.add_script(flag(), goto(0, 0), forever(changex(5), bounce()))

Costumes come from `look`: a rectangle or a circle of a given size and colour, a vector (SVG)
costume by default or, with `bitmap=True`, a PNG costume of the same size on stage at bitmap
resolution 1 or 2; switching a sprite between vector and bitmap is one argument.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from studio.services.core.projectbuild import Block, Costume, ProjectBuilder, Sound, block

b = block


@cache
def look(
    name: str,
    width: float,
    height: float | None = None,
    fill: str = "#4c97ff",
    shape: str = "rect",
    bitmap: bool = False,
    resolution: int = 2,
) -> Costume:
    """A costume `width` x `height` (an ellipse in that box for shape="circle")."""
    height = width if height is None else height
    if bitmap:
        return Costume.bitmap(name, width, height, fill, shape=shape, resolution=resolution)
    if shape == "circle":
        return Costume.circle(name, width / 2 - 2, fill)
    return Costume.rect(name, width - 4, height - 4, fill)


@cache
def backdrop(name: str, fill: str, bitmap: bool = False, resolution: int = 1) -> Costume:
    if bitmap:
        return Costume.bitmap_backdrop(name, fill, resolution=resolution)
    return Costume.backdrop(name, fill)


@cache
def tone(name: str, seconds: float, hz: float) -> Sound:
    """A sound: a sine tone (made once per run, like the costumes)."""
    return Sound.tone(name, seconds, hz=hz)


def project(*backdrops: Costume) -> ProjectBuilder:
    """A project whose stage has `backdrops` (a white backdrop1 by default)."""
    p = ProjectBuilder(backdrops[0] if backdrops else None)
    for extra in backdrops[1:]:
        p.add_backdrop(extra)
    return p


# ---- hats ----------------------------------------------------------------------------------
def flag() -> Block:
    return b("event_whenflagclicked")


def on_key(key: str) -> Block:
    return b("event_whenkeypressed", KEY_OPTION=key)


def on_click() -> Block:
    return b("event_whenthisspriteclicked")


def on_message(name: str) -> Block:
    return b("event_whenbroadcastreceived", BROADCAST_OPTION=name)


def on_clone() -> Block:
    return b("control_start_as_clone")


# ---- control -------------------------------------------------------------------------------
def forever(*body: Block) -> Block:
    return b("control_forever", SUBSTACK=list(body))


def repeat(times: Any, *body: Block) -> Block:
    return b("control_repeat", TIMES=times, SUBSTACK=list(body))


def until(cond: Block, *body: Block) -> Block:
    return b("control_repeat_until", CONDITION=cond, SUBSTACK=list(body))


def if_(cond: Block, *body: Block) -> Block:
    return b("control_if", CONDITION=cond, SUBSTACK=list(body))


def if_else(cond: Block, then: list[Block], otherwise: list[Block]) -> Block:
    return b("control_if_else", CONDITION=cond, SUBSTACK=then, SUBSTACK2=otherwise)


def wait(seconds: Any) -> Block:
    return b("control_wait", DURATION=seconds)


def wait_until(cond: Block) -> Block:
    return b("control_wait_until", CONDITION=cond)


def stop(option: str = "all") -> Block:
    return b("control_stop", STOP_OPTION=option)


def clone(of: str = "_myself_") -> Block:
    return b("control_create_clone_of", CLONE_OPTION=of)


def delete_clone() -> Block:
    return b("control_delete_this_clone")


def broadcast(name: str) -> Block:
    return b("event_broadcast", BROADCAST_INPUT=name)


# ---- motion and looks ----------------------------------------------------------------------
def goto(x: Any, y: Any) -> Block:
    return b("motion_gotoxy", X=x, Y=y)


def go_to(where: str) -> Block:
    return b("motion_goto", TO=where)


def glide(secs: Any, x: Any, y: Any) -> Block:
    return b("motion_glidesecstoxy", SECS=secs, X=x, Y=y)


def move(steps: Any) -> Block:
    return b("motion_movesteps", STEPS=steps)


def changex(dx: Any) -> Block:
    return b("motion_changexby", DX=dx)


def changey(dy: Any) -> Block:
    return b("motion_changeyby", DY=dy)


def setx(x: Any) -> Block:
    return b("motion_setx", X=x)


def sety(y: Any) -> Block:
    return b("motion_sety", Y=y)


def point(direction: Any) -> Block:
    return b("motion_pointindirection", DIRECTION=direction)


def turn(degrees: Any) -> Block:
    return b("motion_turnright", DEGREES=degrees)


def bounce() -> Block:
    return b("motion_ifonedgebounce")


def xpos() -> Block:
    return b("motion_xposition")


def ypos() -> Block:
    return b("motion_yposition")


def say(text: Any, secs: Any = None) -> Block:
    if secs is None:
        return b("looks_say", MESSAGE=text)
    return b("looks_sayforsecs", MESSAGE=text, SECS=secs)


def costume(name: Any) -> Block:
    return b("looks_switchcostumeto", COSTUME=name)


def next_costume() -> Block:
    return b("looks_nextcostume")


def switch_backdrop(name: Any) -> Block:
    return b("looks_switchbackdropto", BACKDROP=name)


def show() -> Block:
    return b("looks_show")


def hide() -> Block:
    return b("looks_hide")


def size(percent: Any) -> Block:
    return b("looks_setsizeto", SIZE=percent)


# ---- data, sensing, operators --------------------------------------------------------------
def setvar(name: str, value: Any) -> Block:
    return b("data_setvariableto", VARIABLE=name, VALUE=value)


def changevar(name: str, by: Any) -> Block:
    return b("data_changevariableby", VARIABLE=name, VALUE=by)


def ask(question: Any) -> Block:
    return b("sensing_askandwait", QUESTION=question)


def answer() -> Block:
    return b("sensing_answer")


def key_pressed(key: str) -> Block:
    return b("sensing_keypressed", KEY_OPTION=key)


def touching(what: str) -> Block:
    return b("sensing_touchingobject", TOUCHINGOBJECTMENU=what)


def op(opcode: str, a: Any, c: Any) -> Block:
    """A two-argument operator: add, subtract, multiply, divide, mod, gt, lt, equals, join."""
    names = {"join": ("STRING1", "STRING2"), "gt": ("OPERAND1", "OPERAND2")}
    names |= {"lt": names["gt"], "equals": names["gt"], "and": names["gt"], "or": names["gt"]}
    first, second = names.get(opcode, ("NUM1", "NUM2"))
    return b(f"operator_{opcode}", **{first: a, second: c})


def gt(a: Any, c: Any) -> Block:
    return op("gt", a, c)


def lt(a: Any, c: Any) -> Block:
    return op("lt", a, c)


def eq(a: Any, c: Any) -> Block:
    return op("equals", a, c)


def not_(cond: Block) -> Block:
    return b("operator_not", OPERAND=cond)


def random(low: Any, high: Any) -> Block:
    return b("operator_random", FROM=low, TO=high)


def letter(index: Any, text: Any) -> Block:
    return b("operator_letter_of", LETTER=index, STRING=text)


def length(text: Any) -> Block:
    return b("operator_length", STRING=text)
