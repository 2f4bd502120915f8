/** What an actor may be allowed to do to a record it can see (ResourceDef.can, the policies' rules). */
export type Action = "show" | "update" | "destroy";
