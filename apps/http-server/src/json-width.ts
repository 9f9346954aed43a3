/**
 * How wide the widest object or list of a JSON text is, counted without parsing it: parsing an object
 * of a hundred thousand members costs the event loop tens of milliseconds (V8 builds it key by key in
 * dictionary form), where a body of the same size made of small objects costs a few. One pass over the
 * text, a fraction of what parsing it costs, tells the two apart before the parser is asked.
 *
 * Only containers are counted: a comma in a string is skipped with the string. The text need not be
 * valid JSON; what it is wider than is the answer for what the parser would have built.
 */
export const exceedsWidth = (text: string, maxMembers: number): boolean => {
  const open: Array<number> = []
  let members = 0
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
      open.push(members)
      members = 1
    } else if (code === 0x2c) {
      if (++members > maxMembers) return true
    } else if (code === 0x7d || code === 0x5d) {
      members = open.pop() ?? 0
    }
  }
  return false
}
