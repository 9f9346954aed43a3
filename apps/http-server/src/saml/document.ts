import { DOMParser } from "@xmldom/xmldom"

/**
 * The XML of a SAML message, refused before and while it is parsed unless it is a plain, modest
 * document: no DTD (so no entity of any kind is ever expanded), a size, a depth and an element count
 * far above any identity provider's answer and low enough that parsing and checking one stays short.
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024
const MAX_DEPTH = 24
const MAX_ELEMENTS = 400
const MAX_ATTRIBUTES = 800

/** Why a message was not even read. */
export class UnreadableDocument extends Error {}

/** `<!DOCTYPE` or `<!ENTITY` anywhere, in any case: a DTD is never accepted, wherever it hides. */
const DECLARATION = /<!\s*(?:doctype|entity)/i

const ELEMENT_NODE = 1
const DOCUMENT_TYPE_NODE = 10

/**
 * Depth, element and attribute counts, walked without recursion, so a deep document cannot exhaust the
 * stack. The signature library looks elements up by attribute across the whole document, so its time
 * grows with both counts.
 */
const checkShape = (root: Element) => {
  const stack: Array<readonly [Node, number]> = [[root, 1]]
  let elements = 0
  let attributes = 0
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (node.nodeType !== ELEMENT_NODE) continue
    elements += 1
    attributes += (node as Element).attributes.length
    if (depth > MAX_DEPTH) throw new UnreadableDocument("The SAML message is nested too deeply.")
    if (elements > MAX_ELEMENTS || attributes > MAX_ATTRIBUTES) throw new UnreadableDocument("The SAML message has too many elements.")
    for (let child = node.firstChild; child !== null; child = child.nextSibling) stack.push([child, depth + 1])
  }
}

const NOT_WELL_FORMED = "The SAML message is not well-formed XML."

const refuse = () => {
  throw new UnreadableDocument(NOT_WELL_FORMED)
}

/** The parser, strict: any error or warning ends the parse. */
const parser = () => new DOMParser({ errorHandler: { warning: refuse, error: refuse, fatalError: refuse } })

/** The document's root element, or UnreadableDocument. */
export const parseDocument = (xml: string): Element => {
  if (xml.length > MAX_DOCUMENT_BYTES) throw new UnreadableDocument("The SAML message is too large.")
  if (DECLARATION.test(xml)) throw new UnreadableDocument("The SAML message carries a DTD, which is never accepted.")
  let document: Document
  try {
    document = parser().parseFromString(xml, "text/xml")
  } catch (error) {
    throw error instanceof UnreadableDocument && error.message !== NOT_WELL_FORMED ? error : new UnreadableDocument(NOT_WELL_FORMED)
  }
  for (let child = document.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === DOCUMENT_TYPE_NODE) throw new UnreadableDocument("The SAML message carries a DTD, which is never accepted.")
  }
  const root = document.documentElement
  if (root === null || root === undefined) throw new UnreadableDocument("The SAML message is empty.")
  checkShape(root)
  return root
}

/** The element children of `parent` with this namespace and local name. */
export const childrenNamed = (parent: Element, namespace: string, name: string): Array<Element> => {
  const found: Array<Element> = []
  for (let child = parent.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE && (child as Element).namespaceURI === namespace && (child as Element).localName === name) {
      found.push(child as Element)
    }
  }
  return found
}

/** Every element below `root` (itself included) with this namespace and local name. */
export const descendantsNamed = (root: Element, namespace: string, name: string): Array<Element> =>
  Array.from(root.getElementsByTagNameNS(namespace, name) as ArrayLike<Element>).concat(
    root.namespaceURI === namespace && root.localName === name ? [root] : []
  )

/**
 * An element's text: all of its text, joined, trimmed. A child element inside is refused: SAML's text
 * elements hold text only. Comments are skipped, so `a<!---->b` reads `ab`, the value the signature covers.
 */
export const textOf = (element: Element): string => {
  let text = ""
  for (let child = element.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE) throw new UnreadableDocument(`<${element.localName}> holds an element where text belongs.`)
    if (child.nodeType === 3 || child.nodeType === 4) text += child.nodeValue ?? ""
  }
  return text.trim()
}

/** An attribute's value, or undefined when the element has none. */
export const attributeOf = (element: Element, name: string): string | undefined =>
  element.hasAttribute(name) ? element.getAttribute(name)!.trim() : undefined
