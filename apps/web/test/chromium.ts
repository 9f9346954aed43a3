import { existsSync } from "node:fs"
import { type Browser, chromium } from "playwright-core"

/**
 * Debian's Chromium, which `.ci/run` installs when it is absent (Playwright's own browser download cannot
 * work here); HEDGEROW_CHROMIUM names another binary.
 */
export const CHROMIUM = process.env["HEDGEROW_CHROMIUM"] ?? "/usr/bin/chromium"

/** `args`: more command-line switches for the browser. */
export const launchChromium = (args: ReadonlyArray<string> = []): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium, as .ci/run does) or set HEDGEROW_CHROMIUM`)
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...args] })
}
