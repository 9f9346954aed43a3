import { useEffect } from "react"

/** The tab's title for a page: its own name, then the console's. */
export const usePageTitle = (title: string | undefined) => {
  useEffect(() => {
    document.title = title === undefined ? "Hedgerow" : `${title} · Hedgerow`
  }, [title])
}
