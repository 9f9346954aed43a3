#!/usr/bin/env node
// The workspace ships TypeScript source, not a build: tsx compiles it on the fly so the
// command works straight after `npm install`.
import { register } from "tsx/esm/api"

register()
await import("../src/main.ts")
