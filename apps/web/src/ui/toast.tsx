import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react"

/** How long a notice stays on screen. */
const SHOWN_MS = 8000

const ToastContext = createContext<(words: string) => void>(() => {})

/**
 * Says what a write did ("Saved."), in a notice pinned to the bottom of the window, so that it is in view
 * wherever the page is scrolled, and read out politely by a screen reader. A page calls the function it
 * returns; the shell provides it.
 */
export const useToast = () => useContext(ToastContext)

/**
 * The notices' place: a polite live region that is always in the page (a screen reader only reads out
 * what changes in a region it already knows), empty between notices, and a status only while it holds one. A notice holds no control, so it never
 * takes the focus nor leaves it nowhere when it goes, and it lets clicks through to what is under it.
 */
export const ToastRegion = ({ children }: { readonly children: ReactNode }) => {
  const [notice, setNotice] = useState<{ readonly words: string; readonly serial: number } | undefined>(undefined)
  const serial = useRef(0)
  const show = useCallback((words: string) => {
    serial.current += 1
    setNotice({ words, serial: serial.current })
  }, [])
  useEffect(() => {
    if (notice === undefined) return
    const timer = setTimeout(() => setNotice(undefined), SHOWN_MS)
    return () => clearTimeout(timer)
  }, [notice])
  return (
    <ToastContext value={show}>
      {children}
      <p aria-live="polite" role={notice === undefined ? undefined : "status"} className={notice === undefined ? "toast toast-empty" : "toast"}>
        {/* A new span for each notice, so that the same words twice are read out twice. */}
        {notice === undefined ? null : <span key={notice.serial}>{notice.words}</span>}
      </p>
    </ToastContext>
  )
}
