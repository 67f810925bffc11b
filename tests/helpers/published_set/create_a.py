# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Create tasks, part 1: motion, keys, speech and asking (all from the default project).

- create_walk_and_bounce: move 10 steps forever, bouncing off the edges.
- create_arrow_keys_move: the four arrow keys move Sprite1 by 10.
- create_say_sequence: say "Hello!" 2 s, "I am learning Scratch." 2 s, then "Bye!".
- create_ask_name_greet: ask for a name and greet with "Hello, <name>!".
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder
from tests.helpers.published_set.common import on_default, task
from tests.helpers.published_set.kit import (
    answer,
    ask,
    bounce,
    changex,
    changey,
    flag,
    forever,
    goto,
    move,
    on_key,
    op,
    point,
    say,
)
from tests.helpers.published_set.spec import Case, TaskSpec


def walk_and_bounce(p: ProjectBuilder) -> None:
    p.sprite("Sprite1").add_script(flag(), goto(0, 0), point(90), forever(move(10), bounce()))


def arrow_keys(p: ProjectBuilder) -> None:
    s = p.sprite("Sprite1")
    s.add_script(flag(), goto(0, 0))
    for key, blk in (("right", changex(10)), ("left", changex(-10))):
        s.add_script(on_key(f"{key} arrow"), blk)
    for key, blk in (("up", changey(10)), ("down", changey(-10))):
        s.add_script(on_key(f"{key} arrow"), blk)


def say_sequence(p: ProjectBuilder) -> None:
    s = p.sprite("Sprite1")
    s.add_script(flag(), say("Hello!", 2), say("I am learning Scratch.", 2), say("Bye!"))


def ask_name(p: ProjectBuilder) -> None:
    greeting = op("join", "Hello, ", op("join", answer(), "!"))
    p.sprite("Sprite1").add_script(flag(), ask("What is your name?"), say(greeting, 2))


