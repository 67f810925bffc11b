"""The evaluation page is contained: it reaches no network but its own origin, WebRTC included,
a page a script broke is never used again, console output and results are bounded.

Each way out is tried against a real loopback TCP listener: the listener must see no connection
at all (not even an empty connect before a request is refused), which the Content-Security-
Policy alone does not give (WebRTC is outside its reach, and the browser preconnects to a page
it is asked to navigate to).
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.models.evaluation import Clock, ErrorKind
from studio.services.core.store import load_task
from studio.services.runtime.eval_console import (
    MAX_CONSOLE_LINE_CHARS,
    MAX_CONSOLE_LINES,
    PAGE_LIMITS,
)
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A loopback TCP port that counts what reaches it (connections wait in its backlog)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    sock.setblocking(False)
    yield sock
    sock.close()


def _connections(sock: socket.socket) -> list[bytes]:
    """What each connection that reached `sock` sent (b'' for an empty connect)."""
    seen = []
    while True:
        try:
            conn, _ = sock.accept()
        except BlockingIOError:
            return seen
        with conn:
            conn.settimeout(1)
            with contextlib.suppress(OSError):
                seen.append(conn.recv(4096))


WAYS_OUT = """module.exports = async () => {
  const port = PORT, host = '127.0.0.1', out = {};
  const settle = (p, ms) =>
    Promise.race([p, new Promise((r) => setTimeout(() => r('waited'), ms))]);
  const names = ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel',
                 'RTCSessionDescription', 'RTCIceCandidate', 'RTCRtpSender', 'RTCRtpReceiver'];
  out.globals = names.filter((n) => n in window);
  const iframe = document.createElement('iframe');
  document.body.appendChild(iframe);
  const inner = iframe.contentWindow || {};
  out.iframe_globals = names.filter((n) => {
    try { return n in inner; } catch (e) { return false; } });
  const Peer = window.RTCPeerConnection || window.webkitRTCPeerConnection
    || inner.RTCPeerConnection;
  try {
    const pc = new Peer({ iceServers: [{ urls: `turn:${host}:${port}?transport=tcp`,
                                         username: 'u', credential: 'p' }],
                          iceTransportPolicy: 'relay' });
    pc.createDataChannel('x');
    await pc.setLocalDescription(await pc.createOffer());
    await settle(new Promise((r) => { pc.onicegatheringstatechange = () => {
      if (pc.iceGatheringState === 'complete') r(); }; }), 4000);
    out.webrtc = 'made';
  } catch (e) { out.webrtc = 'refused: ' + e; }
  const tries = {
    fetch: () => fetch(`http://${host}:${port}/f`, { mode: 'no-cors' }),
    websocket: () => new Promise((ok, no) => { const ws = new WebSocket(`ws://${host}:${port}/w`);
      ws.onopen = ok; ws.onerror = no; }),
    eventsource: () => new Promise((ok, no) => { const es = new EventSource(`http://${host}:${port}/e`);
      es.onopen = ok; es.onerror = () => { es.close(); no(new Error('error')); }; }),
    img: () => new Promise((ok, no) => { const im = new Image(); im.onload = ok; im.onerror = no;
      im.src = `http://${host}:${port}/i.png`; }),
    beacon: () => navigator.sendBeacon(`http://${host}:${port}/b`, 'x')
      ? Promise.resolve() : Promise.reject(new Error('no')),
  };
  for (const rel of ['preconnect', 'dns-prefetch', 'prefetch', 'preload', 'modulepreload']) {
    const link = document.createElement('link');
    link.rel = rel; link.href = `http://${host}:${port}/${rel}`; link.as = 'fetch';
    document.head.appendChild(link);
  }
  const rules = document.createElement('script');
  rules.type = 'speculationrules';
  rules.textContent = JSON.stringify(
    { prefetch: [{ source: 'list', urls: [`http://${host}:${port}/s`] }] });
  document.head.appendChild(rules);
  for (const [name, attempt] of Object.entries(tries)) {
    try { out[name] = String(await settle(attempt(), 3000)); } catch (e) { out[name] = 'refused'; }
  }
  return { success: true, details: [{ name: 'ways out', passed: true, meta: out }] };
};
"""

NAVIGATES = """module.exports = async () => {
  location.href = 'http://127.0.0.1:PORT/away';
  await new Promise((r) => setTimeout(r, 4000));
  return true;
};
"""


def test_no_way_out_reaches_a_loopback_port(
    tmp_path: Path,
    evaluate,  # type: ignore[no-untyped-def]
    listener: socket.socket,
) -> None:
    port = str(listener.getsockname()[1])
    entry = load_task(make_task(tmp_path / "out", script=WAYS_OUT.replace("PORT", port)))
    result = evaluate(entry, clock=Clock.REAL)
    assert result.error is None, result.error
    meta = result.details[0].meta
    assert _connections(listener) == [], meta
    assert meta["globals"] == meta["iframe_globals"] == [], meta
    assert meta["webrtc"].startswith("refused"), meta
    for name in ("fetch", "websocket", "eventsource", "img"):
        assert meta[name] == "refused", (name, meta)

    away = load_task(make_task(tmp_path / "away", script=NAVIGATES.replace("PORT", port)))
    result = evaluate(away, clock=Clock.REAL)
    assert result.error is not None and result.error.kind is ErrorKind.SCRIPT
    assert "navigated the evaluation page away" in result.error.message
    assert _connections(listener) == []


FLOOD = """module.exports = async () => {
  for (let i = 0; i < 20000; i++) {
    console.assert(false, 'assert ' + i); console.count('count'); console.table([i]);
    console.dir({ i }); console.group('g'); console.groupEnd(); console.time('t' + i);
    console.timeLog('t' + i); console.timeEnd('t' + i); console.countReset('count');
  }
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  for (let i = 0; i < 20000; i++) frame.contentWindow.console.log('frame ' + i);
  const long = 'x'.repeat(8 * 1024 * 1024);
  for (let i = 0; i < 5; i++) { console.log(long); console.error('%s', long); }
  return true;
};
"""

HUGE_RESULT = """module.exports = async () => ({ success: true,
  details: [{ name: 'huge', passed: true, meta: { blob: 'x'.repeat(120 * 1000 * 1000) } }] });
