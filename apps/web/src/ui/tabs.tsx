import { Link } from "../router/navigation.tsx"

/**
 * A page's sections as links along a line, the one in view marked: each is a URL of its own, so a
 * section can be reloaded, shared or opened in a new tab.
 */
export const Tabs = ({ label, tabs }: {
  /** The navigation's name, for a screen reader's list of landmarks. */
  readonly label: string
  readonly tabs: ReadonlyArray<{ readonly href: string; readonly words: string; readonly current: boolean }>
}) => (
  <nav aria-label={label} className="tabs">
    {tabs.map(({ href, words, current }) => (
      <Link key={href} href={href} aria-current={current ? "page" : undefined}>{words}</Link>
    ))}
  </nav>
)
