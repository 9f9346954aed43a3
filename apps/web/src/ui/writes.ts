import { useState } from "react"
import { type ApiError, asApiError } from "../api/client.ts"

/**
 * A form's or a card's writes to the API, one at a time: `busy` while one runs, and the API's refusal
 * (`error`) when it ends in one, cleared as the next starts.
 */
export const useWrite = () => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const run = (work: () => Promise<void>) => {
    setBusy(true)
    setError(undefined)
    work()
      .catch((cause: unknown) => setError(asApiError(cause)))
      .finally(() => setBusy(false))
  }
  return { busy, error, setError, run }
}

/**
 * The writes of a card in a list (a domain, a role): each followed by reading the page's list again
 * (`refresh`) and then saying what it did (`notice`). Its refusal is shown by the card, or by the card's
 * settings form when the write was the form's (`at`).
 */
export const useCardWrites = (refresh: () => Promise<void>) => {
  const { busy, error, setError, run } = useWrite()
  const [notice, setNotice] = useState("")
  const [place, setPlace] = useState<"card" | "settings">("card")
  const write = (work: () => Promise<string>, at: "card" | "settings") => {
    setNotice("")
    setPlace(at)
    run(async () => {
      const done = await work()
      await refresh()
      setNotice(done)
    })
  }
  /** A refusal that came another way (a question's answer), shown by the card. */
  const fail = (cause: unknown) => {
    setPlace("card")
    setError(asApiError(cause))
  }
  return {
    busy,
    notice,
    setNotice,
    cardError: place === "card" ? error : undefined,
    settingsError: place === "settings" ? error : undefined,
    write,
    fail
  }
}
