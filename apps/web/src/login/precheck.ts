import { useCallback, useEffect, useRef, useState } from "react"
import { request } from "../api/client.ts"
import type { Precheck } from "./sso.ts"

/** How long typing must pause before a complete-looking e-mail is checked. */
const PAUSE_MS = 400

/** Something, an @, and a domain with a dot: worth asking about. */
const looksComplete = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(email)

const keyOf = (email: string) => email.trim().toLowerCase()

/**
 * The precheck's answer for the e-mail being typed, asked once the e-mail looks complete and typing
 * pauses, or when `check` is called (the field is left). Answers are kept by e-mail, so one that comes
 * late never speaks for another address; a refused or failed precheck says nothing, and the password
 * form stays. `recheck` asks again, when the server has said more than the last answer did.
 */
export const usePrecheck = (email: string) => {
  const [answers, setAnswers] = useState<ReadonlyMap<string, Precheck>>(new Map())
  const asked = useRef(new Set<string>())

  const ask = useCallback((address: string, again: boolean) => {
    const key = keyOf(address)
    if (!looksComplete(key) || (asked.current.has(key) && !again)) return
    asked.current.add(key)
    request("POST", "/api/login/precheck/", { payload: { email: address.trim() } }).then(
      (answer) => setAnswers((known) => new Map(known).set(key, answer)),
      () => asked.current.delete(key)
    )
  }, [])

  useEffect(() => {
    const timer = setTimeout(() => ask(email, false), PAUSE_MS)
    return () => clearTimeout(timer)
  }, [email, ask])

  return {
    answer: answers.get(keyOf(email)),
    check: () => ask(email, false),
    recheck: () => ask(email, true)
  }
}
