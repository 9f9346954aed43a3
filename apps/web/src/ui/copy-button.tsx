import { useState } from "react"

/**
 * "Copy" beside the text it copies, named in full for a screen reader ("Copy" and `what`), as several
 * may stand on one page. Says it copied (politely announced), or that the browser refused.
 */
export const CopyButton = ({ text, what }: {
  readonly text: string
  /** What is copied: "invite link for ada@example.com". */
  readonly what: string
}) => {
  const [outcome, setOutcome] = useState<"copied" | "refused" | undefined>(undefined)
  const copy = () =>
    navigator.clipboard.writeText(text).then(() => setOutcome("copied"), () => setOutcome("refused"))
  return (
    <>
      <button type="button" className="copy" onClick={copy}>Copy<span className="visually-hidden"> {what}</span></button>
      <span role="status" className="copy-outcome">
        {outcome === "copied" ? "Copied." : outcome === "refused" ? "The browser did not allow copying; select the text instead." : ""}
      </span>
    </>
  )
}
