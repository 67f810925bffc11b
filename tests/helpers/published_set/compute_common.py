# ruff: noqa: E501  (the JavaScript keeps its own line length)
"""How compute tasks are written: ask for input(s), say the computed answer.

A compute task lists its test cases once (`[(inputs, output), ...]`); they go both into the
task file (`test_cases`, as the published set has them) and into the script, which embeds its
own inputs and expected outputs because the published service passes `config = {}`.

The script answers each `ask` with the next input (0.3 s after the question shows), then
listens to what the sprite says after the last answer, waits 2.5 s more (the answer must stay
and nothing else may replace it) and compares the last thing said with the expected output:
numbers numerically, text exactly (after trimming spaces). Every case also checks that the
program asked exactly as many questions as there are inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from studio.services.core.projectbuild import ProjectBuilder, Target
from tests.helpers.published_set.common import DEFAULT, default_project
from tests.helpers.published_set.spec import Case, TaskSpec, js

Inputs = str | int | float | list[str | int | float]
Program = Callable[[ProjectBuilder, Target], None]

PRELUDE = """
const SPRITE = %(sprite)s;
// Answer every question with the next input; return what SPRITE said after the last answer.
const runWith = async (inputs, meta) => {
  const says = EU.recordSays(vm);
  const answers = EU.answerQuestions(vm, inputs, 300);
  try {
    await EU.start(vm, 0);
    const asked = await EU.waitUntil(() => answers.answered.length >= inputs.length, 2500 * inputs.length);
    EU.assert(asked, `the program asked ${answers.count()} question(s), ${inputs.length} expected`);
    const after = answers.answered[inputs.length - 1];
    const replies = () => says.events.filter((e) => e.sprite === SPRITE && e.text !== '' && e.at >= after);
    EU.assert(await EU.waitUntil(() => replies().length > 0, 5000), `${SPRITE} said nothing after the answer`);
    await EU.sleep(2500);
    meta.said = replies().map((e) => e.text);
    EU.assert(answers.count() === inputs.length, `the program asked ${answers.count()} questions, ${inputs.length} expected`);
    return { final: meta.said[meta.said.length - 1], bubble: EU.bubble(vm, SPRITE) };
  } finally { says.stop(); answers.stop(); }
};
// Numbers compare as numbers ("4.0" is 4), text exactly after trimming spaces.
const same = (got, want) => {
  const text = String(got === undefined || got === null ? '' : got).trim();
  const number = typeof want === 'number';
  return number ? text !== '' && Number(text) === want : text === String(want);
};
"""

CASE = """
const out = await runWith(%(inputs)s, meta);
EU.assert(same(out.final, %(output)s), `said ${JSON.stringify(meta.said)}, expected %(shown)s`);
EU.assert(same(out.bubble, %(output)s), `the answer did not stay on the stage (bubble: ${JSON.stringify(out.bubble)})`);
"""


def _inputs(value: Inputs) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _shown(value: Inputs) -> str:
    return ", ".join(_inputs(value))


def compute_case(value: Inputs, output: Any) -> Case:
    inputs = _inputs(value)
    program = round(0.33 * len(inputs) + 2.6, 1)  # answers 0.3 s apart, 2.5 s watch
    body = CASE % {"inputs": js(inputs), "output": js(output), "shown": str(output)}
    return Case(f"{_shown(value)} gives {output}", program + 6, program, body)


def compute_task(
    id: str,
    program: Program,
    cases: list[tuple[Inputs, Any]],
    *,
    instruction: str,
    description: str,
    check: str,
    timeout: int = 20,
    sprite: str = "Sprite1",
    initial: Callable[[], ProjectBuilder] | None = None,
    golden: bool = True,
) -> TaskSpec:
    """A compute task; `initial` gives its own starting project (default: the shared one)."""
    start = initial or default_project

    def solution() -> ProjectBuilder:
        p = start()
        program(p, p.sprite(sprite))
        return p

    return TaskSpec(
        id=id,
        category="compute",
        description=description,
        instruction=instruction,
        check=check,
        timeout=timeout,
        cases=[compute_case(value, output) for value, output in cases],
        initial=f"{id}.sb3" if initial else DEFAULT,
        make_initial=start,
        golden=f"{id}_golden.sb3" if golden else None,
        make_golden=solution if golden else None,
        reference=None if golden else solution,
        test_cases=[{"input": value, "output": output} for value, output in cases],
        prelude=PRELUDE % {"sprite": js(sprite)},
    )