WALK = [
    Case(
        "starts at the centre and walks right",
        4,
        1.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        s.setXY(-150, 120);
        s.setDirection(-90);
        await EU.start(vm, 150);
        const ys = await EU.sample(800, 100, () => Math.round(s.y));
        EU.assert(ys.every((y) => y === 0), `y should stay 0 after the flag, saw ${ys.join(', ')}`);
        EU.assert(s.direction === 90 || s.direction === -90, `direction is ${s.direction}`);
        """,
    ),
    Case(
        "keeps moving until it reaches the edge",
        8,
        4.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 100);
        const xs = await EU.sample(4000, 100, () => Math.round(s.x));
        meta.max_x = Math.max(...xs);
        EU.assert(new Set(xs).size >= 8, `Sprite1 barely moved: ${xs.slice(0, 10).join(', ')}`);
        EU.assert(meta.max_x > 150, `Sprite1 never got near the right edge (max x ${meta.max_x})`);
        """,
    ),
    Case(
        "bounces back from both edges",
        12,
        7.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 100);
        const seen = await EU.sample(7000, 100, () => ({ x: s.x, d: Math.round(s.direction) }));
        const xs = seen.map((p) => p.x);
        meta.min_x = Math.round(Math.min(...xs));
        meta.max_x = Math.round(Math.max(...xs));
        const dirs = new Set(seen.map((p) => p.d));
        EU.assert(dirs.has(90) && dirs.has(-90), `direction never turned around: ${[...dirs]}`);
        EU.assert(meta.min_x < -150 && meta.max_x > 150, `x stayed in ${meta.min_x}..${meta.max_x}`);
        """,
    ),
    Case(
        "stays on the stage at y 0",
        9,
        5.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 100);
        const seen = await EU.sample(5000, 100, () => ({ x: s.x, y: s.y }));
        const off = seen.find((p) => Math.abs(p.x) > 240 || Math.abs(p.y) > 0.5);
        EU.assert(!off, `Sprite1 left the line y 0 or the stage at (${off && off.x}, ${off && off.y})`);
        """,
    ),
    Case(
        "keeps bouncing for 15 seconds",
        22,
        15.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 100);
        let turns = 0;
        let last = s.direction;
        const seen = await EU.sample(15000, 100, () => {
          if (s.direction !== last) turns += 1;
          last = s.direction;
          return { x: s.x, y: s.y };
        });
        meta.turns = turns;
        EU.assert(turns >= 4, `Sprite1 turned around only ${turns} times in 15 s`);
        EU.assert(seen.every((p) => Math.abs(p.x) <= 240 && Math.abs(p.y) < 0.5), 'Sprite1 left its line or the stage');
        """,
    ),
]

ARROWS = [
    Case(
        "the green flag puts Sprite1 at the centre",
        4,
        1.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        s.setXY(120, -90);
        await EU.start(vm, 1000);
        EU.assert(EU.near(s.x, 0, 0.5) && EU.near(s.y, 0, 0.5), `Sprite1 is at (${s.x}, ${s.y})`);
        """,
    ),
    Case(
        "each right arrow press moves 10 to the right",
        8,
        3.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 500);
        for (let i = 0; i < 5; i++) {
          await EU.pressKey(vm, 'ArrowRight', 100);
          await EU.sleep(350);
        }
        meta.x = s.x;
        EU.assert(EU.near(s.x, 50, 0.5) && EU.near(s.y, 0, 0.5), `after 5 presses at (${s.x}, ${s.y})`);
        """,
    ),
    Case(
        "the left arrow moves 10 to the left",
        8,
        2.5,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 500);
        for (let i = 0; i < 3; i++) {
          await EU.pressKey(vm, 'ArrowLeft', 100);
          await EU.sleep(350);
        }
        EU.assert(EU.near(s.x, -30, 0.5) && EU.near(s.y, 0, 0.5), `after 3 presses at (${s.x}, ${s.y})`);
        """,
    ),
    Case(
        "up and down arrows move 10 up and down",
        9,
        3.5,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 500);
        for (const key of ['ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowDown']) {
          await EU.pressKey(vm, key, 100);
          await EU.sleep(350);
        }
        EU.assert(EU.near(s.x, 0, 0.5) && EU.near(s.y, 20, 0.5), `after up, up, up, down at (${s.x}, ${s.y})`);
        """,
    ),
    Case(
        "Sprite1 holds still when no key is pressed",
        9,
        5.0,
        """
        const s = EU.sprite(vm, 'Sprite1');
        await EU.start(vm, 500);
        await EU.pressKey(vm, 'ArrowRight', 100);
        const seen = await EU.sample(4500, 150, () => `${Math.round(s.x)},${Math.round(s.y)}`);
        EU.assert(new Set(seen).size === 1 && seen[0] === '10,0', `Sprite1 drifted: ${[...new Set(seen)].join(' ')}`);
        """,
    ),
]

SAYS = [
    Case(
        "says Hello! right after the green flag",
        5,
        1.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          const ok = await says.waitFor((t) => t === 'Hello!', 1000);
          EU.assert(ok, `no "Hello!" within 1 s; said: ${JSON.stringify(says.texts())}`);
        } finally { says.stop(); }
        """,
    ),
    Case(
        "Hello! stays about 2 seconds, then the second sentence",
        9,
        4.0,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          await EU.sleep(4000);
          const hello = says.find((t) => t === 'Hello!');
          const next = says.find((t) => t === 'I am learning Scratch.');
          EU.assert(hello && next, `said: ${JSON.stringify(says.texts())}`);
          meta.gap_ms = next.at - hello.at;
          EU.assert(meta.gap_ms > 1500 && meta.gap_ms < 2700, `the second sentence came ${meta.gap_ms} ms after Hello!`);
        } finally { says.stop(); }
        """,
    ),
    Case(
        "then says Bye! and keeps saying it",
        11,
        6.5,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          await EU.sleep(5000);
          EU.assert(EU.bubble(vm, 'Sprite1') === 'Bye!', `after 5 s the bubble shows ${JSON.stringify(EU.bubble(vm, 'Sprite1'))}`);
          await EU.sleep(1500);
          EU.assert(EU.bubble(vm, 'Sprite1') === 'Bye!', 'the Bye! bubble went away');
          meta.texts = says.texts('Sprite1');
        } finally { says.stop(); }
        """,
    ),
    Case(
        "the three texts come in order and nothing else is said",
        10,
        5.5,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          await EU.sleep(5500);
          const texts = says.texts('Sprite1');
          const expected = ['Hello!', 'I am learning Scratch.', 'Bye!'];
          EU.assert(JSON.stringify(texts) === JSON.stringify(expected), `said ${JSON.stringify(texts)}`);
        } finally { says.stop(); }
        """,
    ),
]


def _greet_case(name: str, reply: str) -> Case:
    return Case(
        f"greets {name}",
        9,
        2.6,
        f"""
        const says = EU.recordSays(vm);
        const answers = EU.answerQuestions(vm, [{reply!r}], 400);
        try {{
          await EU.start(vm, 0);
          const ok = await says.waitFor((t) => t === {("Hello, " + reply + "!")!r}, 3000);
          EU.assert(answers.count() === 1, `expected one question, got ${{answers.count()}}`);
          EU.assert(ok, `no greeting for {reply}; said ${{JSON.stringify(says.texts())}}`);
          EU.assert(await EU.waitUntil(() => EU.bubble(vm, 'Sprite1') === '', 3500), 'the greeting stays forever');
          const extra = says.texts('Sprite1').filter((t) => t !== 'What is your name?' && t !== {("Hello, " + reply + "!")!r});
          EU.assert(extra.length === 0, `Sprite1 also said ${{JSON.stringify(extra)}}`);
        }} finally {{ says.stop(); answers.stop(); }}
        """,
    )


ASK = [
    Case(
        "asks What is your name?",
        6,
        1.0,
        """
        const says = EU.recordSays(vm);
        const answers = EU.answerQuestions(vm, ['Sam'], 600);
        try {
          await EU.start(vm, 0);
          const ok = await says.waitFor((t) => t === 'What is your name?', 1000);
          EU.assert(ok && answers.count() === 1, `no question; said ${JSON.stringify(says.texts())}`);
          EU.assert(await says.waitFor((t) => t === 'Hello, Sam!', 3000), 'no greeting after the answer');
        } finally { says.stop(); answers.stop(); }
        """,
    ),
    _greet_case("Alice", "Alice"),
    _greet_case("a name with spaces", "Ada Lovelace"),
    Case(
        "the greeting lasts about 2 seconds",
        10,
        2.6,
        """
        const says = EU.recordSays(vm);
        const answers = EU.answerQuestions(vm, ['Zoe'], 300);
        try {
          await EU.start(vm, 0);
          EU.assert(await says.waitFor((t) => t === 'Hello, Zoe!', 3000), 'no greeting for Zoe');
          const shown = Date.now();
          EU.assert(await EU.waitUntil(() => EU.bubble(vm, 'Sprite1') === '', 4000), 'the greeting never went away');
          meta.shown_ms = Date.now() - shown;
          EU.assert(meta.shown_ms > 1500 && meta.shown_ms < 3000, `the greeting lasted ${meta.shown_ms} ms`);
        } finally { says.stop(); answers.stop(); }
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "create",
            "create_walk_and_bounce",
            on_default(walk_and_bounce),
            WALK,
            shared_initial=True,
            instruction=(
                "Starting from the default project with one sprite, Sprite1: when the green flag "
                "is clicked, Sprite1 should go to x: 0, y: 0, point in direction 90, and then "
                "forever move 10 steps and bounce if it is on the edge."
            ),
            description="Walk back and forth across the stage, bouncing off the edges.",
            check="Sprite1 starts at the centre on y 0, walks to the edge, turns around at "
            "both edges and never leaves the stage.",
            timeout=15,
        ),
        task(
            "create",
            "create_arrow_keys_move",
            on_default(arrow_keys),
            ARROWS,
            shared_initial=True,
            instruction=(
                "Make Sprite1 move with the arrow keys. When the green flag is clicked it goes "
                "to x: 0, y: 0. Each press of the right arrow key changes x by 10, the left "
                "arrow changes x by -10, the up arrow changes y by 10 and the down arrow "
                "changes y by -10."
            ),
            description="Move a sprite with the four arrow keys, 10 steps per key press.",
            check="The flag centres Sprite1; each arrow press moves it exactly 10 in its "
            "direction; without presses it holds still.",
            timeout=20,
        ),
        task(
            "create",
            "create_say_sequence",
            on_default(say_sequence),
            SAYS,
            shared_initial=True,
            instruction=(
                "When the green flag is clicked, Sprite1 should say 'Hello!' for 2 seconds, "
                "then say 'I am learning Scratch.' for 2 seconds, and then say 'Bye!' (and "
                "keep saying it)."
            ),
            description="A short speech: three sentences with timed speech bubbles.",
            check="Hello! comes first, the second sentence about 2 s later, then Bye! stays; "
            "exactly these three texts in this order.",
            timeout=20,
        ),
        task(
            "create",
            "create_ask_name_greet",
            on_default(ask_name),
            ASK,
            shared_initial=True,
            instruction=(
                "When the green flag is clicked, Sprite1 should ask 'What is your name?' and "
                "wait. After the user answers, Sprite1 says 'Hello, ' followed by the answer "
                "and '!' (for example 'Hello, Alice!') for 2 seconds."
            ),
            description="Ask for the user's name and greet them by name.",
            check="One question; the greeting joins the answer exactly (names with spaces "
            "too) and shows for about 2 seconds.",
            timeout=25,
        ),
    ]
