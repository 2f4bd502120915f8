import { beforeAll, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { withTransaction } from "@/lib/db/sql";
import { performAction } from "@/lib/engine/run/perform-action";
import { engineTx } from "@/lib/engine/run/engine-tx";
import { queueTx } from "@/lib/engine/run/pipeline";
import { performRetirements } from "@/lib/engine/run/perform-action";
import { drainPipeline, drainUntil, engine } from "@/test/engine";
import { api } from "@/test/http";
import { classifiableProject, classificationBody, createSubjectSet, createWorkflow, signedInUser } from "@/test/factories";
import { collectionSubjectIds, createCollection } from "@/test/factories-collections";

// The engine's trust boundary between projects (lib/engine/run/boundary.ts): an editor of their own
// workflow names, in every engine input and effect, ids of another project, another user's private
// collection, another workflow's classification. Each row is refused (or, for an action already recorded,
// fails) and the other side's data is read back unchanged.

type Side = Awaited<ReturnType<typeof classifiableProject>>;
let attacker: Side;
let victim: Side;
let victimVolunteer: Awaited<ReturnType<typeof signedInUser>>;
let privateCollection: { id: number };
let victimSet: { id: number };
let victimClassificationId: number;
const FORWARDED_ID = 1_700_000_000;

/** Everything of the victim's that an attack could change, read back whole. */
async function victimState() {
  const q = async (sql: string, ...values: unknown[]) => (await pool().query(sql, values)).rows;
  return {
    extracts: await q(
      `SELECT id, classification_id, subject_id, user_id, extractor_key, data FROM extracts WHERE workflow_id = $1 ORDER BY id`,
      victim.workflow.id,
    ),
    forwarded: await q(`SELECT id, workflow_id, data FROM engine_classifications WHERE workflow_id = $1 ORDER BY id`, victim.workflow.id),
    reductions: await q(
      `SELECT id, subject_id, reducer_key, data FROM subject_reductions WHERE workflow_id = $1 ORDER BY id`,
      victim.workflow.id,
    ),
    collection: await collectionSubjectIds(privateCollection.id),
    set: (await q(`SELECT subject_id FROM set_member_subjects WHERE subject_set_id = $1 ORDER BY subject_id`, victimSet.id)).map(
      (r) => r.subject_id,
    ),
    preferences: await q(
      `SELECT project_id, settings FROM project_preferences WHERE user_id = $1 ORDER BY project_id`,
      victimVolunteer.user.id,
    ),
    statuses: await q(
      `SELECT subject_id, workflow_id, retired_at FROM subject_workflow_statuses WHERE subject_id = ANY($1::int[]) ORDER BY 1, 2`,
      victim.subjects.map((s) => s.id),
    ),
    cached: await q(
      `SELECT id, metadata FROM engine_subjects WHERE space = 0 AND id = ANY($1::int[]) ORDER BY 1`,
      victim.subjects.map((s) => s.id),
    ),
  };
}

/** The attacker's engine configuration: every extractor that could carry data out, and a rule that always fires. */
const attackerConfig = (then: object[] = [{ action: "retire_subject" }]) => ({
  id: attacker.workflow.id,
  extractors_config: {
    q: { type: "question", task_key: "T0" },
    meta: { type: "pluck_field", field_map: { secret: "$.subject.metadata" } },
  },
  reducers_config: { n: { type: "count" } },
  rules_config: [{ if: ["const", true], then }],
});

beforeAll(async () => {
  attacker = await classifiableProject(2);
  victim = await classifiableProject(2, { private: true });
  await db().subject.update({ where: { id: victim.subjects[0].id }, data: { metadata: { secret: "victim-only" } } });
  victimVolunteer = await signedInUser();
  privateCollection = await createCollection({ userId: victim.owner.user.id }, { private: true });
  victimSet = (await createSubjectSet(victim.project.id, 0)).set;
  // The victim's workflow is in the engine, with a classification through component A and a forwarded one.
  const put = await engine.post(
    "/workflows",
    {
      workflow: {
        id: victim.workflow.id,
        extractors_config: { q: { type: "question", task_key: "T0" } },
        reducers_config: { n: { type: "count" } },
        rules_config: [],
      },
    },
    victim.owner.token,
  );
  expect(put.status).toBe(201);
  await db().projectRole.create({ data: { projectId: victim.project.id, userId: victimVolunteer.user.id, roles: ["tester"] } });
  const created = await api.post("/classifications", classificationBody(victim.workflow, [victim.subjects[0].id]), {
    token: victimVolunteer.token,
  });
  expect(created.status).toBe(201);
  victimClassificationId = Number(created.body.classifications[0].id);
  const forwarded = await engine.post(
    "/classifications",
    {
      id: FORWARDED_ID,
      workflow_id: victim.workflow.id,
      subject_id: victim.subjects[1].id,
      annotations: { T0: [{ task: "T0", value: 1 }] },
    },
    victim.owner.token,
  );
  expect(forwarded.status).toBe(202);
  await drainUntil(async () => (await victimState()).extracts.length === 2);
  expect((await engine.post("/workflows", { workflow: attackerConfig() }, attacker.owner.token)).status).toBe(201);
});

/** A forwarded classification of the attacker's workflow, with overrides. */
const forward = (extra: Record<string, unknown>) => ({
  id: 1_600_000_000 + Math.floor(Math.random() * 1_000_000),
  workflow_id: attacker.workflow.id,
  subject_id: attacker.subjects[0].id,
  annotations: { T0: [{ task: "T0", value: 0 }] },
  ...extra,
});

describe("engine inputs name only the workflow's own project", () => {
  const refused: [string, () => Promise<{ status: number; body: unknown }>, RegExp][] = [
    [
      "a forwarded classification of another project's private subject",
      () => engine.post("/classifications", forward({ subject_id: victim.subjects[0].id }), attacker.owner.token),
      /subject \d+ is not a subject of workflow/,
    ],
    [
      "the same among subject_ids",
      () =>
        engine.post(
          "/classifications",
          forward({ subject_id: undefined, subject_ids: [attacker.subjects[0].id, victim.subjects[0].id] }),
          attacker.owner.token,
        ),
      /subject \d+ is not a subject of workflow/,
    ],
    [
      "a forwarded classification in a batch with one good one",
      () => engine.post("/classifications", [forward({}), forward({ subject_id: victim.subjects[1].id })], attacker.owner.token),
      /subject \d+ is not a subject of workflow/,
    ],
    [
      "a forwarded classification of a volunteer who never came near the project",
      () => engine.post("/classifications", forward({ user_id: victimVolunteer.user.id }), attacker.owner.token),
      /user \d+ is not a volunteer of workflow/,
    ],
    [
      "an extract of another project's subject",
      () =>
        engine.post(
          `/workflows/${attacker.workflow.id}/extractors/q/extracts`,
          { subject_id: victim.subjects[0].id, classification_id: victimClassificationId, data: { forged: 1 } },
          attacker.owner.token,
        ),
      /is not a (subject|classification) of workflow/,
    ],
    [
      "an extract naming another workflow's classification",
      () =>
        engine.post(
          `/workflows/${attacker.workflow.id}/extractors/q/extracts`,
          { subject_id: attacker.subjects[0].id, classification_id: victimClassificationId, data: { forged: 1 } },
          attacker.owner.token,
        ),
      /classification \d+ is not a classification of workflow/,
    ],
    [
      "an extract of a volunteer who never came near the project",
      () =>
        engine.post(
          `/workflows/${attacker.workflow.id}/extractors/q/extracts`,
          { subject_id: attacker.subjects[0].id, user_id: victimVolunteer.user.id, data: {} },
          attacker.owner.token,
        ),
      /user \d+ is not a volunteer of workflow/,
    ],
    [
      "a reduction of another project's subject",
      () =>
        engine.post(
          `/workflows/${attacker.workflow.id}/reducers/n/reductions?subject_id=${victim.subjects[0].id}`,
          { classifications: 9 },
          attacker.owner.token,
        ),
      /subject \d+ is not a subject of workflow/,
    ],
    [
      "a reduction of another project's subject, wrapped",
      () =>
        engine.post(
          `/workflows/${attacker.workflow.id}/reducers/n/reductions`,
          { subject_id: victim.subjects[1].id, data: { classifications: 9 } },
          attacker.owner.token,
        ),
      /subject \d+ is not a subject of workflow/,
    ],
  ];

  it.each(refused)("refuses %s (422), and nothing changes", async (_name, send, message) => {
    const before = await victimState();
    const ownBefore = await pool().query(`SELECT count(*)::int AS n FROM engine_classifications WHERE workflow_id = $1`, [
      attacker.workflow.id,
    ]);
    const res = await send();
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toMatch(message);
    await drainPipeline(2);
    expect(await victimState()).toEqual(before);
    const ownAfter = await pool().query(`SELECT count(*)::int AS n FROM engine_classifications WHERE workflow_id = $1`, [
      attacker.workflow.id,
    ]);
    expect(ownAfter.rows[0].n).toBe(ownBefore.rows[0].n);
  });

  it("a forwarded id another workflow uses is another classification: the other one is never touched", async () => {
    const before = await victimState();
    for (const id of [FORWARDED_ID, victimClassificationId]) {
      const res = await engine.post(
        "/classifications",
        forward({ id, subject_id: attacker.subjects[1].id, annotations: { T0: [{ task: "T0", value: 1 }] } }),
        attacker.owner.token,
      );
      expect(res.status).toBe(202);
    }
    await drainUntil(async () => {
      const { rows } = await pool().query(
        `SELECT count(*)::int AS n FROM extracts WHERE workflow_id = $1 AND classification_id = ANY($2::int[])`,
        [attacker.workflow.id, [FORWARDED_ID, victimClassificationId]],
      );
      return rows[0].n === 4;
    });
    // The victim's forwarded classification, extracts and reductions are as they were ...
    expect(await victimState()).toEqual(before);
    // ... and the attacker's extracts are of what the attacker sent: its own subject, not component A's classification.
    const { rows } = await pool().query(
      `SELECT classification_id, subject_id, extractor_key, data FROM extracts WHERE workflow_id = $1 AND classification_id = ANY($2::int[]) ORDER BY 1, 3`,
      [attacker.workflow.id, [FORWARDED_ID, victimClassificationId]],
    );
    for (const r of rows) expect(r.subject_id).toBe(attacker.subjects[1].id);
    expect(JSON.stringify(rows)).not.toContain("victim-only");
  });

  it("an extract upsert on one's own workflow never overwrites another workflow's extract", async () => {
    // The attacker's own classification with the victim's classification's id (now its own, forwarded above).
    const before = await victimState();
    const res = await engine.post(
      `/workflows/${attacker.workflow.id}/extractors/q/extracts`,
      { subject_id: attacker.subjects[1].id, classification_id: victimClassificationId, data: { forged: 1 } },
      attacker.owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ workflow_id: attacker.workflow.id, data: { forged: 1 } });
    await drainPipeline(2);
    expect(await victimState()).toEqual(before);
  });

  it("a forwarded classification stored before these checks, naming a foreign subject, is skipped: nothing is extracted", async () => {
    const id = 1_650_000_000;
    await withTransaction(async (client) => {
      await client.query(`INSERT INTO engine_classifications (id, workflow_id, data) VALUES ($1, $2, $3)`, [
        id,
        attacker.workflow.id,
        JSON.stringify(forward({ id, subject_id: victim.subjects[0].id })),
      ]);
      await client.query(`INSERT INTO engine_inbox (classification_id, workflow_id) VALUES ($1, $2)`, [id, attacker.workflow.id]);
    });
    await drainPipeline(2);
    const { rows } = await pool().query(`SELECT data FROM extracts WHERE workflow_id = $1 AND classification_id = $2`, [
      attacker.workflow.id,
      id,
    ]);
    expect(rows).toEqual([]);
  });
});

