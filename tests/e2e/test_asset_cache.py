"""Decode once, shared by content, and no channel between evaluations (asset-cache.js).

A project with a PNG costume and a WAV sound: on a reused page the second evaluation of the
same bytes gets its costume and sound from the page's cache (its hits count), and what the VM
holds equals a decode the probe makes itself, uncached. Scripts that tamper with what they were
given (write into the sound's samples and the costume's pixels), try to get the cache's
controls, or replace the decoders and load another project (whose assets are not cached yet)
leave the page in service, and the probe's verdicts on the next evaluation (the same page)
are those of a clean page. (A probe makes an audio context of its own, so its page is closed
after it: each tamperer runs on a fresh page, and the probe after it on the tamperer's page.)
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from studio.models.evaluation import Clock
from studio.services.core.projectbuild import Costume, ProjectBuilder, Sound
from studio.services.core.store import load_task
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser


def _project(fill: str, hz: float) -> bytes:
    p = ProjectBuilder()
    ball = p.add_sprite("Ball", [Costume.bitmap("ball", 40, 30, fill, resolution=2)])
    ball.add_sound(Sound.tone("beep", 0.2, hz=hz))
    return p.build()


# The VM's sound samples and costume pixels against a decode of the same bytes made here,
# after the project loaded (the cache is closed then); the cache's counts go to the console.
PROBE = """module.exports = async (vm) => {
  const t = vm.runtime.targets.find((x) => !x.isStage);
  const sound = t.sprite.sounds[0];
  const got = t.sprite.soundBank.soundPlayers[sound.soundId].buffer;
  const offline = new OfflineAudioContext(1, 1, got.sampleRate);
  const own = await offline.decodeAudioData(sound.asset.data.slice().buffer);
  const a = got.getChannelData(0), b = own.getChannelData(0);
  const soundSame = a.length === b.length && a.every((v, i) => v === b[i]);
  const costume = t.sprite.costumes[0];
  const pixels = vm.renderer._allSkins[costume.skinId]._silhouette._colorData;
  const bitmap = await createImageBitmap(new Blob([costume.asset.data], { type: 'image/png' }));
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width; canvas.height = bitmap.height;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(bitmap, 0, 0);
  const mine = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const costumeSame = pixels.length === mine.length && pixels.every((v, i) => v === mine[i]);
  console.log('cache ' + JSON.stringify(AssetCache.stats()));
  return { success: soundSame && costumeSame, details: [
    { name: 'sound as decoded', passed: soundSame },
    { name: 'costume as decoded', passed: costumeSame }] };
};
"""

TAMPER_GIVEN = """module.exports = async (vm) => {
  const t = vm.runtime.targets.find((x) => !x.isStage);
  const player = t.sprite.soundBank.soundPlayers[t.sprite.sounds[0].soundId];
  player.buffer.getChannelData(0).fill(0.5);
  vm.renderer._allSkins[t.sprite.costumes[0].skinId]._silhouette._colorData.fill(7);
  if (AssetCache.claim() !== null) throw new Error('the cache gave its controls to a script');
  return true;
};
"""

# Replaces both decoders (a 1x1 image, silence), loads a project whose assets are not cached,
# also through the cache's controls if it got them, then puts the decoders back.
TAMPER_DECODERS = """module.exports = async (vm) => {
  const bytes = Uint8Array.from(atob(%s), (c) => c.charCodeAt(0));
  const context = vm.runtime.audioEngine.audioContext;
  const bitmapDesc = Object.getOwnPropertyDescriptor(window, 'createImageBitmap');
  const decodeDesc = Object.getOwnPropertyDescriptor(BaseAudioContext.prototype, 'decodeAudioData');
  const realBitmap = window.createImageBitmap;
  window.createImageBitmap = () => realBitmap(new ImageData(1, 1));
  const silence = function (data) {
    return Promise.resolve(this.createBuffer(1, 1, this.sampleRate));
  };
  const proto = BaseAudioContext.prototype;
  Object.defineProperty(proto, 'decodeAudioData', { ...decodeDesc, value: silence });
  context.decodeAudioData = silence;
  const controls = AssetCache.claim();
  if (controls) controls.open(context);
  try {
    await vm.loadProject(bytes.buffer);
  } finally {
    if (controls) controls.close();
    Object.defineProperty(window, 'createImageBitmap', bitmapDesc);
    Object.defineProperty(BaseAudioContext.prototype, 'decodeAudioData', decodeDesc);
    delete context.decodeAudioData;
  }
  return true;
};
"""


def _stats(result: Any) -> dict[str, int]:
    line = next(line for line in reversed(result.console) if "cache {" in line)
    return json.loads(line[line.index("{") :])


@pytest.mark.parametrize("clock", [Clock.VIRTUAL, Clock.REAL])
def test_decoded_once_and_no_script_changes_what_the_next_evaluation_gets(
    tmp_path: Path, evaluate: Any, browser_pool: Any, clock: Clock
) -> None:
    seen = _project("#ff0000", 880)
    unseen = _project("#00aa33", 330)  # first loaded by a tampering script
    probe = load_task(make_task(tmp_path / "probe", script=PROBE))
    given = load_task(make_task(tmp_path / "given", script=TAMPER_GIVEN))
    b64 = json.dumps(base64.b64encode(unseen).decode("ascii"))
    decoders = load_task(make_task(tmp_path / "decoders", script=TAMPER_DECODERS % b64))

    first = evaluate(probe, seen, clock=clock)  # a clean page: the probe's verdicts
    assert first.success, (first.details, first.error, first.console)
    for tamper, project in ((given, seen), (decoders, unseen)):
        reused = browser_pool.reused
        done = evaluate(tamper, seen, clock=clock)  # on a fresh page: the probe's was closed
        assert done.error is None and done.success, (tamper.task.id, done.error)
        after = evaluate(probe, project, clock=clock)
        assert browser_pool.reused == reused + 1, (tamper.task.id, browser_pool.discards)
        assert after.error is None, (tamper.task.id, after.error)
        assert [(d.name, d.passed) for d in after.details] == [
            ("sound as decoded", True),
            ("costume as decoded", True),
        ], (tamper.task.id, after.console)
        # The seen project's costume and sound came from the cache the tamperer's load filled;
        # the unseen one's were decoded anew: nothing the script loaded entered the cache.
        assert _stats(after)["hits"] == (2 if project is seen else 0), after.console
