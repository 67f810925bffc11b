/*
 * Installed by the browser pool (studio.services.browser) in every evaluation page before any
 * of the page's own scripts run, in every frame of it: the page has no WebRTC. A peer connection
 * is outside the Content-Security-Policy's reach (a TURN server `turn:127.0.0.1:PORT` opens TCP
 * to any port), so its constructors are removed from the window; the browser's own flags and the
 * pool's request interception are the other two walls. A frame's console is silenced, so
 * that the page's console budget (eval-runner.js) cannot be bypassed through a frame.
 */
(function () {
  'use strict';
  const WEBRTC = /^(webkit)?RTC|^(webkit)?MediaStream|^MediaRecorder$|^ImageCapture$/;
  for (const name of Object.getOwnPropertyNames(window)) {
    if (!WEBRTC.test(name)) continue;
    try {
      delete window[name];
    } catch (e) { /* not configurable: shadowed below */ }
    if (name in window) {
      try {
        Object.defineProperty(window, name, { value: undefined, writable: false, configurable: false });
      } catch (e) { /* nothing more can be done here; the browser's walls remain */ }
    }
  }
  // A frame of the page has no console: its output would bypass the page's console budget.
  if (window.top !== window) {
    for (const name of Object.getOwnPropertyNames(console)) {
      if (typeof console[name] === 'function') console[name] = function () { return undefined; };
    }
  }
  try {
    Object.defineProperty(Navigator.prototype, 'mediaDevices', { get: () => undefined, configurable: false });
  } catch (e) { /* already gone */ }
}());
