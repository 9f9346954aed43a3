/**
 * What a JSON text would make the parser build, counted without parsing it: parsing costs the event loop
 * by the objects and lists it makes, most of all by wide objects (built key by key), and by their
 * nesting (deep enough, it exhausts the stack), far more than by the bytes. One pass over the text, a
 * fraction of what parsing costs, finds the first bound a body passes before the parser is asked.
 *
 * Only containers are counted: a comma or a bracket in a string is skipped with the string. The text
 * need not be valid JSON; what it passes is what the parser would have built before failing.
 */
export interface JsonShapeBounds {
  /** Objects and lists nested inside each other. */
  readonly depth: number
  /** Members of any one object or list. */
  readonly members: number
  /** Objects and lists in all. */
  readonly containers: number
}

export type JsonShapeExcess = keyof JsonShapeBounds

export const shapeExcess = (text: string, bounds: JsonShapeBounds): JsonShapeExcess | undefined => {
  const open: Array<number> = []
  let members = 0
  let containers = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x22) {
      // A string: up to its closing quote, past escaped characters.
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i)
        if (inner === 0x5c) i++
        else if (inner === 0x22) break
      }
    } else if (code === 0x7b || code === 0x5b) {
      if (++containers > bounds.containers) return "containers"
      open.push(members)
      if (open.length > bounds.depth) return "depth"
      members = 1
    } else if (code === 0x2c) {
      if (++members > bounds.members) return "members"
    } else if (code === 0x7d || code === 0x5d) {
      members = open.pop() ?? 0
    }
  }
  return undefined
}
