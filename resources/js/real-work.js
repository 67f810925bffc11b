/*
 * Counts the real asynchronous work a page has under way: requests (fetch, XMLHttpRequest),
 * IndexedDB requests, image loads and decodes, audio decoding, blob and file reads, the Cache
 * API and crypto digests. None of these follow a virtual clock: they take the time they take.
 * While any is pending, the virtual clock lets virtual time follow real time instead of jumping
 * (see virtual-clock.js), so that a script awaiting such work sees it finish after about as much
 * program time as in a browser running in real time, not after a jump of many seconds.
 *
 * Exposes window.RealWork = {install(), uninstall(), pending(), track(promise)}: `track` counts
 * a promise of other real work (a project a script loads: eval-runner.js) until it settles.
 */
(function () {
  'use strict';
  let pending = 0;
  const restore = [];

  function begin() { pending += 1; }
  function end() { pending = Math.max(0, pending - 1); }

  /** A promise that counts as pending work until it settles. */
  function trackPromise(promise) {
    begin();
    promise.then(end, end);
    return promise;
  }

  /** A target (request, image, reader) that counts as pending until one of `events` fires. */
  function trackEvents(target, events) {
    begin();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      end();
      for (const e of events) target.removeEventListener(e, finish);
    };
    for (const e of events) target.addEventListener(e, finish);
    return target;
  }

  function wrap(owner, name, make) {
    if (!owner) return;
    const desc = Object.getOwnPropertyDescriptor(owner, name);
    if (!desc || typeof desc.value !== 'function') return;
    Object.defineProperty(owner, name, { ...desc, value: make(desc.value) });
    restore.push(() => Object.defineProperty(owner, name, desc));
  }

  const returnsPromise = (fn) => function (...args) { return trackPromise(fn.apply(this, args)); };
  const returnsRequest = (fn) => function (...args) {
    return trackEvents(fn.apply(this, args), ['success', 'error', 'blocked']);
  };

  function install() {
    if (restore.length) return;
    pending = 0;
    wrap(window, 'fetch', returnsPromise);
    wrap(window, 'createImageBitmap', returnsPromise);
    wrap(window.BaseAudioContext && BaseAudioContext.prototype, 'decodeAudioData', returnsPromise);
    wrap(window.HTMLImageElement && HTMLImageElement.prototype, 'decode', returnsPromise);
    for (const name of ['arrayBuffer', 'text']) wrap(Blob.prototype, name, returnsPromise);
    if (window.crypto && crypto.subtle) wrap(Object.getPrototypeOf(crypto.subtle), 'digest', returnsPromise);
    if (window.Cache) for (const n of ['match', 'matchAll', 'add', 'addAll', 'put', 'delete', 'keys']) wrap(Cache.prototype, n, returnsPromise);
    if (window.CacheStorage) for (const n of ['open', 'match', 'has', 'delete', 'keys']) wrap(CacheStorage.prototype, n, returnsPromise);
    wrap(XMLHttpRequest.prototype, 'send', (send) => function (...args) {
      trackEvents(this, ['loadend']);
      return send.apply(this, args);
    });
    for (const n of ['readAsArrayBuffer', 'readAsText', 'readAsDataURL', 'readAsBinaryString']) {
      wrap(FileReader.prototype, n, (read) => function (...args) {
        trackEvents(this, ['loadend']);
        return read.apply(this, args);
      });
    }
    if (window.IDBFactory) for (const n of ['open', 'deleteDatabase']) wrap(IDBFactory.prototype, n, returnsRequest);
    const stores = [window.IDBObjectStore && IDBObjectStore.prototype, window.IDBIndex && IDBIndex.prototype];
    for (const proto of stores) {
      for (const n of ['get', 'getAll', 'getKey', 'getAllKeys', 'count', 'put', 'add', 'delete', 'clear', 'openCursor', 'openKeyCursor']) {
        wrap(proto, n, returnsRequest);
      }
    }
    const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src');
    Object.defineProperty(HTMLImageElement.prototype, 'src', {
      ...src,
      set(value) { trackEvents(this, ['load', 'error']); src.set.call(this, value); },
    });
    restore.push(() => Object.defineProperty(HTMLImageElement.prototype, 'src', src));
  }

  function uninstall() {
    while (restore.length) restore.pop()();
    pending = 0;
  }

  window.RealWork = { install, uninstall, pending: () => pending, track: trackPromise };
}());
