import { useEffect } from "react"

/** Long enough for the page's effects after an answer to run, short enough to go unnoticed. */
const SETTLE_MS = 50

/**
 * Keeps the keyboard's place through a write: a button disabled while its request is out drops the focus
 * to the page's body, from where the keyboard would start again at the top. Once that control can be used
 * again it takes the focus back, unless something took it meanwhile (a refused field, a dialog, a notice).
 */
export const useFocusKeptThroughWrites = () =>
  useEffect(() => {
    let release = () => {}
    const onFocusOut = (event: FocusEvent) => {
      const left = event.target
      // Only a control that lost the focus to nothing by being disabled.
      if (!(left instanceof HTMLElement) || event.relatedTarget !== null || !left.matches(":disabled")) return
      release()
      const enabled = new MutationObserver(() => {
        if (!left.isConnected) return release()
        if (left.matches(":disabled")) return
        release()
        // After the page's own effects have had their turn: a refusal that moves the focus to its field wins.
        setTimeout(() => {
          const lost = document.activeElement === null || document.activeElement === document.body
          if (lost && left.isConnected && !left.matches(":disabled")) left.focus()
        }, SETTLE_MS)
      })
      // A control is enabled again by its own attribute or by its fieldset's.
      enabled.observe(document.body, { attributes: true, attributeFilter: ["disabled"], subtree: true })
      const tookElsewhere = () => release()
      document.addEventListener("focusin", tookElsewhere)
      release = () => {
        enabled.disconnect()
        document.removeEventListener("focusin", tookElsewhere)
        release = () => {}
      }
    }
    document.addEventListener("focusout", onFocusOut)
    return () => {
      release()
      document.removeEventListener("focusout", onFocusOut)
    }
  }, [])
