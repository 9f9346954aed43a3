/**
 * A moment the API gave, in the reader's own format: with its time of day, or the day alone (`dateOnly`,
 * for a list's column); `never` (by default "Never") when it has not happened.
 */
export const When = ({ at, dateOnly = false, never = "Never" }: {
  readonly at: string | null
  readonly dateOnly?: boolean
  readonly never?: string
}) => at === null ? <>{never}</> : <time dateTime={at}>{dateOnly ? new Date(at).toLocaleDateString() : new Date(at).toLocaleString()}</time>
