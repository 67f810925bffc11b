"""What a new task starts from: the default project and a starter evaluation script.

The starter script follows our helper library's calling convention and holds one placeholder
test that always fails, so a new task never passes by accident. `PLACEHOLDER_MARKER` appears in
it; the lint rules look for it to tell the author the script still needs real tests.
"""

from __future__ import annotations

from studio.models.task import Category
from studio.services.core.projectbuild import Costume, ProjectBuilder

__all__ = [
    "DEFAULT_SPRITE", "PLACEHOLDER_INSTRUCTION", "PLACEHOLDER_MARKER", "default_project",
    "starter_script",
]  # fmt: skip

PLACEHOLDER_MARKER = "studio:placeholder-test"
PLACEHOLDER_INSTRUCTION = "TODO: describe what the agent must make the project do."
DEFAULT_SPRITE = "Sprite1"

_SPRITE_SVG = (
    '<circle cx="34" cy="34" r="30" fill="#ffab19" stroke="#cf8b17" stroke-width="3"/>'
    '<circle cx="24" cy="28" r="5" fill="#ffffff"/><circle cx="44" cy="28" r="5" fill="#ffffff"/>'
    '<path d="M20 44 Q34 56 48 44" fill="none" stroke="#575e75" stroke-width="3"/>'
)


def default_project() -> bytes:
    """A stage with a white backdrop and one sprite "Sprite1"; the same bytes on every call."""
    project = ProjectBuilder(Costume.backdrop("backdrop1", "#ffffff"))
    project.add_sprite(DEFAULT_SPRITE, [Costume.shape("costume1", 68, 68, _SPRITE_SVG)])
    return project.build()


_HINTS = {
    Category.CREATE: (
        "Create task: the agent starts from the default project. Test every behaviour the\n"
        "// instruction asks for; the initial project must fail."
    ),
    Category.DEBUG: (
        "Debug task: the golden project must pass every test and the initial (buggy) project\n"
        "// must fail at least one. Test the behaviour the fix restores."
    ),
    Category.EXTEND: (
        "Extend task: test the new behaviour the instruction asks for and that the behaviour\n"
        "// the project already had still works."
    ),
    Category.COMPUTE: (
        "Compute task: config.test_cases holds the {input, output} pairs of task.json. A test\n"
        "// per case could answer the question and check what the sprite says:\n"
        "//   const answers = EU.autoAnswer(vm, [String(tc.input)]);\n"
        "//   const says = EU.recordSays(vm);\n"
        "//   await flag(vm);\n"
        "//   check(says.last() === String(tc.output), `said ${says.last()}`);"
    ),
}

_TEMPLATE = """\
// {task_id}: the evaluation script of this task.
// {hint}
// Helpers (resources/js/evaluation_utils.js): greenFlag, waitForIdle, getSpriteState,
// getVariableValue, getList, pressKey, clickSprite, recordSays, autoAnswer, check, approx.
const EU = EvaluationUtils;
const {{ check }} = EU;

async function flag(vm) {{
  EU.greenFlag(vm);
  await EU.sleep(200);
  await EU.waitForIdle(vm, 2000);
}}

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  {{
    // Replace this placeholder with real tests; it fails so the task cannot pass by accident.
    name: 'placeholder: this task has no real tests yet',
    run: async () => {{
      check(false, 'No real tests yet ({marker}): replace the placeholder test in '
        + 'evaluate.js with tests of what the instruction asks for.');
    }},
  }},
], {{ cleanup }});
"""


def starter_script(task_id: str, category: Category) -> str:
    """The evaluate.js a new task starts with: one failing placeholder test."""
    return _TEMPLATE.format(task_id=task_id, hint=_HINTS[category], marker=PLACEHOLDER_MARKER)
