"""The project builder writes well-formed Scratch 3 projects.

Besides scripts, variables and broadcasts: bitmap costumes are real RGBA PNGs at bitmap
resolution 1 or 2 (the image scaled by the resolution, the rotation centre in image pixels),
sounds are 16-bit mono WAVs whose record gives rate and sample count, lists and list blocks
use the LIST field `[name, id]`, extension blocks (pen, music) make project.json name their
extension, and a large project builds whole and byte for byte the same every time.
"""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import wave
import zipfile
from pathlib import Path
from typing import Any

import pytest

from studio.services.core import paths
from studio.services.core.projectbuild import (
    SPEC,
    Costume,
    ListVar,
    ProjectBuilder,
    Sound,
    Var,
    block,
)
from studio.services.core.sb3 import check_sb3
from tests.corpus.roundtrip import every_opcode_project

b = block


def sample() -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("score", 3)
    p.add_broadcast("go")
    cat = p.add_sprite(
        "Cat", [Costume.circle("cat", 20, "#f90"), Costume.rect("box", 10, 10, "#0f0")]
    )
    cat.add_variable("speed", 10)
    cat.add_script(
        b("event_whenflagclicked"),
        b("data_setvariableto", VARIABLE="score", VALUE=0),
        b(
            "control_repeat",
            TIMES=10,
            SUBSTACK=[
                b("motion_movesteps", STEPS=Var("speed")),
                b(
                    "control_if_else",
                    CONDITION=b("operator_gt", OPERAND1=b("motion_xposition"), OPERAND2=100),
                    SUBSTACK=[b("looks_say", MESSAGE="far")],
                    SUBSTACK2=[b("looks_switchcostumeto", COSTUME="box")],
                ),
            ],
        ),
        b("event_broadcast", BROADCAST_INPUT="go"),
    )
    cat.add_script(
        b("event_whenkeypressed", KEY_OPTION="space"),
        b("looks_say", MESSAGE=b("operator_add", NUM1=b("sensing_answer"), NUM2=Var("score"))),
    )
    p.stage.add_script(
        b("event_whenbroadcastreceived", BROADCAST_OPTION="go"),
        b("control_forever", SUBSTACK=[b("control_wait", DURATION=1)]),
    )
    return p


def blocks_of(project: dict[str, Any], name: str) -> dict[str, dict[str, Any]]:
    return next(t for t in project["targets"] if t["name"] == name)["blocks"]


def test_the_sb3_carries_every_asset_and_loads() -> None:
    data = sample().build()
    project = check_sb3(data, "sample.sb3")
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
    costumes = [c for t in project["targets"] for c in t["costumes"]]
    assert {c["md5ext"] for c in costumes} | {"project.json"} == names
    for c in costumes:
        assert c["md5ext"] == c["assetId"] + ".svg"


def test_parents_nexts_and_top_level_flags_agree() -> None:
    project = sample().to_json()
    for target in project["targets"]:
        blocks = target["blocks"]
        for bid, blk in blocks.items():
            if blk["next"] is not None:
                assert blocks[blk["next"]]["parent"] == bid
            if blk["parent"] is None:
                assert blk["topLevel"] and "x" in blk and "y" in blk
            else:
                assert not blk["topLevel"]
                parent = blocks[blk["parent"]]
                in_input = any(
                    bid in (v[1], v[2] if len(v) > 2 else None) for v in parent["inputs"].values()
                )
                assert parent["next"] == bid or in_input, f"{bid} is not linked from its parent"
            for value in blk["inputs"].values():
                for slot in value[1:]:
                    if isinstance(slot, str):
                        assert blocks[slot]["parent"] == bid


