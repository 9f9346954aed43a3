// Run by the package's build once tsc has compiled it: writes dist/empty-store/ (sql/empty-store.ts).
import { Effect } from "effect"
import { fileURLToPath } from "node:url"
import { writeEmptyStore } from "../sql/write-empty-store.ts"

await Effect.runPromise(writeEmptyStore(fileURLToPath(new URL("../empty-store/", import.meta.url))))
