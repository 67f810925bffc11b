// Renders scratchblocks text as SVG pictures with the pinned npm `scratchblocks` package (its
// Scratch 3 style), in Node over the small DOM of svg-dom.mjs. Arguments: the package folder
// and the TrueType file whose advance widths measure the labels. Reads a JSON object
// {texts: [text, ...], scale} on stdin; writes a JSON array on stdout, one entry per text:
// {svg, width, height} (the picture as a standalone SVG document with its style sheet, its
// size in pixels) or {error: message} for a text the package throws on.
import { pathToFileURL } from "node:url"
import { join } from "node:path"
import { readFileSync } from "node:fs"
import { makeWindow } from "./svg-dom.mjs"

const [folder, fontPath] = process.argv.slice(2)
const { default: init } = await import(pathToFileURL(join(folder, "index.js")).href)
const scratchblocks = init(makeWindow(fontPath))

// The renderer puts every icon (some are inline PNGs) into each picture's <defs>; keep those
// the picture links to.
function pruneDefs(view) {
  const used = new Set()
  const walk = el => {
    if (el === view.defs || !el.attributes) return
    const href = el.getAttribute("href")
    if (href && href.startsWith("#")) used.add(href.slice(1))
    el.childNodes.forEach(walk)
  }
  walk(view.el)
  for (const icon of [...view.defs.childNodes]) {
    if (!used.has(icon.getAttribute && icon.getAttribute("id"))) view.defs.removeChild(icon)
  }
}

// The labels' font is set by the style sheet's `font` shorthand, which SVG 1.1 readers such as
// Qt's ignore; the same font as presentation attributes (a style sheet rule wins over them in
// a browser) draws the labels alike there.
function fontAttributes(el) {
  if (!el.attributes) return
  const cls = el.getAttribute("class") || ""
  if (el.tagName === "text" && /\bsb3-(comment-)?label\b/.test(cls)) {
    el.setAttribute("font-family", "Helvetica")
    el.setAttribute("font-size", "16px")
    el.setAttribute("font-weight", /comment-label/.test(cls) ? "400" : "500")
  }
  el.childNodes.forEach(fontAttributes)
}

const request = JSON.parse(readFileSync(0, "utf8"))
const scale = Number(request.scale) > 0 ? Number(request.scale) : 1
const out = request.texts.map(text => {
  try {
    const doc = scratchblocks.parse(text, { languages: ["en"] })
    const view = scratchblocks.newView(doc, { style: "scratch3", scale })
    view.render()
    pruneDefs(view)
    fontAttributes(view.el)
    return {
      svg: view.exportSVGString(),
      width: view.width * scale,
      height: view.height * scale,
    }
  } catch (err) {
    return { error: String((err && err.message) || err) }
  }
})
process.stdout.write(JSON.stringify(out))
