import { Command } from "effect/cli"
import { backup, restore } from "../admin/backup.ts"
import { batchExports } from "../admin/batch-exports.ts"
import { bootstrap } from "../admin/bootstrap.ts"
import { keys } from "../admin/keys.ts"
import { members } from "../admin/members.ts"
import { migrateToPostgres } from "../admin/migrate-to-postgres.ts"
import { orgs } from "../admin/orgs.ts"
import { roles } from "../admin/roles.ts"
import { users } from "../admin/users.ts"

export const admin = Command.make("admin").pipe(
  Command.withDescription(
    "Operator commands, run in this process on the store: on PostgreSQL (--database-url) beside running servers; " +
      "on a data directory, stop the server first (it holds the directory's lock), but to back it up, which the server does itself"
  ),
  Command.withSubcommands([bootstrap, orgs, users, members, keys, roles, batchExports, backup, restore, migrateToPostgres])
)
