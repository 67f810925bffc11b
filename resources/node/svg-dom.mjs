// The smallest DOM the scratchblocks renderer needs in Node: SVG elements with attributes,
// classes and text, CDATA sections, an XMLSerializer, a DOMParser that makes an XML document,
// and a 2D canvas context whose measureText gives label widths from a TrueType font's advance
// widths (the same metrics a browser on this machine uses for "Helvetica": fontconfig maps it to
// the metric-compatible font whose file is given). Nothing else of the DOM is offered.
import { readFileSync } from "node:fs"

const SVG_NS = "http://www.w3.org/2000/svg"
const XLINK_NS = "http://www.w3.org/1999/xlink"
const XML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }
const escapeXml = text => String(text).replace(/[&<>"]/g, c => XML_ESCAPES[c])

class Node {
  constructor() {
    this.childNodes = []
    this.parentNode = null
  }
  appendChild(child) {
    if (child.parentNode) child.parentNode.removeChild(child)
    child.parentNode = this
    this.childNodes.push(child)
    return child
  }
  removeChild(child) {
    const at = this.childNodes.indexOf(child)
    if (at < 0) throw new Error("removeChild: not a child")
    this.childNodes.splice(at, 1)
    child.parentNode = null
    return child
  }
}

class Text extends Node {
  constructor(data) {
    super()
    this.data = String(data)
  }
  serialize() {
    return escapeXml(this.data)
  }
}

class CDATASection extends Text {
  serialize() {
    return `<![CDATA[${this.data.replace(/]]>/g, "]]]]><![CDATA[>")}]]>`
  }
}

class ClassList {
  constructor(element) {
    this.element = element
  }
  names() {
    return (this.element.getAttribute("class") || "").split(/\s+/).filter(Boolean)
  }
  add(...names) {
    const have = this.names()
    for (const name of names) if (!have.includes(name)) have.push(name)
    this.element.setAttribute("class", have.join(" "))
  }
  remove(...names) {
    const left = this.names().filter(n => !names.includes(n))
    this.element.setAttribute("class", left.join(" "))
  }
  contains(name) {
    return this.names().includes(name)
  }
}

export class Element extends Node {
  constructor(tagName) {
    super()
    this.tagName = tagName
    this.attributes = new Map()
    this.classList = new ClassList(this)
  }
  setAttributeNS(_ns, name, value) {
    this.attributes.set(name, String(value))
  }
  setAttribute(name, value) {
    this.attributes.set(name, String(value))
  }
  getAttribute(name) {
    return this.attributes.has(name) ? this.attributes.get(name) : null
  }
  removeAttribute(name) {
    this.attributes.delete(name)
  }
  get textContent() {
    return this.childNodes.map(c => (c instanceof Element ? c.textContent : c.data)).join("")
  }
  set textContent(value) {
    for (const child of this.childNodes) child.parentNode = null
    this.childNodes = []
    if (value !== "") this.appendChild(new Text(value))
  }
  serialize(root = false) {
    let attrs = root ? ` xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"` : ""
    for (const [name, value] of this.attributes) {
      attrs += ` ${name}="${escapeXml(value)}"`
      // SVG 1.1 readers (Qt's among them) know links only as xlink:href
      if (name === "href") attrs += ` xlink:href="${escapeXml(value)}"`
    }
    if (!this.childNodes.length) return `<${this.tagName}${attrs}/>`
    const inner = this.childNodes.map(c => c.serialize()).join("")
    return `<${this.tagName}${attrs}>${inner}</${this.tagName}>`
  }
}

// TrueType advance widths: the `cmap` (formats 4 and 12) maps characters to glyphs, `hmtx`
// gives each glyph's advance in font units, `head` the units per em.
function fontMetrics(path) {
  const data = readFileSync(path)
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const tables = {}
  const count = view.getUint16(4)
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i
    const tag = data.toString("latin1", at, at + 4)
    tables[tag] = view.getUint32(at + 8)
  }
  for (const tag of ["head", "hhea", "hmtx", "cmap"]) {
    if (tables[tag] === undefined) throw new Error(`${path}: no ${tag} table (not a TrueType font)`)
  }
  const unitsPerEm = view.getUint16(tables.head + 18)
  const longMetrics = view.getUint16(tables.hhea + 34)
  const advance = glyph => view.getUint16(tables.hmtx + 4 * Math.min(glyph, longMetrics - 1))
  const cmap = tables.cmap
  let glyphOf = null
  const subtables = view.getUint16(cmap + 2)
  for (let i = 0; i < subtables && !glyphOf; i++) {
    const platform = view.getUint16(cmap + 4 + 8 * i)
    const encoding = view.getUint16(cmap + 6 + 8 * i)
    const at = cmap + view.getUint32(cmap + 8 + 8 * i)
    const format = view.getUint16(at)
    if (platform === 3 && encoding === 10 && format === 12) glyphOf = format12(view, at)
  }
  for (let i = 0; i < subtables && !glyphOf; i++) {
    const platform = view.getUint16(cmap + 4 + 8 * i)
    const encoding = view.getUint16(cmap + 6 + 8 * i)
    const at = cmap + view.getUint32(cmap + 8 + 8 * i)
    if (platform === 3 && encoding === 1 && view.getUint16(at) === 4) glyphOf = format4(view, at)
  }
  if (!glyphOf) throw new Error(`${path}: no Unicode character map`)
  return { unitsPerEm, advance, glyphOf }
}

function format4(view, at) {
  const segments = view.getUint16(at + 6) / 2
  const ends = at + 14
  const starts = ends + 2 * segments + 2
  const deltas = starts + 2 * segments
  const offsets = deltas + 2 * segments
  return code => {
    if (code > 0xffff) return 0
    for (let s = 0; s < segments; s++) {
      if (code > view.getUint16(ends + 2 * s)) continue
      const start = view.getUint16(starts + 2 * s)
      if (code < start) return 0
      const delta = view.getInt16(deltas + 2 * s)
      const offset = view.getUint16(offsets + 2 * s)
      if (offset === 0) return (code + delta) & 0xffff
      const glyph = view.getUint16(offsets + 2 * s + offset + 2 * (code - start))
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff
    }
    return 0
  }
}

function format12(view, at) {
  const groups = view.getUint32(at + 12)
  return code => {
    for (let g = 0; g < groups; g++) {
      const base = at + 16 + 12 * g
      const first = view.getUint32(base)
      const last = view.getUint32(base + 4)
      if (code >= first && code <= last) return view.getUint32(base + 8) + code - first
    }
    return 0
  }
}

// "500 12pt Helvetica Neue, ..." -> size in CSS pixels
function fontPixels(font) {
  const found = /([\d.]+)(pt|px)/.exec(font || "")
  if (!found) return 16
  return found[2] === "pt" ? (Number(found[1]) * 4) / 3 : Number(found[1])
}

export function makeWindow(fontPath) {
  const metrics = fontMetrics(fontPath)
  const widths = new Map()
  const unitWidth = ch => {
    let w = widths.get(ch)
    if (w === undefined) {
      w = metrics.advance(metrics.glyphOf(ch.codePointAt(0)))
      widths.set(ch, w)
    }
    return w
  }
  const context = {
    font: "10px sans-serif",
    measureText(text) {
      let units = 0
      for (const ch of String(text)) units += unitWidth(ch)
      return { width: (units * fontPixels(this.font)) / metrics.unitsPerEm }
    },
  }
  const document = {
    createElementNS: (_ns, name) => new Element(name),
    createElement: name => {
      if (name !== "canvas") return new Element(name)
      return { getContext: kind => (kind === "2d" ? context : null) }
    },
  }
  class DOMParser {
    parseFromString() {
      return { createCDATASection: content => new CDATASection(content) }
    }
  }
  class XMLSerializer {
    serializeToString(element) {
      return element.serialize(true)
    }
  }
  return { document, DOMParser, XMLSerializer }
}
