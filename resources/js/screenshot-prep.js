/*
 * Readies an editor page for a screenshot taken straight from the browser (Chromium's
 * Page.captureScreenshot, studio/services/runtime/screenshots.py) the way Playwright's
 * page.screenshot readies it, so that both give the same pixels:
 *
 *   window.studioShot.prepare(full)
 *       waits for the document's fonts, then hides the text caret of every input, text area
 *       and editable element of the document and of its shadow roots as Playwright does (an
 *       inline `caret-color: transparent !important`, the element's own value kept). Chromium
 *       paints such an element again when its style changes, and that paint may shade the
 *       antialiased edge of a rounded field one level apart from the paint before it: doing
 *       what Playwright does is what gives its pixels. Returns {hid, fits}: `hid` when it
 *       changed elements (restore() must follow); `fits` when the viewport as shown is the
 *       whole shot: always for a viewport shot (`full` false), and for a full-page shot when
 *       the document (measured as Playwright measures it) is no larger than the viewport and
 *       not scrolled (nothing is changed when it does not fit); `x`, `y`: where the viewport
 *       is in the document (CSS pixels), the corner of the shot
 *   window.studioShot.restore()   gives those elements their own caret colour back; true
 */
(function () {
  'use strict';
  const EDITABLE = 'input,textarea,[contenteditable]';
  let kept = new Map(); // element -> its own inline caret-color {value, priority}

  function roots(root, out) {
    out.push(root);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    do {
      const node = walker.currentNode;
      const shadow = node instanceof Element ? node.shadowRoot : null;
      if (shadow) roots(shadow, out);
    } while (walker.nextNode());
    return out;
  }

  function fitsViewport() {
    const body = document.body;
    const root = document.documentElement;
    if (!body || !root) return false;
    const width = Math.max(body.scrollWidth, root.scrollWidth, body.offsetWidth,
      root.offsetWidth, body.clientWidth, root.clientWidth);
    const height = Math.max(body.scrollHeight, root.scrollHeight, body.offsetHeight,
      root.offsetHeight, body.clientHeight, root.clientHeight);
    return width <= window.innerWidth && height <= window.innerHeight
      && window.scrollX === 0 && window.scrollY === 0;
  }

  function restore() {
    for (const [el, own] of kept) el.style.setProperty('caret-color', own.value, own.priority);
    kept = new Map();
    return true;
  }

  async function prepare(full) {
    if (document.fonts && document.fonts.ready) await document.fonts.ready;
    const fits = !full || fitsViewport();
    const view = window.visualViewport;
    const at = { x: view ? view.pageLeft : window.scrollX, y: view ? view.pageTop : window.scrollY };
    if (!fits) return { hid: false, fits, ...at };
    restore();
    for (const root of roots(document, [])) {
      root.querySelectorAll(EDITABLE).forEach((el) => {
        kept.set(el, { value: el.style.getPropertyValue('caret-color'),
          priority: el.style.getPropertyPriority('caret-color') });
        el.style.setProperty('caret-color', 'transparent', 'important');
      });
    }
    return { hid: kept.size > 0, fits, ...at };
  }

  window.studioShot = { prepare, restore };
}());
