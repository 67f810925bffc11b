/*
 * Decode once: bitmap costumes and sounds an evaluation page decodes are kept, per page, by
 * their content, and the next evaluation that loads the same bytes (the golden, initial, mutants
 * and reruns of a task share them) gets a copy of the decoded result instead of decoding again.
 *
 * What is shared, and why no script can change what the next evaluation gets:
 *   - The cache is consulted and filled only while a project loads (`open()` ... `close()`, by
 *     eval-runner.js around `vm.loadProject`), before the evaluation's script runs: the page was
 *     proved clean after the previous evaluation (page-reuse.js), and nothing untrusted has run
 *     in this one yet. Once the script runs, decoding is the browser's own again, uncached, so
 *     whatever the script loads or replaces never enters the cache.
 *   - The key is the content: a short hash of the bytes (and the image type, or the audio
 *     context's sample rate), and a hit also compares the bytes themselves with the copy kept,
 *     so two assets never share a decode, whatever their names (md5ext / assetId) claim.
 *   - What is kept (the decoded ImageBitmap, the samples of each audio channel) lives in this
 *     closure only, unreachable from the window. Each evaluation gets a copy of its own (a new
 *     ImageBitmap made from the kept one, a new AudioBuffer filled from the kept samples):
 *     closing the bitmap or writing into the buffer changes that copy, nothing else.
 *   - Only the runner can open the cache (`claim`), so no script opens it around decoders of
 *     its own; what the cache calls is what the page had when the runner opened it.
 * A failed decode is kept as a failure (the VM then tries its own fallback, as it would). The
 * cache holds at most MAX_BYTES of decoded data; past that, new content is decoded uncached.
 *
 * Text passes too (issue 39): `memo(kind, fn)` wraps a function of one string that gives a
 * string, such as scratch-svg-renderer's `sanitizeSvgText` (DOMPurify and a CSS parser over every
 * vector costume, twice per costume per load: the VM's and the renderer's; scratch-classes.js
 * wraps it in each evaluation's fresh modules). While the cache is open, its result is kept by
 * the whole text (a Map keyed by the string itself: equal keys are equal content) and given
 * again for the same text; a string is immutable, so the copy question does not arise. Closed,
 * the wrapper is `fn` itself. Only pure functions are wrapped: the same text gives the same
 * string, so a hit is what the call would have given (tests/e2e/test_fresh_vm_costs.py). A result
 * that is not a string, and a call that throws, are not kept.
 *
 * Exposes window.AssetCache = {claim(), stats(), memo(kind, fn)} (frozen, not replaceable):
 * claim() gives {open(audioContext), close()} once, to eval-runner.js as it loads, and null
 * afterwards. A wrapper a script makes with memo() is only ever called closed (the cache is
 * open only while the runner loads a project, before any script runs), so it keeps nothing.
 */
