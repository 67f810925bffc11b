"""The virtual clock takes a timer's delay as a browser does (issue 39, the clock difference).

Chromium takes the delay of setTimeout and setInterval as a WebIDL `long`: the fraction is
dropped (setTimeout(f, 20.9) fired after 20.2 ms at the earliest, measured), so the VM's frame
timer, setInterval(step, 1000 / 30), ticks every 33 ms, 30.3 frames a second. The virtual clock
ticked every 33.33 ms: over the 3.8 s a published script samples clones, 114 frames instead of
115, each a little later than in the browser. Animation frames (16.67 ms) and the end of a sound
keep their exact times. Runs resources/js/virtual-clock.js in Node with a minimal window.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from studio.services.core import paths

NODE_RUN = r"""
const vm = require('vm');
const clock = require('fs').readFileSync(0, 'utf8');
const ctx = {
  console, setTimeout, clearTimeout, setInterval, clearInterval, performance, MessageChannel,
  Document: class {}, document: {},
  done: (v) => { console.log(JSON.stringify(v)); process.exit(0); }, // the clock keeps a port open
};
ctx.window = ctx;
vm.createContext(ctx);
vm.runInContext(clock, ctx);
vm.runInContext(process.argv[1], ctx);
"""

BODY = r"""
VirtualClock.install();
const fired = [];
const note = (what) => () => fired.push([what, VirtualClock.now()]);
const frames = setInterval(note('frame'), 1000 / 30);
setTimeout(note('20.9'), 20.9);
setTimeout(note('NaN'), 'soon');
setTimeout(note('-5'), -5);
setTimeout(note('2^32 + 7'), 2 ** 32 + 7);
requestAnimationFrame(note('animation frame'));
VirtualClock.drive(new Promise((r) => setTimeout(r, 100))).then(() => {
  clearInterval(frames);
  done(fired);
});
"""


def _run(body: str) -> Any:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    clock = (paths.JS_DIR / "virtual-clock.js").read_text(encoding="utf-8")
    out = subprocess.run(
        [node, "-e", NODE_RUN, body],
        input=clock,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout)


def test_timer_delays_are_whole_milliseconds_as_in_a_browser() -> None:
    fired = [(what, round(at, 3)) for what, at in _run(BODY)]
    assert fired == [
        ("NaN", 0),
        ("-5", 0),
        ("2^32 + 7", 7),  # a long wraps
        ("animation frame", 16.667),  # display frames keep their exact time
        ("20.9", 20),
        ("frame", 33),
        ("frame", 66),
        ("frame", 99),
    ]
