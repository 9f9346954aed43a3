import { useState } from "react"
import { asApiError } from "../api/client.ts"
import { Confirmation, useConfirmation } from "../ui/confirm-dialog.tsx"
import { SwitchButton } from "../ui/switch-button.tsx"
import type { Flag } from "./flag.tsx"
import { patchFlag } from "./patch.ts"

/**
 * A flag's on/off switch in a list. Turning it on is done at once, a refusal shown beside it; turning it
 * off is asked about first, since everyone then gets the flag's default. A flag the caller may not edit
 * (`can_edit` false) shows its state as words, with no switch. `onChanged` has the flag as the API then
 * holds it.
 */
export const ActiveSwitch = ({ projectId, flag, onChanged }: {
  readonly projectId: string
  readonly flag: Flag
  readonly onChanged: (flag: Flag) => void
}) => {
  const { refs, open } = useConfirmation()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const words = flag.active ? "On" : "Off"
  if (!flag.can_edit) return <span className="switch-state">{words}</span>
  const change = () => patchFlag(projectId, flag, { active: !flag.active })
  const askFirst = () => {
    setError(undefined)
    open()
  }
  const turnOn = () => {
    if (busy) return
    setBusy(true)
    setError(undefined)
    change().then(onChanged, (cause: unknown) => setError(asApiError(cause).detail)).finally(() => setBusy(false))
  }
  return (
    <>
      <SwitchButton on={flag.active} label={`Enabled: ${flag.key}`} onClick={flag.active ? askFirst : turnOn}>
        <span aria-hidden="true">{words}</span>
      </SwitchButton>
      {error === undefined ? null : <span role="alert" className="inline-error">{error}</span>}
      <Confirmation refs={refs} title={`Turn off ${flag.key}?`} confirmLabel="Turn off" action={change} onDone={onChanged}>
        <p>Everyone will get the flag's default (false) until it is turned on again.</p>
      </Confirmation>
    </>
  )
}
