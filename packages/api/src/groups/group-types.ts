import { GroupTypeCreate, GroupTypeDefaultColumns, GroupTypeMetadataRow, GroupTypeView } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"

const ProjectParam = { project_id: Schema.String }
const GroupTypeParams = { ...ProjectParam, group_type_index: Schema.String }

/** `/api/projects/{project_id}/groups_types/`: the names a project's group types go by, at indexes 0-4. */
export class GroupTypesGroup extends HttpApiGroup.make("groupTypes")
  .add(
    HttpApiEndpoint.get("list", "/api/projects/:project_id/groups_types/", {
      params: ProjectParam,
      success: Schema.Array(GroupTypeView),
      error: ReadErrors
    }).annotate(OpenApi.Description, "The project's group types by index, as a plain list (scope group:read)"),
    HttpApiEndpoint.post("create", "/api/projects/:project_id/groups_types/", {
      params: ProjectParam,
      payload: GroupTypeCreate,
      success: GroupTypeView.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Add a group type by name at the lowest free index, so that flags can target it before any event names it; a name the project has, or a sixth group type, is refused (scope group:write)"
    ),
    HttpApiEndpoint.patch("updateMetadata", "/api/projects/:project_id/groups_types/update_metadata/", {
      params: ProjectParam,
      payload: Schema.Array(GroupTypeMetadataRow),
      success: Schema.Array(GroupTypeView),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Set display names: a list of `{group_type_index, name_singular?, name_plural?}`, written together or not at all; answers every group type (scope group:write)"
    ),
    HttpApiEndpoint.put("setDefaultColumns", "/api/projects/:project_id/groups_types/set_default_columns/", {
      params: ProjectParam,
      payload: GroupTypeDefaultColumns,
      success: GroupTypeView,
      error: WriteErrors
    }).annotate(OpenApi.Description, "Set the columns a group type's list shows by default, or null (scope group:write)"),
    HttpApiEndpoint.delete("destroy", "/api/projects/:project_id/groups_types/:group_type_index/", {
      params: GroupTypeParams,
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      "Delete a group type; its index is free again. Flags on the index are kept, and evaluate off until a group type holds it (scope group:write)"
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Group types" }))
{}