"""

HUGE_ERROR = "module.exports = async () => { throw new Error('e'.repeat(10 * 1000 * 1000)); };"


def test_console_floods_and_huge_results_stay_in_the_page(
    tmp_path: Path,
    evaluate,  # type: ignore[no-untyped-def]
    loop_thread,  # type: ignore[no-untyped-def]
    browser_pool,  # type: ignore[no-untyped-def]
) -> None:
    received: list[int] = []  # the length of every console message the studio was sent

    async def listen(on: bool) -> None:
        if on:
            browser_pool.context.on("console", count)
        else:
            browser_pool.context.remove_listener("console", count)

    def count(msg) -> None:  # type: ignore[no-untyped-def]
        received.append(len(msg.text))

    loop_thread.run(listen(True))
    try:
        flood = evaluate(load_task(make_task(tmp_path / "flood", script=FLOOD)), clock=Clock.REAL)
    finally:
        loop_thread.run(listen(False))
    assert flood.error is None and flood.success, flood.error
    assert len(received) < PAGE_LIMITS["consoleCalls"] + 200, len(received)
    assert max(received) < MAX_CONSOLE_LINE_CHARS + 100
    assert len(flood.console) <= MAX_CONSOLE_LINES + 1
    assert flood.console[-1].endswith("more console lines were not kept")

    huge = evaluate(load_task(make_task(tmp_path / "huge", script=HUGE_RESULT)), clock=Clock.REAL)
    assert huge.error is not None and huge.error.kind is ErrorKind.RESULT, huge.error
    assert "120000" in huge.error.message and "more than the" in huge.error.message
    thrown = evaluate(load_task(make_task(tmp_path / "err", script=HUGE_ERROR)), clock=Clock.REAL)
    assert thrown.error is not None and thrown.error.kind is ErrorKind.SCRIPT
    assert len(thrown.error.message) < 5_000 and "10000000 characters" in thrown.error.message
    # the evaluation after all that gets a fresh page and its verdict
    assert evaluate(load_task(make_task(tmp_path / "next")), clock=Clock.VIRTUAL).success


LEAVES_MARKS = """module.exports = async (vm) => {
  window.leftBehind = 1; Object.prototype.polluted = 1;
  vm.constructor.prototype.greenFlag = () => {}; vm.runtime.constructor.prototype.startHats = null;
  localStorage.setItem('left', '1');
  return true;
};
"""

FINDS_MARKS = """module.exports = async (vm, config, cleanup) => {
  const marks = [typeof window.leftBehind, typeof ({}).polluted, localStorage.getItem('left'),
                 String(vm.greenFlag).includes('{}'), typeof vm.runtime.startHats];
  const r = await EvaluationUtils.runTests(vm, [{ name: 'flag', run: async () => {
    EvaluationUtils.greenFlag(vm); await EvaluationUtils.waitForIdle(vm);
    EvaluationUtils.check(EvaluationUtils.getPosition(vm, 'Cat').x === 100, 'moved'); } }],
    { cleanup });
  r.details[0].meta = { marks };
  return r;
};
"""


def test_a_page_a_script_changed_is_never_used_again(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    leaves = load_task(make_task(tmp_path / "leaves", script=LEAVES_MARKS))
    finds = load_task(make_task(tmp_path / "finds", script=FINDS_MARKS))
    for _ in range(2):  # with one spare page and several slots, each run gets a fresh page
        assert evaluate(leaves, clock=Clock.REAL).success
        result = evaluate(finds, clock=Clock.VIRTUAL)
        assert result.error is None and result.success, (result.error, result.details)
        assert result.details[0].meta["marks"] == [
            "undefined",
            "undefined",
            None,
            False,
            "function",
        ]


REACHES_OUT = """module.exports = async () => {
  const out = { webrtc: typeof RTCPeerConnection };
  try { await fetch('http://127.0.0.1:PORT/f', { mode: 'no-cors' }); out.fetch = 'reached'; }
  catch (e) { out.fetch = 'refused'; }
  return { success: true, details: [{ name: 'out', passed: true, meta: out }] };
};
"""


def test_the_published_protocols_editor_page_is_contained_too(
    tmp_path: Path,
    loop_thread,  # type: ignore[no-untyped-def]
    browser_pool,  # type: ignore[no-untyped-def]
    listener: socket.socket,
) -> None:
    from studio.services.formats.scratchworld.published_protocol import PublishedProtocol

    port = str(listener.getsockname()[1])
    entry = load_task(make_task(tmp_path / "pub", script=REACHES_OUT.replace("PORT", port)))
    result = loop_thread.run(PublishedProtocol(browser_pool).evaluate(entry))
    assert result.error is None, result.error
    assert result.details[0].meta == {"webrtc": "undefined", "fetch": "refused"}
    assert _connections(listener) == []
