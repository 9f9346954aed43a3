import type { ReactNode } from "react"
import { When } from "../ui/when.tsx"
import { type ActivityEntry, activityVerb, actorOf, type ChangeStory, storiesOf } from "./activity-words.ts"
import { FiltersDiff } from "./filters-diff.tsx"

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** One change told: its sentence, and the release conditions' before and after when it changed them. */
export const StoryItem = ({ story }: { readonly story: ChangeStory }) => (
  <li>
    {capitalized(story.words)}.
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
  const who = <strong>{actorOf(entry)}</strong>
  const stories = storiesOf(entry)
  const verb = activityVerb(entry)
  const when = <> <span className="when"><When at={entry.created_at} /></span></>
  const single = verb === undefined && stories.length === 1 ? stories[0]! : undefined
  return (
    <li>
      {about}
      {single !== undefined
        ? (
          <>
            <p className="story">{who} {single.words}{when}</p>
            {single.filters === undefined ? null : <FiltersDiff before={single.filters.before} after={single.filters.after} />}
          </>
        )
        : (
          <>
            <p className="story">{who} {verb ?? "changed"} the flag{stories.length > 0 ? ":" : null}{when}</p>
            {stories.length === 0 ? null : <ul className="changes">{stories.map((story, index) => <StoryItem key={index} story={story} />)}</ul>}
          </>
        )}
      {actions}
    </li>
  )
}
