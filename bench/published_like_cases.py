# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""The cases of the published-like set's scripts (bench/published_like.py): each samples the
program for a short real time with the published-style set's helper library (`EU`)."""

from __future__ import annotations

from tests.helpers.published_set.spec import Case

__all__ = ["CATCH", "DROPS", "FAN", "FOLLOW", "GREET", "LIGHTS", "PAINT"]


# ---- cases ---------------------------------------------------------------------------------
FAN = [
    Case(
        "clones are made, one a frame",
        5,
        2.0,
        """
        let made = 0;
        const onCreated = (t) => { if (!t.isOriginal) made += 1; };
        vm.runtime.on('targetWasCreated', onCreated);
        try { await EU.start(vm, 2000); } finally { vm.runtime.removeListener('targetWasCreated', onCreated); }
        meta.made = made;
        EU.assert(made >= 30, `only ${made} clones in 2 s`);
        """,
    ),
    Case(
        "clones' initial directions rise with creation order",
        8,
        3.8,
        """
        const created = [];
        const onCreated = (t) => { if (!t.isOriginal) created.push({ target: t, direction: t.direction, at: Date.now() }); };
        vm.runtime.on('targetWasCreated', onCreated);
        const seen = new Map();
        try {
          await EU.start(vm, 0);
          await EU.sample(3800, 50, () => {
            for (const c of EU.clones(vm, 'Spinner')) {
              if (!seen.has(c)) seen.set(c, []);
              seen.get(c).push(c.direction);
            }
          });
        } finally { vm.runtime.removeListener('targetWasCreated', onCreated); }
        const initial = created.map((c) => (seen.get(c.target) || [])[1]).filter((d) => d !== undefined);
        meta.clones = created.length;
        meta.sampled = initial.length;
        EU.assert(initial.length >= 100, `only ${initial.length} clones sampled twice`);
        for (let i = 1; i < initial.length; i++) {
          EU.assert(initial[i] > initial[i - 1], `clone ${i} points ${initial[i]}, not more than ${initial[i - 1]}`);
        }
        """,
    ),
    Case(
        "the creation hook sees time move on",
        5,
        1.0,
        """
        const at = [];
        const onCreated = (t) => { if (!t.isOriginal) at.push(Date.now()); };
        vm.runtime.on('targetWasCreated', onCreated);
        try { await EU.start(vm, 1000); } finally { vm.runtime.removeListener('targetWasCreated', onCreated); }
        EU.assert(at.length >= 10, `only ${at.length} clones in 1 s`);
        EU.assert(at[at.length - 1] - at[0] >= 300, 'every clone was made at once');
        """,
    ),
]

CATCH = [
    Case(
        "the apple falls",
        4,
        0.6,
        """
        await EU.start(vm, 100);
        const apple = EU.sprite(vm, 'Apple');
        const y0 = apple.y;
        await EU.sleep(500);
        EU.assert(y0 - apple.y > 30, `the apple fell ${Math.round(y0 - apple.y)} px`);
        """,
    ),
    Case(
        "touching the bowl counts a catch",
        6,
        2.5,
        """
        await EU.start(vm, 0);
        const ok = await EU.waitUntil(() => EU.numberVariable(vm, 'caught') >= 1, 2500);
        EU.assert(ok, 'no catch in 2.5 s');
        """,
    ),
    Case(
        "a catch, the apple never resting on the bowl",
        6,
        2.5,
        """
        await EU.start(vm, 0);
        const touched = await EU.sample(2500, 30, () => EU.touching(vm, 'Apple', 'Bowl'));
        meta.caught = EU.numberVariable(vm, 'caught');
        EU.assert(meta.caught >= 1, 'no catch in 2.5 s');
        // a caught apple goes back to the top in the frame it touched the bowl
        EU.assert(!touched.some(Boolean), 'the apple stayed on the bowl');
        """,
    ),
]

GREET = [
    Case(
        "asks for a name",
        4,
        0.5,
        """
        const asker = EU.answerQuestions(vm, ['Ada'], 300);
        try { await EU.start(vm, 500); } finally { asker.stop(); }
        EU.assert(asker.count() === 1, `asked ${asker.count()} questions`);
        """,
    ),
    Case(
        "greets with the answer",
        5,
        1.5,
        """
        const says = EU.recordSays(vm);
        const asker = EU.answerQuestions(vm, ['Ada'], 300);
        try {
          await EU.start(vm, 0);
          const ok = await says.waitFor((text) => text.includes('Hello Ada'), 1500);
          EU.assert(ok, `said ${JSON.stringify(says.texts())}`);
        } finally { asker.stop(); says.stop(); }
        """,
    ),
    Case(
        "the greeting goes away after 2 s",
        6,
        3.0,
        """
        const asker = EU.answerQuestions(vm, ['Ada'], 300);
        try {
          await EU.start(vm, 0);
          await EU.sleep(800);
          EU.assert(EU.bubble(vm, 'Sprite1').includes('Hello'), 'no greeting shown');
          await EU.sleep(2200);
          EU.assert(EU.bubble(vm, 'Sprite1') === '', 'the greeting stays');
        } finally { asker.stop(); }
        """,
    ),
]

