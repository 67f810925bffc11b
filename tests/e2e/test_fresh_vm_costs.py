"""What making and loading a fresh VM on a reused evaluation page no longer pays for (issue 39).

- Vector costumes are sanitized once per page by their text (asset-cache.js `memo`, wrapped
  around scratch-svg-renderer's `sanitizeSvgText` in each evaluation's fresh modules): the
  second evaluation of the same project on the same page gets its costume's sanitized text
  from the cache (its text hits count), equal to what the first evaluation's own sanitize gave,
  with the forbidden parts (a script, an event handler, a link, a CSS import) removed. A script
  that loads another project during its run (the cache is closed then) adds nothing to the
  cache, and the next evaluation on the same page gets its own text as before.
- scratch-parser's validator, made once per page, refuses an invalid project with the same
  words on every run and loads a valid one after it.
- The renderer's WebGL context is made without the 30 extensions twgl would enable on it
  (scratch-classes.js `withoutExtensions`): none of their functions is on the context, and the
  context still gives an extension when asked; the stage still draws and reads pixels (a
  `touching colour` test and a snapshot of the stage).
"""

from __future__ import annotations

import base64
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from studio.models.evaluation import Clock
from studio.services.core.projectbuild import Costume, ProjectBuilder
from studio.services.core.store import load_task
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser

# Parts the sanitizer removes: a script, an event handler, a link and a CSS import.
DIRTY = (
    '<style>@import url("http://example.invalid/x.css"); rect { stroke: #123456; }</style>'
    "<script>window.leak = 1;</script>"
    '<a href="http://example.invalid/"><circle cx="5" cy="5" r="4" fill="#00ff00"/></a>'
    '<rect x="0" y="0" width="{w}" height="{w}" fill="{fill}" onload="window.leak = 2"/>'
)


def _project(fill: str, width: int) -> bytes:
    body = DIRTY.replace("{w}", str(width)).replace("{fill}", fill)
    p = ProjectBuilder()
    p.add_sprite("Box", [Costume.shape("box", width, width, body)])
    return p.build()


# The costume's sanitized text as the VM holds it, and the cache's counts (in the console).
PROBE = """module.exports = async (vm) => {
  const box = vm.runtime.targets.find((x) => !x.isStage);
  const text = new TextDecoder().decode(box.sprite.costumes[0].asset.data);
  console.log('cache ' + JSON.stringify(AssetCache.stats()));
  console.log('text ' + JSON.stringify(text));
  const clean = !/script|onload|@import|<a[ >]|example\\.invalid/.test(text);
  return { success: clean, details: [{ name: 'sanitized', passed: clean }] };
};
"""

# Loads another project (whose costume text is new) during its run: the cache is closed.
LOADS_ANOTHER = """module.exports = async (vm) => {
  const before = AssetCache.stats();
  const bytes = Uint8Array.from(atob(%s), (c) => c.charCodeAt(0));
  await vm.loadProject(bytes.buffer);
  const after = AssetCache.stats();
  const same = after.textHits === before.textHits && after.textMisses === before.textMisses;
  return { success: same, details: [{ name: 'nothing cached during the run', passed: same }] };
};
"""

# Twgl's extension functions are not on the renderer's context; the context still gives one
# when asked; the stage draws: a dot on a red box touches red, and the snapshot is red.
RENDERER = """module.exports = async (vm) => {
  const gl = vm.renderer._gl;
  const copied = ['drawArraysInstanced', 'createVertexArray', 'drawBuffers', 'VERTEX_ARRAY_BINDING']
    .filter((name) => name in gl);
  const lose = gl.getExtension('WEBGL_lose_context');
  const snapshot = await new Promise((resolve) => vm.renderer.requestSnapshot(resolve));
  const image = await new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.src = snapshot;
  });
  const canvas = document.createElement('canvas');
  canvas.width = image.width; canvas.height = image.height;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const [r, g, b] = ctx.getImageData(image.width / 2 + 50, image.height / 2, 1, 1).data;
  const dot = vm.runtime.getSpriteTargetByName('Dot'); // (its costume drawn by now)
  const touching = vm.renderer.isTouchingColor(dot.drawableID, [255, 0, 0]);
  const details = [
    { name: `no extension function copied (${copied})`, passed: copied.length === 0 },
    { name: 'an extension when asked', passed: Boolean(lose) },
    { name: 'touching red', passed: touching === true },
    { name: `the box drawn red (${[r, g, b]})`, passed: r > 200 && g < 50 && b < 50 },
  ];
  return { success: details.every((d) => d.passed), details };
};
"""


