import { activityCommand } from "./activity.ts"
import { flag } from "./flags-resource.ts"

export const activity = activityCommand(flag, {
  description: "Activity log of one flag or of every flag of the project, newest first",
  ofProject: (client, at, query) => client.featureFlags.projectActivity({ params: at, query }),
  ofItem: (client, at, id, query) => client.featureFlags.activity({ params: { ...at, id }, query })
})
