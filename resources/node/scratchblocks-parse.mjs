// Parses scratchblocks text with the pinned npm `scratchblocks` package (its `syntax` module).
// Reads a JSON array of texts on stdin; writes a JSON array of documents on stdout, one per
// text: {scripts: [[node, ...], ...]} where a node is a block
// {kind: "block", id, shape, category, selector, isElse, isEnd, children: [...]} and its
// children are {kind: "label", value}, {kind: "icon", name}, {kind: "input", shape, value,
// menu}, blocks, or {kind: "script", blocks: [...]} (a C-block's mouth). A text the parser
// throws on gives {error: message}. The package folder is the first argument.
import { readFileSync } from "node:fs"
import { pathToFileURL } from "node:url"
import { join } from "node:path"

const folder = process.argv[2]
const { parse } = await import(pathToFileURL(join(folder, "syntax", "index.js")).href)

const MAX_DEPTH = 300 // tree levels written out; deeper text is refused

function node(item, depth = 0) {
  if (depth > MAX_DEPTH) {
    throw new Error(`blocks nest more than ${MAX_DEPTH} levels deep`)
  }
  const down = child => node(child, depth + 1)
  if (item.isScript) {
    return { kind: "script", blocks: item.blocks.map(down) }
  }
  if (item.isGlow) {
    return down(item.child)
  }
  if (item.isLabel) {
    return { kind: "label", value: item.value }
  }
  if (item.isIcon) {
    return { kind: "icon", name: item.name }
  }
  if (item.isInput) {
    return { kind: "input", shape: item.shape, value: item.value, menu: item.menu }
  }
  if (item.isComment) {
    return { kind: "comment", value: item.label ? item.label.value : "" }
  }
  if (item.isBlock) {
    const info = item.info || {}
    return {
      kind: "block",
      id: info.id || null,
      shape: info.shape || null,
      category: info.category || null,
      selector: info.selector || null,
      isElse: Boolean(item.isElse),
      isEnd: Boolean(item.isEnd),
      children: item.children.map(down),
    }
  }
  return { kind: "other" }
}

const texts = JSON.parse(readFileSync(0, "utf8"))
const out = texts.map(text => {
  try {
    const doc = parse(text, { languages: ["en"] })
    return { scripts: doc.scripts.map(s => s.blocks.map(b => node(b))) }
  } catch (err) {
    return { error: String((err && err.message) || err) }
  }
})
process.stdout.write(JSON.stringify(out))
