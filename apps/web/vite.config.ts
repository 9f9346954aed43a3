import { readFile, writeFile } from "node:fs/promises"
import * as path from "node:path"
import { gzip } from "node:zlib"
import { promisify } from "node:util"
import { defaultClientConditions, defineConfig, type Plugin } from "vite"

const gzipped = promisify(gzip)

/** Files worth compressing; images and fonts come compressed already. */
const COMPRESSIBLE = /\.(?:js|css|svg|json)$/

/**
 * Writes a `.gz` beside each compressible asset, at the highest level, once at build time: the server
 * sends it to a browser that accepts gzip, and compresses nothing per request.
 */
const precompress = (): Plugin => {
  let outDir = ""
  return {
    name: "hedgerow-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    async writeBundle(_options, bundle) {
      await Promise.all(Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name)).map(async (name) => {
        const file = path.join(outDir, name)
        await writeFile(`${file}.gz`, await gzipped(await readFile(file), { level: 9 }))
      }))
    }
  }
}

export default defineConfig({
  // Absolute asset URLs, so that a deep link such as /project/1 loads them from /assets/.
  base: "/",
  oxc: { jsx: { runtime: "automatic" } },
  plugins: [precompress()],
  // The workspace's packages by their sources, as typechecks and tests read them: the console imports
  // their types alone, and at run time only the files core exports for it, which import nothing.
  resolve: { conditions: ["@hedgerow/source", ...defaultClientConditions] },
  build: {
    outDir: "dist",
    assetsDir: "assets",
    target: "es2022",
    // Every browser the console supports preloads modules itself.
    modulePreload: { polyfill: false },
    reportCompressedSize: false
  }
})
