import { activityCommand } from "./activity.ts"

export const activity = activityCommand({
  item: "flag",
  description: "Activity log of one flag or of every flag of the project, newest first",
  ofProject: (client, project, query) => client.featureFlags.projectActivity({ params: { project_id: project }, query }),
  ofItem: (client, project, id, query) => client.featureFlags.activity({ params: { project_id: project, id }, query })
})
