import type { ReactNode } from "react"
import { When } from "../ui/when.tsx"
import { type ActivityEntry, activityHeadline, actorOf, type ChangeStory, FLAG_MARK, storiesOf } from "./activity-words.ts"
import { FiltersDiff } from "./filters-diff.tsx"

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** A change's words with the flag named as `subject` where they name it. */
const named = (words: string, subject: ReactNode): ReactNode =>
  words.split(FLAG_MARK).flatMap((part, index) => index === 0 ? [part] : [<span key={index}>{subject}</span>, part])

/** One change told: its sentence, and the release conditions' before and after when it changed them. */
export const StoryItem = ({ story }: { readonly story: ChangeStory }) => (
  <li>
    {named(capitalized(story.words), "the flag")}.
    {story.filters === undefined ? null : <FiltersDiff before={story.filters.before} after={story.filters.after} />}
  </li>
)

/**
 * An activity entry as a sentence: "Ada turned the flag off", or, when it changed several things, who
 * changed the flag and a line per change. `about` stands first (in the project's feed, which flag);
 * `actions` stand after it (Restore this version).
 */
export const EntryStory = ({ entry, about, actions }: {
  readonly entry: ActivityEntry
  readonly about?: ReactNode
  readonly actions?: ReactNode
}) => {
  const subject = "the flag"
  const who = <strong>{actorOf(entry)}</strong>
  const stories = storiesOf(entry)
  const headline = activityHeadline(entry, "")
  const when = <> <span className="when"><When at={entry.created_at} /></span></>
  const single = headline === undefined && stories.length === 1 ? stories[0]! : undefined
  return (
    <li>
      {about}
      {single !== undefined
        ? (
          <>
            <p className="story">{who} {named(single.words, subject)}{when}</p>
            {single.filters === undefined ? null : <FiltersDiff before={single.filters.before} after={single.filters.after} />}
          </>
        )
        : (
          <>
            <p className="story">{who} {headline?.trim() ?? "changed"} {subject}{stories.length > 0 ? ":" : null}{when}</p>
            {stories.length === 0 ? null : <ul className="changes">{stories.map((story, index) => <StoryItem key={index} story={story} />)}</ul>}
          </>
        )}
      {actions}
    </li>
  )
}
