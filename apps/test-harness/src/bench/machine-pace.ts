import { integer, times } from "./checks.ts"
import type { EmbeddingFigures } from "./embedding.ts"
import { cpuMicrosPerRequest, type ShippedFigures } from "./shipped.ts"

/**
 * Two readings taken on the machine the targets were set and met on, a machine of the project's usual
 * kind: the CPU a bare node:http process spent per answer of GET flag's bytes (21 to 24 µs), and the CPU
 * of a call of posthog-node's local getAllFlags in the embedding section (1,245 µs). The targets are µs of
 * CPU, so a machine slower or faster than that one moves every figure; the report sets the same two
 * readings of its own run beside these, so that a target read on another machine can be weighed.
 */
const TARGETS_MACHINE = {
  bareGetFlagMicros: { least: 21, most: 24 },
  posthogNodeGetAllMicros: 1_245
} as const

const paceLine = (what: string, here: number, there: string, thereMid: number) =>
  `Pace of this machine: ${what} took ${integer(here)} µs of CPU here and ${there} µs on the machine the targets ` +
  `were set on (${times(here / thereMid)}).`

/** This run's readings beside the targets machine's, for the sections that ran and could be read. */
export const paceLines = (
  shipped: ShippedFigures | undefined,
  embedding: EmbeddingFigures | undefined
): ReadonlyArray<string> => {
  const probe = shipped?.probeScenario
  const bare = shipped?.scenarios.find((scenario) => scenario.name === probe)?.baseline
  const bareMicros = bare === undefined ? undefined : cpuMicrosPerRequest(bare)
  const { least, most } = TARGETS_MACHINE.bareGetFlagMicros
  return [
    ...(bareMicros === undefined
      ? []
      : [paceLine(`a bare node:http process's answer to ${probe}`, bareMicros, `${least}–${most}`, (least + most) / 2)]),
    ...(embedding === undefined ? [] : [
      paceLine(
        "a call of posthog-node's local getAllFlags",
        embedding.posthogNode.cpuMicros,
        integer(TARGETS_MACHINE.posthogNodeGetAllMicros),
        TARGETS_MACHINE.posthogNodeGetAllMicros
      )
    ])
  ]
}
