import { Link } from "../router/navigation.tsx"
import { usePageTitle } from "../ui/page-title.ts"

export default function NotFoundPage() {
  usePageTitle("Page not found")
  return (
    <>
      <h1>Page not found</h1>
      <p>The console has no page at this address.</p>
      <p><Link href="/">Go to the start page</Link></p>
    </>
  )
}
