"""Build Scratch 3 projects (.sb3 bytes) from a compact Python description.

The bundled task library and the test corpora are generated with this package so that every
project can be rebuilt from source. A project is a stage with backdrops, sprites with costumes
(vector SVG by default, or PNG bitmaps at bitmap resolution 1 or 2) and sounds (WAV tones),
variables, lists, broadcast messages and scripts. A script is a hat block followed by a stack
of blocks; C blocks take their substacks as lists and reporters nest as inputs:

    project = ProjectBuilder()
    cat = project.add_sprite("Cat", [Costume.circle("cat", 30, "#f90")])
    cat.add_sound(Sound.tone("beep", 0.5, hz=880))
    project.add_variable("score")
    project.add_list("seen", ["a", "b"])
    cat.add_script(
        block("event_whenflagclicked"),
        block("data_setvariableto", VARIABLE="score", VALUE=0),
        block("control_repeat", TIMES=10, SUBSTACK=[block("motion_movesteps", STEPS=10)]),
        block("data_addtolist", LIST="seen", ITEM=Var("score")),
        block("pen_penDown"),
        block("sound_playuntildone", SOUND_MENU="beep"),
    )
    data = project.build()

Extension blocks (pen, music) make project.json name their extension. Block ids, variable,
list and message ids are derived from names and positions only, and the asset files are
deterministic, so a rebuild gives the same .sb3.

Modules: `spec` (what each opcode's arguments are), `blocks` (block descriptions and the
emitter), `assets` (costumes and sounds), `media` (PNG and WAV encoders), `project` (the
builder and its targets).
"""

from studio.services.core.projectbuild.assets import Costume, Sound
from studio.services.core.projectbuild.blocks import Block, ListVar, Var, block
from studio.services.core.projectbuild.project import ProjectBuilder, Target
from studio.services.core.projectbuild.spec import (
    ANGLE,
    BOOL,
    BROADCAST_PRIMITIVE,
    COLOR,
    FIELD,
    INTEGER,
    LIST,
    LIST_PRIMITIVE,
    MSG,
    MSG_IN,
    NUM,
    POSITIVE,
    SPEC,
    STACK,
    TEXT,
    VAR,
    VARIABLE_PRIMITIVE,
    WHOLE,
    Kind,
    extension_of,
)

__all__ = [
    "ANGLE",
    "BOOL",
    "BROADCAST_PRIMITIVE",
    "COLOR",
    "FIELD",
    "INTEGER",
    "LIST",
    "LIST_PRIMITIVE",
    "MSG",
    "MSG_IN",
    "NUM",
    "POSITIVE",
    "SPEC",
    "STACK",
    "TEXT",
    "VAR",
    "VARIABLE_PRIMITIVE",
    "WHOLE",
    "Block",
    "Costume",
    "Kind",
    "ListVar",
    "ProjectBuilder",
    "Sound",
    "Target",
    "Var",
    "block",
    "extension_of",
]