LIGHTS = [
    Case(
        "starts red",
        3,
        0.2,
        """
        await EU.start(vm, 200);
        EU.assert(EU.costume(EU.sprite(vm, 'Light')) === 'red', 'not red at the start');
        """,
    ),
    Case(
        "turns green after half a second",
        4,
        0.8,
        """
        await EU.start(vm, 0);
        const ok = await EU.waitUntil(() => EU.costume(EU.sprite(vm, 'Light')) === 'green', 800);
        EU.assert(ok, 'never green');
        """,
    ),
    Case(
        "keeps changing for 3 s",
        6,
        3.0,
        """
        await EU.start(vm, 0);
        const seen = await EU.sample(3000, 100, () => EU.costume(EU.sprite(vm, 'Light')));
        const changes = seen.filter((c, i) => i && c !== seen[i - 1]).length;
        meta.changes = changes;
        EU.assert(changes >= 4 && changes <= 7, `${changes} changes in 3 s`);
        """,
    ),
]

PAINT = [
    Case(
        "the ball moves right",
        3,
        0.5,
        """
        await EU.start(vm, 500);
        EU.assert(EU.sprite(vm, 'Ball').x > -190, 'the ball did not move');
        """,
    ),
    Case(
        "stops at the wall's colour",
        6,
        2.5,
        """
        await EU.start(vm, 0);
        const ok = await EU.waitUntil(() => EU.numberVariable(vm, 'hits') === 1, 2500);
        EU.assert(ok, 'the ball never found the wall');
        const x = EU.sprite(vm, 'Ball').x;
        EU.assert(x > 120 && x < 200, `stopped at x ${Math.round(x)}`);
        """,
    ),
    Case(
        "says Wall!",
        6,
        2.5,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          EU.assert(await says.waitFor((t) => t === 'Wall!', 2500), 'said nothing');
        } finally { says.stop(); }
        """,
    ),
]

DROPS = [
    Case(
        "drops appear",
        3,
        0.5,
        """
        await EU.start(vm, 500);
        EU.assert(EU.clones(vm, 'Drop').length >= 2, 'no drops');
        """,
    ),
    Case(
        "drops fall",
        4,
        1.0,
        """
        await EU.start(vm, 300);
        const drop = EU.clones(vm, 'Drop')[0];
        EU.assert(drop, 'no drop');
        const y0 = drop.y;
        await EU.sleep(300);
        EU.assert(y0 - drop.y > 50, 'the drop did not fall');
        """,
    ),
    Case(
        "drops never pile up",
        6,
        3.0,
        """
        await EU.start(vm, 0);
        const counts = await EU.sample(3000, 100, () => EU.clones(vm, 'Drop').length);
        meta.most = Math.max(...counts);
        EU.assert(meta.most <= 15, `${meta.most} drops at once`);
        """,
    ),
]

FOLLOW = [
    Case(
        "goes to the mouse",
        3,
        0.3,
        """
        await EU.start(vm, 0);
        EU.moveMouse(vm, 100, 50);
        await EU.sleep(300);
        const s = EU.position(EU.sprite(vm, 'Sprite1'));
        EU.assert(s.x === 100 && s.y === 50, `at ${s.x}, ${s.y}`);
        """,
    ),
    Case(
        "keeps following",
        5,
        1.5,
        """
        await EU.start(vm, 0);
        for (const [x, y] of [[-100, -50], [50, 120], [200, -150]]) {
          EU.moveMouse(vm, x, y);
          await EU.sleep(500);
          const s = EU.position(EU.sprite(vm, 'Sprite1'));
          EU.assert(s.x === x && s.y === y, `at ${s.x}, ${s.y}, mouse at ${x}, ${y}`);
        }
        """,
    ),
    Case(
        "touches the mouse pointer",
        3,
        0.3,
        """
        await EU.start(vm, 0);
        EU.moveMouse(vm, -30, 40);
        await EU.sleep(300);
        EU.assert(EU.sprite(vm, 'Sprite1').isTouchingObject('_mouse_'), 'not touching the mouse');
        """,
    ),
]
