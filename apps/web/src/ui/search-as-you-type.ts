import { useEffect, useRef, useState } from "react"
import { navigate } from "../router/navigation.tsx"

/** How long typing pauses before a search is put in the URL (and asked of the API). */
const SEARCH_PAUSE_MS = 300

/**
 * A search box's text for a list whose state is its URL: once typing pauses, `hrefFor` the text replaces
 * the URL (so that back does not step through every letter); a different search arriving in the URL
 * (back, forward, a link) replaces the text.
 */
export const useSearchAsYouType = (inUrl: string, hrefFor: (search: string) => string) => {
  const [search, setSearch] = useState(inUrl)
  // The search the URL last had: what the box's text is compared with.
  const sent = useRef(inUrl)
  useEffect(() => {
    if (inUrl === sent.current) return
    sent.current = inUrl
    setSearch(inUrl)
  }, [inUrl])
  const target = hrefFor(search)
  useEffect(() => {
    if (search === sent.current) return
    const timer = setTimeout(() => {
      sent.current = search
      navigate(target, { replace: true, keepFocus: true })
    }, SEARCH_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [search, target])
  return [search, setSearch] as const
}
