"""Cases about the running program: clones, ask/answer, broadcasts, the Scratch timer, lists,
keyboard and mouse input. Scripts use the studio's helper library (EvaluationUtils)."""

from __future__ import annotations

from studio.services.core.projectbuild import Block, Costume, ProjectBuilder, Var, block
from tests.corpus.case import Case, right_and_wrong
from tests.corpus.shortcuts import flag, on, setvar

b = block


def log(item: object) -> Block:
    return b("data_addtolist", LIST="log", ITEM=item)


def dot(name: str, fill: str = "#4c97ff", radius: float = 15) -> list[Costume]:
    return [Costume.circle(name, radius, fill)]


# ---- clones ---------------------------------------------------------------------------------


def clones_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("made", 0)
    p.add_variable("clear", 0)
    spawner = p.add_sprite("Spawner", dot("spawner", "#ff8c1a"), x=-200, y=0)
    spawner.add_script(
        flag(),
        b("looks_hide"),
        setvar("made", 0),
        setvar("clear", 0),
        b("motion_gotoxy", X=-200, Y=0),
        b(
            "control_repeat",
            TIMES=5 if right else 4,
            SUBSTACK=[
                b("control_create_clone_of", CLONE_OPTION="_myself_"),
                b("motion_changexby", DX=80),
            ],
        ),
    )
    tail = [b("control_delete_this_clone")] if right else []
    spawner.add_script(
        b("control_start_as_clone"),
        b("looks_show"),
        b("data_changevariableby", VARIABLE="made", VALUE=1),
        b("control_wait_until", CONDITION=b("operator_equals", OPERAND1=Var("clear"), OPERAND2=1)),
        *tail,
    )
    return p


CLONES = right_and_wrong(
    "clones",
    "The Spawner makes five clones 80 steps apart; they delete themselves when clear is 1.",
    clones_project,
    ("five clones are created", "clones stand 80 steps apart", "clones delete themselves"),
    (False, False, False),
    real_s=1.0,
)


# ---- ask and answer -------------------------------------------------------------------------


def ask_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    for name in ("greeting", "double_age", "done"):
        p.add_variable(name, 0)
    cat = p.add_sprite("Cat", dot("cat", "#ffab19", 20))
    name = b("sensing_answer") if right else "there"
    age = (
        b("operator_multiply", NUM1=b("sensing_answer"), NUM2=2)
        if right
        else b("operator_add", NUM1=b("sensing_answer"), NUM2=2)
    )
    cat.add_script(
        flag(),
        setvar("done", 0),
        b("sensing_askandwait", QUESTION="What is your name?"),
        setvar("greeting", b("operator_join", STRING1="Hello, ", STRING2=name)),
        b("looks_say", MESSAGE=Var("greeting")),
        b("sensing_askandwait", QUESTION="How old are you?"),
        setvar("double_age", age),
        setvar("done", 1),
    )
    return p


ASK = right_and_wrong(
    "ask_answer",
    "The Cat asks a name and an age, greets by name and doubles the age.",
    ask_project,
    ("both questions are asked", "the greeting uses the answer", "the second answer is doubled"),
    (True, False, False),
    real_s=0.3,
)


# ---- broadcasts -----------------------------------------------------------------------------


def broadcasts_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("done", 0)
    p.add_list("log")
    for message in ("work", "ping"):
        p.add_broadcast(message)
    first, second = ("event_broadcastandwait", "event_broadcast")
    if not right:
        first, second = second, first
    sender = p.add_sprite("Sender", dot("sender"), x=-100)
    sender.add_script(
        flag(),
        setvar("done", 0),
        b("data_deletealloflist", LIST="log"),
        log("start"),
        b(first, BROADCAST_INPUT="work"),
        log("after work"),
        b(second, BROADCAST_INPUT="ping"),
        log("after ping"),
        setvar("done", 1),
    )
    worker = p.add_sprite("Worker", dot("worker", "#59c059"))
    worker.add_script(on("work"), b("control_wait", DURATION=0.3), log("worked"))
    worker.add_script(on("ping"), log("ping seen by Worker"))
    echo = p.add_sprite("Echo", dot("echo", "#9966ff"), x=100)
    echo.add_script(on("ping"), b("control_wait", DURATION=0.2), log("pong"))
    return p


BROADCASTS = right_and_wrong(
    "broadcasts",
    "broadcast and wait waits for every receiver; broadcast reaches all receivers and goes on.",
    broadcasts_project,
    (
        "broadcast and wait waits for the receivers",
        "a broadcast reaches every receiver",
        "broadcast does not wait",
    ),
    (False, True, False),
    real_s=0.5,
)


# ---- the Scratch timer ----------------------------------------------------------------------


