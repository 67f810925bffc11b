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
from studio.services.store import load_task
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
