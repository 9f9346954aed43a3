import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import type { Flag } from "./flag.tsx"
import { patchFlag } from "./patch.ts"

/**
 * A flag's on/off switch in a list. Turning it on is done at once; turning it off is asked about first,
 * since everyone then gets the flag's default. A flag the caller may not edit (`can_edit` false) shows its
 * state as words, with no switch. `onChanged` has the flag as the API then holds it.
 */
export const ActiveSwitch = ({ projectId, flag, onChanged }: {
  readonly projectId: string
  readonly flag: Flag
  readonly onChanged: (flag: Flag) => void
}) => {
  const words = flag.active ? "On" : "Off"
  if (!flag.can_edit) return <span className="switch-state">{words}</span>
  return (
    <ConfirmDialog
      ask={flag.active}
      button={{ role: "switch", "aria-checked": flag.active, "aria-label": `Enabled: ${flag.key}`, className: "toggle" }}
      label={
        <>
          <span className="toggle-track" aria-hidden="true" />
          <span aria-hidden="true">{words}</span>
        </>
      }
      title={`Turn off ${flag.key}?`}
      confirmLabel="Turn off"
      action={() => patchFlag(projectId, flag, { active: !flag.active })}
      onDone={onChanged}
    >
      <p>Everyone will get the flag's default (false) until it is turned on again.</p>
    </ConfirmDialog>
  )
}
