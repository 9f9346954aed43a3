import { characters } from "../shared/fields.ts"

/** A key's label is at most 40 characters. */
const MAX_LABEL = 40

/** Code points, so a project name is never cut inside a character. */
const firstCharacters = (text: string, count: number) => Array.from(text).slice(0, count).join("")

/**
 * The label of a key the CLI log-in makes, in PostHog's form `CLI - <project name> - <YYYY-MM-DD HH:MM>`
 * (UTC), the project's name shortened so the label holds 40 characters at most.
 */
export const cliKeyLabel = (projectName: string, at: Date): string => {
  const stamp = at.toISOString().slice(0, 16).replace("T", " ")
  const room = MAX_LABEL - characters(`CLI -  - ${stamp}`)
  return `CLI - ${firstCharacters(projectName, room)} - ${stamp}`
}