describe("effects act only within the workflow's project", () => {
  const foreignEffects = (): [string, object, RegExp][] => [
    [
      "another user's private collection",
      { action: "add_subject_to_collection", collection_id: String(privateCollection.id) },
      /collection \d+ is not a collection/,
    ],
    [
      "another project's subject set",
      { action: "add_subject_to_set", subject_set_id: String(victimSet.id) },
      /subject set \d+ is not a subject set of this project/,
    ],
    [
      "another project's workflow",
      { action: "promote_user", workflow_id: String(victim.workflow.id) },
      /workflow \d+ is not a workflow of this project/,
    ],
  ];

  it("refuses each foreign target when a configuration is saved: whole, by PUT, and effect by effect", async () => {
    const rules = await engine.get(`/workflows/${attacker.workflow.id}/subject_rules`, attacker.owner.token);
    const ruleId = rules.body[0].id;
    const stored = (await engine.get(`/workflows/${attacker.workflow.id}`, attacker.owner.token)).body.rules_config;
    for (const [name, effect, message] of foreignEffects()) {
      const topic = (effect as { action: string }).action === "promote_user" ? "user" : "subject";
      const rule = { topic, if: ["const", true], then: [effect] };
      const attempts = [
        await engine.put(`/workflows/${attacker.workflow.id}`, { workflow: { rules_config: [...stored, rule] } }, attacker.owner.token),
        ...(topic === "subject"
          ? [
              await engine.post(
                `/workflows/${attacker.workflow.id}/subject_rules/${ruleId}/subject_rule_effects`,
                { subject_rule_effect: { action: (effect as { action: string }).action, config: effect } },
                attacker.owner.token,
              ),
            ]
          : []),
      ];
      for (const res of attempts) {
        expect(res.status, name).toBe(422);
        expect(JSON.stringify(res.body), name).toMatch(message);
      }
    }
    expect((await engine.get(`/workflows/${attacker.workflow.id}`, attacker.owner.token)).body.rules_config).toEqual(stored);
    // A new workflow's configuration is refused the same way.
    const fresh = await createWorkflow(attacker.project.id);
    for (const [name, effect] of foreignEffects()) {
      const topic = (effect as { action: string }).action === "promote_user" ? "user" : "subject";
      const res = await engine.post(
        "/workflows",
        {
          workflow: {
            id: fresh.id,
            extractors_config: {},
            reducers_config: {},
            rules_config: [{ topic, if: ["const", true], then: [effect] }],
          },
        },
        attacker.owner.token,
      );
      expect(res.status, name).toBe(422);
    }
    expect(await db().engineWorkflow.findUnique({ where: { id: fresh.id } })).toBeNull();
  });

  it("allows targets of the project and the saver's own collection", async () => {
    const own = await createCollection({ userId: attacker.owner.user.id }, { private: true });
    const ownSet = (await createSubjectSet(attacker.project.id, 0)).set;
    const other = await createWorkflow(attacker.project.id);
    const res = await engine.put(
      `/workflows/${attacker.workflow.id}`,
      {
        workflow: {
          rules_config: [
            {
              if: ["const", true],
              then: [
                { action: "add_subject_to_collection", collection_id: String(own.id) },
                { action: "add_subject_to_set", subject_set_id: String(ownSet.id) },
              ],
            },
            { topic: "user", if: ["const", true], then: [{ action: "promote_user", workflow_id: String(other.id) }] },
          ],
        },
      },
      attacker.owner.token,
    );
    expect(res.status).toBe(200);
    // Restore the plain configuration for the other tests.
    expect((await engine.put(`/workflows/${attacker.workflow.id}`, { workflow: attackerConfig() }, attacker.owner.token)).status).toBe(200);
  });

  /** Records a pending action directly, as a configuration saved before these checks (or a forged reduction) would have. */
  async function recordAction(a: {
    topic: "subject" | "user";
    subject_id?: number;
    user_id?: number;
    effect_type: string;
    config: object;
  }) {
    const { rows } = await pool().query<{ id: number }>(
      `INSERT INTO engine_actions (workflow_id, dedupe_key, topic, subject_id, user_id, effect_type, config, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending') RETURNING id`,
      [
        attacker.workflow.id,
        `test-${Math.random()}`,
        a.topic,
        a.subject_id ?? null,
        a.user_id ?? null,
        a.effect_type,
        JSON.stringify(a.config),
      ],
    );
    return rows[0].id;
  }

  const actions = (): [string, Parameters<typeof recordAction>[0], RegExp][] => [
    [
      "retire another project's subject",
      { topic: "subject", subject_id: victim.subjects[0].id, effect_type: "retire_subject", config: { action: "retire_subject" } },
      /subject \d+ is not a subject/,
    ],
    [
      "add another project's subject to one's own set",
      {
        topic: "subject",
        subject_id: victim.subjects[0].id,
        effect_type: "add_subject_to_set",
        config: { subject_set_id: String(attacker.set.id) },
      },
      /subject \d+ is not a subject/,
    ],
    [
      "add one's own subject to another user's private collection",
      {
        topic: "subject",
        subject_id: attacker.subjects[0].id,
        effect_type: "add_subject_to_collection",
        config: { collection_id: String(privateCollection.id) },
      },
      /collection \d+ is not a collection/,
    ],
    [
      "add one's own subject to another project's set",
      {
        topic: "subject",
        subject_id: attacker.subjects[0].id,
        effect_type: "add_subject_to_set",
        config: { subject_set_id: String(victimSet.id) },
      },
      /subject set \d+ is not a subject set/,
    ],
    [
      "promote a volunteer of another project onto its workflow",
      { topic: "user", user_id: victimVolunteer.user.id, effect_type: "promote_user", config: { workflow_id: String(victim.workflow.id) } },
      /user \d+ is not a volunteer/,
    ],
    [
      "promote one's own volunteer onto another project's workflow",
      { topic: "user", user_id: attacker.owner.user.id, effect_type: "promote_user", config: { workflow_id: String(victim.workflow.id) } },
      /workflow \d+ is not a workflow/,
    ],
  ];

  it("fails an action whose target is outside the project when it runs, and changes nothing", async () => {
    for (const [name, action, message] of actions()) {
      const before = await victimState();
      const id = await recordAction(action);
      await performAction(queueTx, id);
      const { rows } = await pool().query(`SELECT status, error FROM engine_actions WHERE id = $1`, [id]);
      expect(rows[0].status, name).toBe("failed");
      expect(rows[0].error, name).toMatch(message);
      expect(await victimState(), name).toEqual(before);
    }
  });

  it("the batch of retirements leaves out a foreign subject (which then fails on its own)", async () => {
    const before = await victimState();
    const foreign = await recordAction(actions()[0][1]);
    const own = await recordAction({ topic: "subject", subject_id: attacker.subjects[1].id, effect_type: "retire_subject", config: {} });
    const done = await withTransaction(async (client) => {
      const tx = engineTx(client);
      const performed = await performRetirements(tx, [foreign, own]);
      await tx.retired.flush(tx);
      return performed;
    });
    expect([...done]).toEqual([own]);
    expect(await victimState()).toEqual(before);
  });
});

