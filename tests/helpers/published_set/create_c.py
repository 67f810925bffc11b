# ruff: noqa: E501  (the JavaScript of the cases keeps its own line length)
"""Create tasks, part 3: a quiz and a stopwatch (from the default project).

- create_quiz_two_questions: two questions, feedback after each and the final score.
- create_stopwatch: a seconds counter on the timer; space says it (no golden project).
"""

from __future__ import annotations

from studio.services.core.projectbuild import ProjectBuilder, Var
from tests.helpers.published_set.common import on_default, task
from tests.helpers.published_set.kit import (
    answer,
    ask,
    b,
    changevar,
    eq,
    flag,
    forever,
    if_else,
    on_key,
    op,
    say,
    setvar,
)
from tests.helpers.published_set.spec import Case, TaskSpec, js

QUESTIONS = [("What is 3 + 4?", 7), ("What is 5 x 6?", 30)]


def quiz(p: ProjectBuilder, questions: list[tuple[str, int]] = QUESTIONS) -> None:
    p.add_variable("score", 0)
    steps = [flag(), setvar("score", 0)]
    for question, right in questions:
        steps += [
            ask(question),
            if_else(
                eq(answer(), right),
                [changevar("score", 1), say("Correct!", 1)],
                [say("Wrong!", 1)],
            ),
        ]
    steps.append(say(op("join", "Score: ", Var("score"))))
    p.sprite("Sprite1").add_script(*steps)


def stopwatch(p: ProjectBuilder) -> None:
    p.add_variable("seconds", 0)
    s = p.sprite("Sprite1")
    floor = b("operator_mathop", OPERATOR="floor", NUM=b("sensing_timer"))
    s.add_script(
        flag(), b("sensing_resettimer"), setvar("seconds", 0), forever(setvar("seconds", floor))
    )
    s.add_script(on_key("space"), say(Var("seconds"), 2))


def _quiz_case(
    name: str, replies: list[str], final: str, feedback: list[str], program: float
) -> Case:
    return Case(
        name,
        program + 5,
        program,
        f"""
        const says = EU.recordSays(vm);
        const answers = EU.answerQuestions(vm, {js(replies)}, 400);
        try {{
          await EU.start(vm, 0);
          const done = await says.waitFor((t) => t.startsWith('Score'), 6000);
          meta.said = says.texts('Sprite1');
          EU.assert(done, `no final score; said ${{JSON.stringify(meta.said)}}`);
          EU.assert(says.last('Sprite1') === {js(final)}, `the final message is ${{says.last('Sprite1')}}`);
          const feedback = meta.said.filter((t) => t === 'Correct!' || t === 'Wrong!');
          const expected = {js(feedback)};
          EU.assert(JSON.stringify(feedback) === JSON.stringify(expected), `feedback was ${{JSON.stringify(feedback)}}`);
          await EU.sleep(1000);
          EU.assert(EU.bubble(vm, 'Sprite1') === {js(final)}, 'the final score did not stay on screen');
        }} finally {{ says.stop(); answers.stop(); }}
        """,
    )


QUIZ = [
    Case(
        "asks the two questions in order",
        8,
        3.5,
        """
        const says = EU.recordSays(vm);
        const answers = EU.answerQuestions(vm, ['7', '30'], 400);
        try {
          await EU.start(vm, 0);
          await EU.waitUntil(() => answers.count() >= 2, 5000);
          const questions = says.texts('Sprite1').filter((t) => t.endsWith('?'));
          meta.questions = questions;
          EU.assert(JSON.stringify(questions) === '["What is 3 + 4?","What is 5 x 6?"]', `asked ${JSON.stringify(questions)}`);
        } finally { says.stop(); answers.stop(); }
        """,
    ),
    _quiz_case("two right answers give Score: 2", ["7", "30"], "Score: 2", ["Correct!"] * 2, 4.5),
    _quiz_case(
        "a wrong first answer says Wrong!", ["8", "30"], "Score: 1", ["Wrong!", "Correct!"], 4.5
    ),
    _quiz_case("two wrong answers give Score: 0", ["seven", "31"], "Score: 0", ["Wrong!"] * 2, 4.5),
    Case(
        "the score starts from 0 on every run",
        9,
        4.0,
        """
        const says = EU.recordSays(vm);
        const answers = EU.answerQuestions(vm, ['1', '30'], 300);
        try {
          EU.setVariable(vm, 'score', 10);
          await EU.start(vm, 0);
          EU.assert(await says.waitFor((t) => t.startsWith('Score'), 6000), 'no final score');
          EU.assert(says.last('Sprite1') === 'Score: 1', `final message ${says.last('Sprite1')} (score kept from before?)`);
        } finally { says.stop(); answers.stop(); }
        """,
    ),
]