(function () {
  'use strict';
  const MAX_BYTES = 256 * 1024 * 1024;
  const apply = Reflect.apply;
  const defineProperty = Reflect.defineProperty;
  const describe = Reflect.getOwnPropertyDescriptor;
  const deleteProperty = Reflect.deleteProperty;
  const M = Map.prototype;
  const mapGet = M.get, mapSet = M.set, mapHas = M.has;
  const push = Array.prototype.push;
  const U8 = Uint8Array;
  const u8slice = Uint8Array.prototype.slice;
  const f32slice = Float32Array.prototype.slice;
  const bufferSlice = ArrayBuffer.prototype.slice;
  const byteLength = describe(ArrayBuffer.prototype, 'byteLength').get;
  const blobArrayBuffer = Blob.prototype.arrayBuffer;
  const blobType = describe(Blob.prototype, 'type').get;
  const isBlob = (v) => { try { apply(blobType, v, []); return true; } catch (e) { return false; } };
  const isArrayBuffer = (v) => { try { apply(byteLength, v, []); return true; } catch (e) { return false; } };
  const RealBlob = Blob;
  const RealAudioBuffer = window.AudioBuffer;
  const getChannelData = RealAudioBuffer && RealAudioBuffer.prototype.getChannelData;
  const copyToChannel = RealAudioBuffer && RealAudioBuffer.prototype.copyToChannel;
  const abLength = RealAudioBuffer && describe(RealAudioBuffer.prototype, 'length').get;
  const abRate = RealAudioBuffer && describe(RealAudioBuffer.prototype, 'sampleRate').get;
  const abChannels = RealAudioBuffer && describe(RealAudioBuffer.prototype, 'numberOfChannels').get;
  const ctxRate = window.BaseAudioContext && describe(BaseAudioContext.prototype, 'sampleRate').get;
  const then = Promise.prototype.then;

  const entries = new Map(); // key -> [{bytes, value: Promise of what is kept}]
  let kept = 0; // decoded bytes held
  const counts = { hits: 0, misses: 0, uncached: 0, textHits: 0, textMisses: 0 };
  const texts = new Map(); // kind -> Map(text -> result)
  let restore = null; // while open: how to put back what open() replaced

  /** FNV-1a over the bytes: a short key; a hit is confirmed by comparing the bytes. */
  function hash(bytes) {
    let h = 0x811c9dc5;
    for (let i = 0; i < bytes.length; i++) {
      h ^= bytes[i];
      h = Math.imul(h, 0x01000193);
    }
    return (h >>> 0).toString(16);
  }

  function same(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** The kept value for `bytes` (a promise), made by `make()` on a miss; null when full. */
  function lookup(kind, bytes, extra, make) {
    const key = `${kind}:${extra}:${bytes.length}:${hash(bytes)}`;
    let list = apply(mapGet, entries, [key]);
    if (!list) {
      list = [];
      apply(mapSet, entries, [key, list]);
    }
    for (let i = 0; i < list.length; i++) {
      if (same(list[i].bytes, bytes)) {
        counts.hits += 1;
        return list[i].value;
      }
    }
    if (kept >= MAX_BYTES) {
      counts.uncached += 1;
      return null;
    }
    counts.misses += 1;
    const entry = { bytes: apply(u8slice, bytes, []), value: null };
    kept += bytes.length;
    entry.value = make((size) => { kept += size; });
    apply(push, list, [entry]);
    return entry.value;
  }

  /** window.createImageBitmap while a project loads: a Blob's decode shared by content. */
  function imageBitmaps(real) {
    return function createImageBitmap(source, ...rest) {
      if (rest.length || !isBlob(source)) return apply(real, this, [source, ...rest]);
      const type = apply(blobType, source, []);
      const read = apply(blobArrayBuffer, source, []);
      return apply(then, read, [(buffer) => {
        const bytes = new U8(buffer);
        const master = lookup('image', bytes, type, (grow) => apply(then,
          apply(real, window, [new RealBlob([apply(u8slice, bytes, [])], { type })]),
          [(bitmap) => { grow(bitmap.width * bitmap.height * 4); return bitmap; }]));
        if (!master) return apply(real, window, [source]);
        return apply(then, master, [(bitmap) => apply(real, window, [bitmap])]);
      }]);
    };
  }

  /** The context's decodeAudioData while a project loads: decoded samples shared by content. */
  function audioDecoding(context, real) {
    return function decodeAudioData(data) { // one parameter: the VM uses the promise form
      if (arguments.length !== 1 || !isArrayBuffer(data) || !RealAudioBuffer) {
        return apply(real, context, arguments);
      }
      const bytes = new U8(apply(bufferSlice, data, [0]));
      const rate = apply(ctxRate, context, []);
      const master = lookup('sound', bytes, rate, (grow) => apply(then,
        apply(real, context, [apply(bufferSlice, data, [0])]),
        [(buffer) => {
          const channels = [];
          for (let i = 0; i < apply(abChannels, buffer, []); i++) {
            apply(push, channels, [apply(f32slice, apply(getChannelData, buffer, [i]), [])]);
          }
          const length = apply(abLength, buffer, []);
          grow(length * channels.length * 4);
          return { length, sampleRate: apply(abRate, buffer, []), channels };
        }]));
      if (!master) return apply(real, context, [data]);
      return apply(then, master, [(kept) => {
        const copy = new RealAudioBuffer({
          length: kept.length, numberOfChannels: kept.channels.length, sampleRate: kept.sampleRate,
        });
        for (let i = 0; i < kept.channels.length; i++) apply(copyToChannel, copy, [kept.channels[i], i]);
        return copy;
      }]);
    };
  }

  /** From now until close(): bitmap and sound decodes of the page (and of `audioContext`)
   * go through the cache. */
  function open(audioContext) {
    close();
    const undo = [];
    const bitmapDesc = describe(window, 'createImageBitmap');
    if (bitmapDesc && typeof bitmapDesc.value === 'function') {
      defineProperty(window, 'createImageBitmap', { ...bitmapDesc, value: imageBitmaps(bitmapDesc.value) });
      apply(push, undo, [() => defineProperty(window, 'createImageBitmap', bitmapDesc)]);
    }
    if (audioContext && typeof audioContext.decodeAudioData === 'function') {
      const own = describe(audioContext, 'decodeAudioData');
      defineProperty(audioContext, 'decodeAudioData', {
        value: audioDecoding(audioContext, audioContext.decodeAudioData),
        writable: true, configurable: true, enumerable: false,
      });
      apply(push, undo, [() => (own ? defineProperty(audioContext, 'decodeAudioData', own)
        : deleteProperty(audioContext, 'decodeAudioData'))]);
    }
    restore = undo;
  }

  /** Decoding is the page's own again (before the script runs). */
  function close() {
    if (!restore) return;
    const undo = restore;
    restore = null;
    for (let i = undo.length - 1; i >= 0; i--) undo[i]();
  }

  /** `fn(text)` (a pure function of one string giving a string), its results kept by text
   * while the cache is open; see the header. */
  function memo(kind, fn) {
    const key = String(kind);
    return function memoized(text) {
      if (!restore || typeof text !== 'string' || arguments.length !== 1) {
        return apply(fn, this, arguments);
      }
      let known = apply(mapGet, texts, [key]);
      if (!known) {
        known = new Map();
        apply(mapSet, texts, [key, known]);
      }
      if (apply(mapHas, known, [text])) {
        counts.textHits += 1;
        return apply(mapGet, known, [text]);
      }
      const result = apply(fn, this, [text]);
      counts.textMisses += 1;
      if (typeof result === 'string' && kept < MAX_BYTES) {
        kept += 2 * (text.length + result.length);
        apply(mapSet, known, [text, result]);
      }
      return result;
    };
  }

  const stats = () => ({ ...counts, entries: entries.size, bytes: kept });

  // The runner claims open/close once, when it loads (before any evaluation); a script that
  // calls claim() later gets null, so it can never open the cache around its own decoding.
  let claimed = false;
  const claim = () => {
    if (claimed) return null;
    claimed = true;
    return Object.freeze({ open, close });
  };
  Object.defineProperty(window, 'AssetCache', {
    value: Object.freeze({ claim, stats, memo }),
    writable: false, configurable: false, enumerable: true,
  });
}());