describe("a workflow without a project keeps its subjects apart from component A's", () => {
  it("describes its subjects by what its forwarder sent, never by component A's subject of the same id, and acts only by calling out", async () => {
    const admin = await signedInUser({ admin: true });
    const externalId = 1_999_000_000 + Math.floor(Math.random() * 100_000);
    const config = {
      id: externalId,
      extractors_config: { meta: { type: "pluck_field", field_map: { m: "$.subject.metadata" } } },
      reducers_config: {},
      rules_config: [],
    };
    expect((await engine.post("/workflows", { workflow: config }, admin.token)).status).toBe(201);
    // Effects on this platform's records make no sense there.
    const retiring = await engine.put(
      `/workflows/${externalId}`,
      { workflow: { rules_config: [{ if: ["const", true], then: [{ action: "retire_subject" }] }] } },
      admin.token,
    );
    expect(retiring.status).toBe(422);
    const before = await victimState();
    const res = await engine.post(
      "/classifications",
      {
        id: 42,
        workflow_id: externalId,
        subject_id: victim.subjects[0].id,
        subject: { id: victim.subjects[0].id, metadata: { secret: "forged" } },
        annotations: {},
      },
      admin.token,
    );
    expect(res.status).toBe(202);
    await drainUntil(async () => (await pool().query(`SELECT 1 FROM extracts WHERE workflow_id = $1`, [externalId])).rowCount === 1);
    const { rows } = await pool().query(`SELECT data FROM extracts WHERE workflow_id = $1`, [externalId]);
    expect(rows[0].data).toEqual({ m: { secret: "forged" } });
    // Component A's cached metadata of the subject with that id is untouched.
    expect(await victimState()).toEqual(before);
  });
});