def test_inputs_use_the_sb3_shadow_forms() -> None:
    project = sample().to_json()
    cat = blocks_of(project, "Cat")
    by_opcode = {blk["opcode"]: blk for blk in cat.values()}
    assert by_opcode["control_repeat"]["inputs"]["TIMES"] == [1, [6, "10"]]
    steps = by_opcode["motion_movesteps"]["inputs"]["STEPS"]
    assert steps == [3, [12, "speed", "Cat-var-speed"], [4, ""]]
    says = [blk["inputs"]["MESSAGE"] for blk in cat.values() if blk["opcode"] == "looks_say"]
    assert says[0] == [1, [10, "far"]]
    assert says[1][0] == 3 and cat[says[1][1]]["opcode"] == "operator_add"
    assert by_opcode["event_whenkeypressed"]["fields"] == {"KEY_OPTION": ["space", None]}
    assert by_opcode["data_setvariableto"]["fields"]["VARIABLE"] == ["score", "Stage-var-score"]
    broadcast = by_opcode["event_broadcast"]["inputs"]["BROADCAST_INPUT"]
    assert broadcast[0] == 1 and broadcast[1][:2] == [11, "go"]
    condition = by_opcode["control_if_else"]["inputs"]["CONDITION"]
    assert condition[0] == 2 and cat[condition[1]]["opcode"] == "operator_gt"
    menu = cat[by_opcode["looks_switchcostumeto"]["inputs"]["COSTUME"][1]]
    assert menu["shadow"] and menu["fields"] == {"COSTUME": ["box", None]}
    add = by_opcode["operator_add"]["inputs"]
    assert add["NUM2"] == [3, [12, "score", "Stage-var-score"], [4, ""]]
    assert add["NUM1"][0] == 3 and cat[add["NUM1"][1]]["opcode"] == "sensing_answer"


def test_variables_and_broadcasts_are_declared_where_scratch_expects_them() -> None:
    project = sample().to_json()
    stage, cat = project["targets"]
    assert stage["isStage"] and stage["layerOrder"] == 0 and cat["layerOrder"] == 1
    assert stage["variables"] == {"Stage-var-score": ["score", 3]}
    assert cat["variables"] == {"Cat-var-speed": ["speed", 10]}
    go_id = next(iter(stage["broadcasts"]))
    hat = next(blk for blk in stage["blocks"].values() if blk["opcode"].endswith("received"))
    assert hat["fields"]["BROADCAST_OPTION"] == ["go", go_id]


def test_a_rebuild_gives_the_same_project_json() -> None:
    a, b_ = sample().build(), sample().build()
    with zipfile.ZipFile(io.BytesIO(a)) as za, zipfile.ZipFile(io.BytesIO(b_)) as zb:
        assert za.read("project.json") == zb.read("project.json")
    assert json.loads(zipfile.ZipFile(io.BytesIO(a)).read("project.json")) == sample().to_json()


def test_mistakes_are_refused_with_a_clear_message() -> None:
    with pytest.raises(KeyError, match="motion_fly"):
        b("motion_fly")
    with pytest.raises(ValueError, match="STEPZ"):
        b("motion_movesteps", STEPZ=3)
    p = ProjectBuilder()
    cat = p.add_sprite("Cat", [Costume.circle("cat", 5, "#000")])
    cat.add_script(b("data_changevariableby", VARIABLE="nope", VALUE=1))
    with pytest.raises(ValueError, match="undeclared variable 'nope'"):
        p.to_json()
    with pytest.raises(ValueError, match="already exists"):
        p.add_sprite("Cat", [Costume.circle("cat", 5, "#000")])


def test_missing_literal_inputs_get_an_empty_shadow() -> None:
    p = ProjectBuilder()
    p.add_sprite("Cat", [Costume.circle("c", 5, "#000")]).add_script(b("motion_gotoxy", X=5))
    (blk,) = blocks_of(p.to_json(), "Cat").values()
    assert blk["inputs"] == {"X": [1, [4, "5"]], "Y": [1, [4, "0"]]}


def test_stop_blocks_carry_their_mutation() -> None:
    p = ProjectBuilder()
    p.stage.add_script(b("control_stop", STOP_OPTION="all"))
    (blk,) = blocks_of(p.to_json(), "Stage").values()
    assert blk["mutation"]["hasnext"] == "false"
    assert blk["fields"] == {"STOP_OPTION": ["all", None]}


