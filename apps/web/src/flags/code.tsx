import { CopyButton } from "../ui/copy-button.tsx"
import { snippetsFor } from "./code-snippets.ts"
import { textOf } from "./draft.ts"
import type { Flag } from "./flag.tsx"
import { payloadLines, variantsOf } from "./release-words.ts"

/** The flag as the snippets need it: its key, its variants' keys, whether it has a payload. */
const snippetFlag = (flag: Flag) => ({
  key: flag.key,
  variants: variantsOf(flag.filters).map((variant) => textOf(variant["key"])),
  hasPayload: payloadLines(flag.filters).length > 0
})

/**
 * "Use in code": how to read the flag from posthog-js, posthog-node (local evaluation) and an embedding
 * application, each ready to copy, with the project's public token and this server's address (the
 * console is served by the server it speaks to) filled in.
 */
export const CodePanel = ({ flag, token }: { readonly flag: Flag; readonly token: string }) => (
  <section aria-labelledby="code-title">
    <h2 id="code-title">Use in code</h2>
    {snippetsFor(snippetFlag(flag), token, window.location.origin).map((snippet) => (
      <section key={snippet.id} aria-labelledby={`snippet-${snippet.id}`} className="snippet">
        <h3 id={`snippet-${snippet.id}`}>{snippet.title}</h3>
        <p className="hint">{snippet.about}</p>
        <pre tabIndex={0} aria-label={`${snippet.title}, code`}><code>{snippet.code}</code></pre>
        <CopyButton text={snippet.code} what={`${snippet.title} code`} />
      </section>
    ))}
  </section>
)
