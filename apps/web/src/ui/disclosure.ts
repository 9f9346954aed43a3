import { type KeyboardEvent, useEffect, useRef, useState } from "react"
import { useLocation } from "../router/navigation.tsx"

/**
 * A button that shows and hides a panel beside it: closed again by Escape (focus back on the button), by
 * a click outside, and by any navigation, so a link followed from the panel does not leave it open.
 * `container` goes on the element holding both; `onKeyDown` on the same.
 */
export const useDisclosure = () => {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const container = useRef<HTMLDivElement>(null)
  const location = useLocation()
  useEffect(() => setOpen(false), [location])

  useEffect(() => {
    if (!open) return
    const closeOutside = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener("mousedown", closeOutside)
    return () => document.removeEventListener("mousedown", closeOutside)
  }, [open])

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return
    setOpen(false)
    button.current?.focus()
  }
  return { open, toggle: () => setOpen(!open), button, container, onKeyDown }
}
