import { describe, expect, it } from "vitest";
import { pool } from "@/lib/db";
import { api } from "@/test/http";
import { createSubjectSet, signedInUser } from "@/test/factories";

// The established front end's classifier relates records of different types that share an id (its store
// re-fetched a tutorial without end when the first tutorial and the first workflow were both id 1). The
// records it keeps together take their ids from one sequence: a new one never has another kind's id.

const TABLES = [
  "projects",
  "organizations",
  "workflows",
  "subject_sets",
  "subjects",
  "project_preferences",
  "collections",
  "project_pages",
  "field_guides",
  "tutorials",
  "media",
];

describe("record ids", () => {
  it("every table the front end keeps together draws its ids from the one sequence", async () => {
    const { rows } = await pool().query<{ table_name: string; column_default: string }>(
      `SELECT table_name, column_default FROM information_schema.columns WHERE column_name = 'id' AND table_name = ANY($1::text[])`,
      [TABLES],
    );
    expect(rows.map((r) => r.table_name).sort()).toEqual([...TABLES].sort());
    for (const r of rows) expect(r.column_default, r.table_name).toBe("nextval('record_ids'::regclass)");
  });

  it("a new project's project, workflow, tutorial, field guide, subject set and subjects all have different ids", async () => {
    const owner = await signedInUser();
    const project = await api.post(
      "/projects",
      { projects: { display_name: `Ids ${Date.now()}`, primary_language: "en" } },
      { token: owner.token },
    );
    expect(project.status, project.text).toBe(201);
    const projectId = project.body.projects[0].id;
    const links = { project: projectId };
    const workflow = await api.post(
      "/workflows",
      { workflows: { display_name: "W", primary_language: "en", tasks: {}, first_task: "", links } },
      { token: owner.token },
    );
    expect(workflow.status, workflow.text).toBe(201);
    const tutorial = await api.post("/tutorials", { tutorials: { steps: [], language: "en", links } }, { token: owner.token });
    expect(tutorial.status, tutorial.text).toBe(201);
    const guide = await api.post("/field_guides", { field_guides: { items: [], language: "en", links } }, { token: owner.token });
    expect(guide.status, guide.text).toBe(201);
    const { set, subjects } = await createSubjectSet(Number(projectId), 3);
    const ids = [
      projectId,
      workflow.body.workflows[0].id,
      tutorial.body.tutorials[0].id,
      guide.body.field_guides[0].id,
      set.id,
      ...subjects.map((s) => s.id),
    ].map(Number);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("no id is shared by two kinds of record anywhere in the database", async () => {
    const union = TABLES.map((t) => `SELECT id FROM ${t}`).join(" UNION ALL ");
    const { rows } = await pool().query(`SELECT id, count(*)::int AS n FROM (${union}) x GROUP BY id HAVING count(*) > 1 LIMIT 5`);
    expect(rows).toEqual([]);
  });
});
