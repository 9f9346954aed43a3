/** The work below where the bounds were set, in ms. */
const REFERENCE_MS = 0.75
const RUNS = 40
const ROUNDS = 3
let pace: number | undefined

/**
 * A bound of `ms` set on the machine the tests' time bounds were set on, scaled by how much slower this
 * machine runs (never by less than 1). The bounds say how long a slice of work may hold the event loop (a
 * few ms); the code bounds the work in each slice, not its time, so on a slower CPU the same slice takes
 * longer by the same factor. A bound so scaled still catches a slice that does more work than it should.
 *
 * How much slower is a fixed piece of ordinary JavaScript, the least of many runs, against what it takes
 * where the bounds were set (docs/decisions.md, "How the bench measures").
 */
export const paced = (ms: number): number => {
  pace ??= Math.max(1, Math.min(...Array.from({ length: RUNS }, timedWork)) / REFERENCE_MS)
  return ms * pace
}

/**
 * The work's time by the clock, which reads to the microsecond where the thread's CPU time moves in
 * steps of a few ms on some machines; the least of many short runs is one the machine did not disturb.
 */
const timedWork = () => {
  const started = performance.now()
  work()
  return performance.now() - started
}

/** Ordinary JavaScript of a millisecond or two: objects, JSON, a map, a sort, a regex. */
const work = () => {
  let checksum = 0
  for (let round = 0; round < ROUNDS; round++) {
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: i, key: `flag-${round}-${i}`, rollout: (i * 37) % 100, tags: ["a", String(i)] }))
    const text = JSON.stringify(rows)
    const back: Array<{ readonly key: string; readonly rollout: number }> = JSON.parse(text)
    checksum += new Map(back.map((row) => [row.key, row])).size + text.split(",").length
    back.sort((a, b) => b.rollout - a.rollout || a.key.localeCompare(b.key))
    checksum += /flag-\d+-4\d\d/.test(back[0]!.key) ? 1 : 0
  }
  return checksum
}