def _stats(result: Any) -> dict[str, int]:
    line = next(line for line in reversed(result.console) if "cache {" in line)
    return json.loads(line[line.index("{") :])


def _text(result: Any) -> str:
    line = next(line for line in reversed(result.console) if "text " in line)
    return str(json.loads(line[line.index("text ") + 5 :]))


def test_vector_costumes_are_sanitized_once_per_page(
    tmp_path: Path, evaluate: Any, browser_pool: Any
) -> None:
    seen = _project("#ff0000", 40)
    unseen = _project("#0000ff", 44)  # first loaded by a script, during its run
    probe = load_task(make_task(tmp_path / "probe", script=PROBE))
    b64 = json.dumps(base64.b64encode(unseen).decode("ascii"))
    loads = load_task(make_task(tmp_path / "loads", script=LOADS_ANOTHER % b64))

    first = evaluate(probe, seen, clock=Clock.VIRTUAL)
    assert first.error is None and first.success, (first.error, first.console)
    reused = browser_pool.reused
    second = evaluate(probe, seen, clock=Clock.VIRTUAL)
    assert browser_pool.reused == reused + 1, browser_pool.discards  # the same page
    assert second.error is None and second.success, (second.error, second.console)
    before, after = _stats(first), _stats(second)
    # the same text, sanitized by the first evaluation's modules, given to the second by the cache
    assert after["textHits"] > before["textHits"], (before, after)
    assert after["textMisses"] == before["textMisses"], (before, after)
    assert _text(second) == _text(first)

    done = evaluate(loads, seen, clock=Clock.VIRTUAL)
    assert done.error is None and done.success, (done.error, done.details)
    third = evaluate(probe, unseen, clock=Clock.VIRTUAL)
    assert third.error is None and third.success, (third.error, third.console)
    # the unseen project's text was not cached by the script's own load: sanitized anew
    assert _stats(third)["textMisses"] > _stats(second)["textMisses"]
    assert 'fill="#0000ff"' in _text(third)


@pytest.mark.parametrize("clock", [Clock.VIRTUAL, Clock.REAL])
def test_the_renderer_context_has_no_extension_twgl_enabled_and_still_draws(
    tmp_path: Path, evaluate: Any, clock: Clock
) -> None:
    p = ProjectBuilder()
    p.add_sprite("Box", [Costume.rect("box", 200, 200, "#ff0000")])
    p.add_sprite("Dot", [Costume.circle("dot", 5, "#0000ff", stroke="#0000ff")])
    task = load_task(make_task(tmp_path / "renderer", script=RENDERER))
    result = evaluate(task, p.build(), clock=clock)
    assert result.error is None, result.error
    assert [d.name for d in result.details if not d.passed] == []


# Writes what the origin's storage keeps beyond the page (the page's own check sees local and
# session storage and cookies and closes the page; these it cannot see): the pool's wipe must
# remove them. A storage bucket the wipe of named types leaves: its page is closed.
STORES = """module.exports = async () => {
  await new Promise((resolve, reject) => {
    const open = indexedDB.open('leak', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('s');
    open.onsuccess = () => {
      const tx = open.result.transaction('s', 'readwrite');
      tx.objectStore('s').put('v', 'k');
      tx.oncomplete = () => { open.result.close(); resolve(); };
      tx.onerror = reject;
    };
    open.onerror = reject;
  });
  await (await caches.open('leak')).put('/leak', new Response('v'));
  return true;
};
"""

