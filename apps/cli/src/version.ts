/** The CLI's version, as `hedgerow --version` prints it. */
export const VERSION = "0.1.0"