def _load_build_tasks() -> Any:
    path = Path(__file__).resolve().parents[2] / "tools" / "build_tasks.py"
    spec = importlib.util.spec_from_file_location("build_tasks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    return module


def test_the_bundled_tasks_are_up_to_date_with_tools_build_tasks(tmp_path: Path) -> None:
    """Rebuilding the library gives the committed projects and task.json fields."""
    tool = _load_build_tasks()
    tool.build_all(tmp_path)
    committed = paths.BUNDLED_TASKS
    for task in tool.TASKS:
        for name in ("initial.sb3", "golden.sb3"):
            fresh = tool.sb3_content((tmp_path / task.id / name).read_bytes())
            assert tool.sb3_content((committed / task.id / name).read_bytes()) == fresh, (
                f"tasks/{task.id}/{name} is stale: run python tools/build_tasks.py"
            )
        fresh_json = json.loads((tmp_path / task.id / "task.json").read_text(encoding="utf-8"))
        old_json = json.loads((committed / task.id / "task.json").read_text(encoding="utf-8"))
        for key in tool.OWNED_FIELDS:
            assert old_json[key] == fresh_json[key], f"tasks/{task.id}/task.json: {key} is stale"
        assert (committed / task.id / "evaluate.js").is_file()


# ---- bitmap costumes --------------------------------------------------------------------


def _image(costume: Costume) -> Any:
    from PIL import Image  # Pillow comes with the venv's dependencies; used by tests only

    image = Image.open(io.BytesIO(costume.data))
    image.load()
    return image


def test_a_bitmap_costume_is_an_rgba_png_at_twice_its_stage_size() -> None:
    costume = Costume.bitmap("ball", 50, 30, "#ff8000", shape="rect")
    image = _image(costume)
    assert (image.format, image.mode, image.size) == ("PNG", "RGBA", (100, 60))
    assert image.getpixel((0, 0)) == image.getpixel((99, 59)) == (255, 128, 0, 255)
    entry = costume.entry()
    assert entry["dataFormat"] == "png" and entry["bitmapResolution"] == 2
    assert (entry["rotationCenterX"], entry["rotationCenterY"]) == (50, 30)
    assert entry["md5ext"] == entry["assetId"] + ".png"


def test_a_bitmap_circle_is_transparent_outside_the_circle() -> None:
    costume = Costume.bitmap("dot", 20, 20, "#00ff0080", shape="circle", resolution=1)
    image = _image(costume)
    assert image.size == (20, 20) and costume.entry()["bitmapResolution"] == 1
    assert image.getpixel((10, 10)) == (0, 255, 0, 128)
    for corner in [(0, 0), (19, 0), (0, 19), (19, 19)]:
        assert image.getpixel(corner)[3] == 0
    assert image.getpixel((0, 10))[3] == image.getpixel((10, 0))[3] == 128
    assert costume.center == (10, 10)


def test_bitmap_backdrops_fill_the_stage_at_either_resolution() -> None:
    sharp = Costume.bitmap_backdrop("sky", "#0000ff", gradient="#ffffff")
    flat = Costume.bitmap_backdrop("sky1", "#0000ff", resolution=1)
    assert _image(sharp).size == (960, 720) and sharp.center == (480, 360)
    assert _image(flat).size == (480, 360) and flat.center == (240, 180)
    image = _image(sharp)
    assert image.getpixel((5, 0)) == (0, 0, 255, 255)
    assert image.getpixel((5, 719)) == (255, 255, 255, 255)
    p = ProjectBuilder(sharp)
    p.add_backdrop(flat)
    stage = p.to_json()["targets"][0]
    assert [c["name"] for c in stage["costumes"]] == ["sky", "sky1"]
    assert [c["bitmapResolution"] for c in stage["costumes"]] == [2, 1]
    check_sb3(p.build(), "backdrops.sb3")


def test_bitmaps_are_deterministic_and_refuse_bad_arguments() -> None:
    same = Costume.bitmap("a", 30, 20, "#123456").data
    assert Costume.bitmap("a", 30, 20, "#123456").data == same
    assert Costume.bitmap("a", 30, 20, "#123457").data != same
    with pytest.raises(ValueError, match="1 or 2"):
        Costume.bitmap("a", 10, 10, "#000000", resolution=3)
    with pytest.raises(ValueError, match="shape"):
        Costume.bitmap("a", 10, 10, "#000000", shape="star")
    with pytest.raises(ValueError, match="colour"):
        Costume.bitmap("a", 10, 10, "red")


# ---- sounds -----------------------------------------------------------------------------


def test_a_tone_is_a_16_bit_mono_wav_whose_record_gives_its_length() -> None:
    sound = Sound.tone("beep", 1.0, hz=440, rate=22050)
    with wave.open(io.BytesIO(sound.data)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 22050)
        assert wav.getnframes() == 22050
        frames = wav.readframes(wav.getnframes())
    assert max(abs(v) for v in memoryview(frames).cast("h")) > 10000  # not silence
    assert sound.entry() == {
        "name": "beep",
        "assetId": sound.md5ext[:-4],
        "dataFormat": "wav",
        "format": "",
        "rate": 22050,
        "sampleCount": 22050,
        "md5ext": sound.md5ext,
    }
    assert Sound.tone("beep", 1.0).data == sound.data
    assert Sound.tone("short", 0.25, rate=11025).entry()["sampleCount"] == 2757 - 1


def test_sounds_go_into_the_sb3_and_the_sound_menu_names_them() -> None:
    p = ProjectBuilder()
    cat = p.add_sprite("Cat", [Costume.circle("cat", 10, "#f90")])
    cat.add_sound(Sound.tone("beep", 0.5))
    p.stage.add_sound(Sound.tone("hum", 0.2, hz=110))
    cat.add_script(
        b("event_whenflagclicked"),
        b("sound_setvolumeto", VOLUME=50),
        b("sound_playuntildone", SOUND_MENU="beep"),
        b("sound_play", SOUND_MENU="beep"),
        b("sound_stopallsounds"),
    )
    data = p.build()
    project = check_sb3(data, "sounds.sb3")
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
    sounds = [s for t in project["targets"] for s in t["sounds"]]
    assert [s["name"] for s in sounds] == ["hum", "beep"]
    assert {s["md5ext"] for s in sounds} <= names
    blocks = blocks_of(project, "Cat")
    play = next(blk for blk in blocks.values() if blk["opcode"] == "sound_playuntildone")
    menu = blocks[play["inputs"]["SOUND_MENU"][1]]
    assert play["inputs"]["SOUND_MENU"][0] == 1
    assert menu["opcode"] == "sound_sounds_menu" and menu["shadow"]
    assert menu["fields"] == {"SOUND_MENU": ["beep", None]}
    volume = next(blk for blk in blocks.values() if blk["opcode"] == "sound_setvolumeto")
    assert volume["inputs"]["VOLUME"] == [1, [4, "50"]]
    with pytest.raises(ValueError, match="already has a sound"):
        cat.add_sound(Sound.tone("beep", 0.1))


# ---- lists --------------------------------------------------------------------------------


def test_lists_are_declared_and_list_blocks_use_the_list_field() -> None:
    p = ProjectBuilder()
    p.add_list("names", ["ann", "bob"])
    cat = p.add_sprite("Cat", [Costume.circle("cat", 10, "#f90")])
    cat.add_list("mine", [1, 2, 3])
    cat.add_script(
        b("event_whenflagclicked"),
        b("data_deletealloflist", LIST="mine"),
        b("data_addtolist", LIST="mine", ITEM="x"),
        b("data_insertatlist", LIST="names", ITEM="cy", INDEX=2),
        b("data_replaceitemoflist", LIST="names", INDEX=1, ITEM="al"),
        b("data_deleteoflist", LIST="mine", INDEX=b("data_lengthoflist", LIST="mine")),
        b("looks_say", MESSAGE=b("data_itemoflist", LIST="names", INDEX=1)),
        b("looks_say", MESSAGE=ListVar("names")),
        b("data_showlist", LIST="names"),
        b("data_hidelist", LIST="mine"),
    )
    cat.add_script(
        b("event_whenkeypressed", KEY_OPTION="space"),
        b(
            "control_if",
            CONDITION=b("data_listcontainsitem", LIST="names", ITEM="al"),
            SUBSTACK=[b("looks_say", MESSAGE=b("data_itemnumoflist", LIST="names", ITEM="al"))],
        ),
    )
    project = p.to_json()
    stage, sprite = project["targets"]
    assert stage["lists"] == {"Stage-list-names": ["names", ["ann", "bob"]]}
    assert sprite["lists"] == {"Cat-list-mine": ["mine", [1, 2, 3]]}
    blocks = sprite["blocks"]
    by_opcode = {blk["opcode"]: blk for blk in blocks.values()}
    assert by_opcode["data_addtolist"]["fields"] == {"LIST": ["mine", "Cat-list-mine"]}
    assert by_opcode["data_addtolist"]["inputs"] == {"ITEM": [1, [10, "x"]]}
    insert = by_opcode["data_insertatlist"]
    assert insert["fields"]["LIST"] == ["names", "Stage-list-names"]
    assert insert["inputs"] == {"ITEM": [1, [10, "cy"]], "INDEX": [1, [7, "2"]]}
    assert by_opcode["data_replaceitemoflist"]["inputs"]["INDEX"] == [1, [7, "1"]]
    assert by_opcode["data_itemoflist"]["inputs"] == {"INDEX": [1, [7, "1"]]}
    index = by_opcode["data_deleteoflist"]["inputs"]["INDEX"]
    assert index[0] == 3 and index[2] == [7, ""]
    assert blocks[index[1]]["opcode"] == "data_lengthoflist"
    says = [blk["inputs"]["MESSAGE"] for blk in blocks.values() if blk["opcode"] == "looks_say"]
    assert [3, [13, "names", "Stage-list-names"], [10, ""]] in says
    assert by_opcode["data_listcontainsitem"]["inputs"] == {"ITEM": [1, [10, "al"]]}
    check_sb3(p.build(), "lists.sb3")


def test_an_undeclared_list_is_refused() -> None:
    p = ProjectBuilder()
    p.stage.add_script(b("data_addtolist", LIST="nope", ITEM=1))
    with pytest.raises(ValueError, match="undeclared list 'nope'"):
        p.to_json()


# ---- more opcodes and extensions ----------------------------------------------------------


def test_extension_blocks_serialize_and_name_their_extension() -> None:
    p = ProjectBuilder()
    pen = p.add_sprite("Pen", [Costume.circle("pen", 5, "#000")])
    pen.add_script(
        b("event_whenflagclicked"),
        b("music_setTempo", TEMPO=120),
        b("pen_clear"),
        b("pen_setPenColorToColor", COLOR="#ff0000"),
        b("pen_setPenSizeTo", SIZE=4),
        b("pen_penDown"),
        b("music_playDrumForBeats", DRUM=1, BEATS=0.25),
        b("music_playNoteForBeats", NOTE=60, BEATS=0.5),
        b("music_restForBeats", BEATS=1),
        b("pen_stamp"),
        b("pen_changePenSizeBy", SIZE=1),
        b("pen_penUp"),
    )
    project = p.to_json()
    assert project["extensions"] == ["music", "pen"]  # in order of first use, as the VM does
    blocks = blocks_of(project, "Pen")
    by_opcode = {blk["opcode"]: blk for blk in blocks.values()}
    assert by_opcode["pen_setPenColorToColor"]["inputs"] == {"COLOR": [1, [9, "#ff0000"]]}
    assert by_opcode["pen_setPenSizeTo"]["inputs"] == {"SIZE": [1, [4, "4"]]}
    drum = by_opcode["music_playDrumForBeats"]["inputs"]
    assert drum["BEATS"] == [1, [4, "0.25"]]
    assert blocks[drum["DRUM"][1]]["opcode"] == "music_menu_DRUM"
    assert blocks[drum["DRUM"][1]]["fields"] == {"DRUM": ["1", None]}
    note = blocks[by_opcode["music_playNoteForBeats"]["inputs"]["NOTE"][1]]
    assert (note["opcode"], note["shadow"]) == ("note", True)
    assert note["fields"] == {"NOTE": ["60", None]}
    assert by_opcode["music_restForBeats"]["inputs"] == {"BEATS": [1, [4, "1"]]}
    assert sample().to_json()["extensions"] == []


def test_new_core_opcodes_use_the_vm_shapes() -> None:
    p = ProjectBuilder()
    p.add_backdrop(Costume.backdrop("night", "#000033"))
    cat = p.add_sprite("Cat", [Costume.circle("cat", 5, "#000")])
    cat.add_script(
        b("event_whengreaterthan", WHENGREATERTHANMENU="TIMER", VALUE=2),
        b("looks_thinkforsecs", MESSAGE="hm", SECS=1),
        b("looks_changeeffectby", EFFECT="COLOR", CHANGE=25),
        b("looks_seteffectto", EFFECT="GHOST", VALUE=50),
        b("looks_cleargraphiceffects"),
        b("motion_glideto", SECS=1, TO="_random_"),
        b("looks_switchbackdroptoandwait", BACKDROP="night"),
        b("looks_say", MESSAGE=b("sensing_distanceto", DISTANCETOMENU="_mouse_")),
        b("looks_say", MESSAGE=b("sensing_current", CURRENTMENU="YEAR")),
        b("looks_say", MESSAGE=b("looks_backdropnumbername", NUMBER_NAME="name")),
    )
    p.stage.add_script(b("event_whenbackdropswitchesto", BACKDROP="night"), b("looks_nextbackdrop"))
    project = p.to_json()
    blocks = blocks_of(project, "Cat")
    by_opcode = {blk["opcode"]: blk for blk in blocks.values()}
    hat = by_opcode["event_whengreaterthan"]
    assert hat["fields"] == {"WHENGREATERTHANMENU": ["TIMER", None]}
    assert hat["inputs"] == {"VALUE": [1, [4, "2"]]}
    assert by_opcode["looks_changeeffectby"]["fields"] == {"EFFECT": ["COLOR", None]}
    assert by_opcode["looks_changeeffectby"]["inputs"] == {"CHANGE": [1, [4, "25"]]}
    glide = by_opcode["motion_glideto"]["inputs"]
    assert glide["SECS"] == [1, [4, "1"]]
    assert blocks[glide["TO"][1]]["opcode"] == "motion_glideto_menu"
    backdrop = blocks[by_opcode["looks_switchbackdroptoandwait"]["inputs"]["BACKDROP"][1]]
    assert backdrop["opcode"] == "looks_backdrops" and backdrop["fields"]["BACKDROP"][0] == "night"
    assert by_opcode["sensing_distanceto"]["inputs"]["DISTANCETOMENU"][0] == 1
    assert by_opcode["sensing_current"]["fields"] == {"CURRENTMENU": ["YEAR", None]}
    stage_hat = next(iter(blocks_of(project, "Stage").values()))
    assert stage_hat["fields"] == {"BACKDROP": ["night", None]}
    p2 = ProjectBuilder()
    p2.add_variable("x")
    p2.stage.add_script(b("looks_switchbackdropto", BACKDROP=Var("x")))
    with pytest.raises(TypeError, match="menu value"):
        p2.to_json()


def test_every_known_opcode_builds_into_a_loadable_project() -> None:
    """(tests/e2e/test_conformance.py loads the same project into the VM and checks that the
    VM's serializer writes it back unchanged.)"""
    project = check_sb3(every_opcode_project().build(), "all.sb3")
    used = {blk["opcode"] for blk in blocks_of(project, "Cat").values() if blk["topLevel"]}
    assert used == set(SPEC)
    assert project["extensions"] == ["pen", "music"]


# ---- large projects -----------------------------------------------------------------------


def large_project() -> ProjectBuilder:
    """40 sprites of 60 blocks each, every sprite with a bitmap and a vector costume."""
    p = ProjectBuilder(Costume.bitmap_backdrop("bg", "#ccddff", resolution=1))
    p.add_variable("ticks")
    for i in range(40):
        costumes = [
            Costume.bitmap(f"b{i}", 20, 20, f"#{i * 6:02x}8040", "circle"),
            Costume.rect(f"v{i}", 16, 16, "#4080ff"),
        ]
        sprite = p.add_sprite(f"Sprite{i}", costumes, x=i * 10 - 200, y=0)
        body = [b("motion_changexby", DX=1), b("data_changevariableby", VARIABLE="ticks", VALUE=1)]
        sprite.add_script(
            b("event_whenflagclicked"),
            b("control_repeat", TIMES=10, SUBSTACK=body * 29),
            b("looks_nextcostume"),
        )
    return p


def test_a_large_project_builds_whole_and_identically() -> None:
    first = large_project().build()
    project = check_sb3(first, "large.sb3")
    counts = [len(t["blocks"]) for t in project["targets"][1:]]
    assert len(counts) == 40 and all(c >= 60 for c in counts)
    assert large_project().build() == first