def timer_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("t1", 0)
    p.add_variable("done", 0)
    p.add_list("hat_times")
    clock = p.add_sprite("Clock", dot("clock", "#5cb1d6"))
    clock.add_script(
        flag(),
        setvar("done", 0),
        b("data_deletealloflist", LIST="hat_times"),
        b("sensing_resettimer"),
        b("control_wait", DURATION=1 if right else 2),
        setvar("t1", b("sensing_timer")),
        setvar("done", 1),
    )
    clock.add_script(
        b("event_whengreaterthan", WHENGREATERTHANMENU="TIMER", VALUE=0.5 if right else 1.5),
        b("data_addtolist", LIST="hat_times", ITEM=b("sensing_timer")),
    )
    return p


TIMER = right_and_wrong(
    "timer",
    "Reset timer, wait 1 s, read the timer; 'when timer > 0.5' fires half a second in.",
    timer_project,
    ("wait 1 second lasts one second of timer", "when timer > 0.5 fires after half a second"),
    (False, False),
    real_s=1.6,
)


# ---- lists ----------------------------------------------------------------------------------


def lists_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_list("fruit", ["old"])
    for name in ("length", "first", "where", "has_banana"):
        p.add_variable(name, "")
    cook = p.add_sprite("Cook", dot("cook", "#ff6680"))
    cook.add_list("notes")
    fruit = "fruit"
    cook.add_script(
        flag(),
        b("data_deletealloflist", LIST=fruit),
        b("data_deletealloflist", LIST="notes"),
        *[b("data_addtolist", LIST=fruit, ITEM=f) for f in ("apple", "banana", "cherry")],
        b("data_insertatlist", LIST=fruit, ITEM="avocado", INDEX=2 if right else 1),
        b("data_replaceitemoflist", LIST=fruit, INDEX=3, ITEM="blueberry"),
        b("data_deleteoflist", LIST=fruit, INDEX=1),
        setvar("length", b("data_lengthoflist", LIST=fruit)),
        setvar("first", b("data_itemoflist", LIST=fruit, INDEX=1)),
        setvar("where", b("data_itemnumoflist", LIST=fruit, ITEM="cherry")),
        setvar("has_banana", b("data_listcontainsitem", LIST=fruit, ITEM="banana")),
        b(
            "data_addtolist",
            LIST="notes",
            ITEM=b("operator_join", STRING1="n", STRING2=b("data_lengthoflist", LIST=fruit)),
        ),
        b("data_showlist", LIST=fruit),
    )
    return p


LISTS = right_and_wrong(
    "lists",
    "Add, insert, replace and delete list items; length, item, item number and contains.",
    lists_project,
    ("list blocks leave the expected items", "list reporters", "a sprite's own list"),
    (False, False, True),
    real_s=0.1,
)


# ---- keyboard -------------------------------------------------------------------------------


def keys_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    walker = p.add_sprite("Walker", dot("walker", "#0fbd8c"))
    walker.add_script(
        b("event_whenkeypressed", KEY_OPTION="right arrow" if right else "left arrow"),
        b("motion_changexby", DX=10),
    )
    held = b("sensing_keypressed", KEY_OPTION="space" if right else "up arrow")
    walker.add_script(
        flag(),
        b("motion_gotoxy", X=0, Y=0),
        b(
            "control_forever",
            SUBSTACK=[b("control_if", CONDITION=held, SUBSTACK=[b("motion_changeyby", DY=5)])],
        ),
    )
    return p


KEYS = right_and_wrong(
    "keys",
    "Each right-arrow press moves the Walker 10 steps; holding space raises it.",
    keys_project,
    (
        "each right arrow press moves 10 steps",
        "holding space raises the sprite",
        "other keys do nothing",
    ),
    (False, False, True),
    real_s=2.0,
)


# ---- mouse ----------------------------------------------------------------------------------


def mouse_project(right: bool) -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("clicks", 0)
    p.add_variable("down_seen", 0)
    follower = p.add_sprite("Follower", dot("follower", "#9966ff", 10))
    goto = (
        b("motion_goto", TO="_mouse_")
        if right
        else b("motion_gotoxy", X=b("sensing_mousey"), Y=b("sensing_mousex"))
    )
    follower.add_script(
        flag(),
        setvar("down_seen", 0),
        b(
            "control_forever",
            SUBSTACK=[
                goto,
                b(
                    "control_if",
                    CONDITION=b("sensing_mousedown"),
                    SUBSTACK=[setvar("down_seen", 1)],
                ),
            ],
        ),
    )
    button = p.add_sprite("Button", [Costume.rect("button", 76, 36, "#ff8c1a")], x=100, y=-100)
    clicked = "event_whenthisspriteclicked" if right else "event_whenstageclicked"
    target = button if right else p.stage
    target.add_script(b(clicked), b("data_changevariableby", VARIABLE="clicks", VALUE=1))
    return p


MOUSE = right_and_wrong(
    "mouse",
    "The Follower follows the mouse pointer; clicking the Button counts a click.",
    mouse_project,
    (
        "the follower follows the mouse pointer",
        "clicking the button counts one click",
        "a click elsewhere is not a button click",
        "the program sees the mouse button",
    ),
    (False, False, False, True),
    real_s=1.6,
)

RUNTIME_CASES: tuple[Case, ...] = (CLONES, ASK, BROADCASTS, TIMER, LISTS, KEYS, MOUSE)