OPENS_BUCKET = """module.exports = async () => {
  await navigator.storageBuckets.open('leak');
  return true;
};
"""

FINDS = """module.exports = async () => {
  const databases = (await indexedDB.databases()).map((d) => d.name);
  const cached = await caches.keys();
  const buckets = navigator.storageBuckets ? await navigator.storageBuckets.keys() : [];
  const details = [
    { name: `no database (${databases})`, passed: !databases.includes('leak') },
    { name: `no cache (${cached})`, passed: !cached.includes('leak') },
    { name: `no storage bucket (${buckets})`, passed: !buckets.includes('leak') },
  ];
  return { success: details.every((d) => d.passed), details };
};
"""


def test_what_a_script_stores_is_wiped_before_the_next_evaluation(
    tmp_path: Path, evaluate: Any, browser_pool: Any
) -> None:
    stores = load_task(make_task(tmp_path / "stores", script=STORES))
    finds = load_task(make_task(tmp_path / "finds", script=FINDS))
    clean = evaluate(finds, clock=Clock.REAL)
    assert clean.error is None and clean.success, (clean.error, clean.details)
    done = evaluate(stores, clock=Clock.REAL)
    assert done.error is None and done.success, (done.error, done.console)
    reused = browser_pool.reused
    after = evaluate(finds, clock=Clock.REAL)
    assert browser_pool.reused == reused + 1, browser_pool.discards  # the page stayed in service
    assert after.error is None, after.error
    assert [d.name for d in after.details if not d.passed] == []

    why = "the evaluation made a storage bucket"
    closed = browser_pool.discards.get(why, 0)
    done = evaluate(
        load_task(make_task(tmp_path / "bucket", script=OPENS_BUCKET)), clock=Clock.REAL
    )
    assert done.error is None and done.success, (done.error, done.console)
    assert browser_pool.discards.get(why, 0) == closed + 1, browser_pool.discards
    after = evaluate(finds, clock=Clock.REAL)
    assert after.error is None, after.error
    assert [d.name for d in after.details if not d.passed] == []


# Loads a project the validator refuses (an .sb3 whose project.json has no list of targets),
# then a valid one, in the same run; the validator is made once per page (scratch-classes.js
# SHARED), so what it says must not depend on earlier runs.
VALIDATES = """module.exports = async (vm) => {
  const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
  let refused = '';
  try {
    await vm.loadProject(bytes(%s));
  } catch (err) {
    refused = String(err && err.message || err);
  }
  console.log('refused ' + JSON.stringify(refused));
  await vm.loadProject(bytes(%s));
  const loaded = vm.runtime.targets.map((t) => t.getName()).join(',');
  const details = [
    { name: `the invalid project refused by the validator (${refused})`,
      passed: /validationError|valid SB2 or SB3/.test(refused) },
    { name: `the valid one loaded (${loaded})`, passed: loaded === 'Stage,Box' },
  ];
  return { success: details.every((d) => d.passed), details };
};
"""


def _invalid_sb3() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as sb3:
        sb3.writestr(
            "project.json", json.dumps({"targets": "not a list", "meta": {"semver": "3.0.0"}})
        )
    return out.getvalue()


def test_the_shared_validator_says_the_same_on_every_run(
    tmp_path: Path, evaluate: Any, browser_pool: Any
) -> None:
    b64 = [
        json.dumps(base64.b64encode(p).decode("ascii"))
        for p in (_invalid_sb3(), _project("#00ff00", 30))
    ]
    task = load_task(make_task(tmp_path / "validates", script=VALIDATES % tuple(b64)))
    said = []
    for _ in range(3):
        reused = browser_pool.reused
        result = evaluate(task, clock=Clock.VIRTUAL)
        assert result.error is None, (result.error, result.console)
        assert [d.name for d in result.details if not d.passed] == []
        said.append(next(line for line in result.console if "refused " in line))
    assert browser_pool.reused == reused + 1  # the last two on the same page
    assert said[0] == said[1] == said[2], said
