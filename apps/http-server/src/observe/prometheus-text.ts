/**
 * Prometheus's text exposition format (version 0.0.4): a family is a `# HELP` and a `# TYPE` line, then
 * one line per series, `name{label="value",...} number`.
 */

/** A label's value with the three characters the format escapes escaped. */
export const labelValue = (value: string): string =>
  value.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll("\"", "\\\"")

/** `{a="x",b="y"}` for the pairs given, or nothing for none. */
export const labels = (pairs: ReadonlyArray<readonly [string, string]>): string =>
  pairs.length === 0 ? "" : `{${pairs.map(([name, value]) => `${name}="${labelValue(value)}"`).join(",")}}`

/** A number as the format writes it (`+Inf`, `-Inf`, `NaN` for the special ones). */
export const numberText = (value: number): string =>
  Number.isNaN(value) ? "NaN" : value === Infinity ? "+Inf" : value === -Infinity ? "-Inf" : String(value)

/** The two lines that open a family. */
export const family = (name: string, type: "counter" | "gauge" | "histogram", help: string): string =>
  `# HELP ${name} ${help.replaceAll("\\", "\\\\").replaceAll("\n", "\\n")}\n# TYPE ${name} ${type}\n`

/** One series' line. */
export const sample = (name: string, pairs: ReadonlyArray<readonly [string, string]>, value: number): string =>
  `${name}${labels(pairs)} ${numberText(value)}\n`

/** The content type a scrape is answered with. */
export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