WATCH = [
    Case(
        "seconds starts at 0",
        5,
        1.0,
        """
        EU.setVariable(vm, 'seconds', 99);
        await EU.start(vm, 500);
        EU.assert(EU.numberVariable(vm, 'seconds') === 0, `seconds is ${EU.variable(vm, 'seconds')} after the flag`);
        """,
    ),
    Case(
        "seconds counts up by one each second",
        11,
        6.0,
        """
        await EU.start(vm, 0);
        const t0 = Date.now();
        const seen = await EU.sample(6000, 100, () => ({ v: EU.numberVariable(vm, 'seconds'), at: Date.now() - t0 }));
        const values = seen.map((p) => p.v).filter((v, i, all) => i === 0 || v !== all[i - 1]);
        meta.values = values;
        EU.assert(values.every((v, i) => v === i), `seconds went ${values.join(', ')}`);
        EU.assert(values.length >= 6 && values.length <= 7, `seconds reached ${values[values.length - 1]} in 6 s`);
        const three = seen.find((p) => p.v === 3);
        EU.assert(three && three.at > 2700 && three.at < 3600, `seconds became 3 after ${three && three.at} ms`);
        """,
    ),
    Case(
        "the space key says the seconds",
        9,
        4.5,
        """
        const says = EU.recordSays(vm);
        try {
          await EU.start(vm, 0);
          await EU.sleep(3400);
          const now = EU.numberVariable(vm, 'seconds');
          await EU.pressKey(vm, ' ', 100);
          EU.assert(await says.waitFor(() => true, 1000), 'nothing was said after space');
          meta.said = says.texts('Sprite1');
          EU.assert(meta.said[0] === String(now), `said ${meta.said[0]} while seconds was ${now}`);
        } finally { says.stop(); }
        """,
    ),
    Case(
        "the green flag starts again from 0",
        8,
        4.0,
        """
        await EU.start(vm, 2500);
        EU.assert(EU.numberVariable(vm, 'seconds') === 2, `after 2.5 s seconds is ${EU.variable(vm, 'seconds')}`);
        await EU.start(vm, 400);
        EU.assert(EU.numberVariable(vm, 'seconds') === 0, 'the second green flag did not start from 0');
        await EU.sleep(1000);
        EU.assert(EU.numberVariable(vm, 'seconds') === 1, 'seconds did not count after the restart');
        """,
    ),
]


def tasks() -> list[TaskSpec]:
    return [
        task(
            "create",
            "create_quiz_two_questions",
            on_default(quiz),
            QUIZ,
            instruction=(
                "Make a two-question quiz. When the green flag is clicked, set the variable "
                "score to 0 and ask 'What is 3 + 4?'. If the answer is 7, change score by 1 "
                "and say 'Correct!' for 1 second, otherwise say 'Wrong!' for 1 second. Then "
                "do the same with 'What is 5 x 6?' (answer 30). At the end Sprite1 says "
                "'Score: ' joined with the score, for example 'Score: 2'."
            ),
            description="A quiz with two questions, feedback after each and a final score.",
            check="Both questions in order; Correct!/Wrong! after each; the final message "
            "is Score: 2, 1 or 0 as answered and the score restarts at 0.",
            timeout=30,
            shared_initial=True,
        ),
        task(
            "create",
            "create_stopwatch",
            on_default(stopwatch),
            WATCH,
            instruction=(
                "Make a stopwatch. When the green flag is clicked, reset the timer, set a "
                "variable named seconds to 0 and then forever set seconds to the floor of the "
                "timer (whole seconds). When the space key is pressed, Sprite1 says the value "
                "of seconds for 2 seconds."
            ),
            description="A stopwatch counting whole seconds with the timer.",
            check="seconds starts at 0 and counts 0 1 2 ... once a second; space says the "
            "current value; a new green flag starts again from 0.",
            timeout=15,
            golden=False,
            shared_initial=True,
        ),
    ]
