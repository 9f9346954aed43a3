import { useState } from "react"

/** Copies `text` to the clipboard and says so (politely announced); says so too when the browser refuses. */
export const CopyButton = ({ text, label }: { readonly text: string; readonly label: string }) => {
  const [outcome, setOutcome] = useState<"copied" | "refused" | undefined>(undefined)
  const copy = () =>
    navigator.clipboard.writeText(text).then(() => setOutcome("copied"), () => setOutcome("refused"))
  return (
    <>
      <button type="button" onClick={copy}>{label}</button>
      <span role="status" className="copy-outcome">
        {outcome === "copied" ? "Copied." : outcome === "refused" ? "The browser did not allow copying; select the text instead." : ""}
      </span>
    </>
  )
}
