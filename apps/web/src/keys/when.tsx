/** A moment the API gave, in the reader's own format; "Never" when it has not happened. */
export const When = ({ at }: { readonly at: string | null }) =>
  at === null ? <>Never</> : <time dateTime={at}>{new Date(at).toLocaleString()}</time>
