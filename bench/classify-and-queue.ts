// npm run bench:classify — 1,000,000 subjects in 10 sets; queue requests for volunteers with long seen
// histories, and classification creates under concurrency, through the real route handlers. Prints JSON.
// Sizes: BENCH_SUBJECTS (default 1000000), BENCH_SEEN (seen subjects per heavy user, default 20000).
import { classificationBody, loadClassifyDataset } from "./classify-dataset";
import { benchDatabase, load, summarize } from "./lib";

const SUBJECTS = Number(process.env.BENCH_SUBJECTS ?? 1_000_000);
const SETS = 10;
const SEEN = Number(process.env.BENCH_SEEN ?? 20_000);
const HEAVY_USERS = 20;
const QUEUE_REQUESTS = Number(process.env.BENCH_QUEUE_REQUESTS ?? 2000);
const CREATES = Number(process.env.BENCH_CREATES ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

const database = await benchDatabase();
const { pool, closeDb } = await import("../lib/db");
const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
const { GET: queued } = await import("../app/api/subjects/queued/route");
const { POST: createClassification } = await import("../app/api/classifications/route");
await ensureBootstrapRecords();
const sql = pool();

const dataset = await loadClassifyDataset(sql, { subjects: SUBJECTS, seen: SEEN, sets: SETS, heavyUsers: HEAVY_USERS });
const { workflow, subjects: subjectCount, generationSeconds, tokens, heavyTokens } = dataset;
const headers = (token: string) => ({
  accept: "application/vnd.api+json; version=1",
  "content-type": "application/json",
  authorization: `Bearer ${token}`,
});
const params = { params: Promise.resolve({}) };

// Warm up connections and caches.
for (let i = 0; i < 20; i++)
  await queued(new Request(`http://bench/api/subjects/queued?workflow_id=${workflow}`, { headers: headers(heavyTokens[0]) }), params);

const queue = await load(QUEUE_REQUESTS, 1, async (i) => {
  const res = await queued(
    new Request(`http://bench/api/subjects/queued?workflow_id=${workflow}`, { headers: headers(heavyTokens[i % heavyTokens.length]) }),
    params,
  );
  if (res.status !== 200) throw new Error(`queue ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
});
const queueConcurrent = await load(QUEUE_REQUESTS, CONCURRENCY, async (i) => {
  const res = await queued(
    new Request(`http://bench/api/subjects/queued?workflow_id=${workflow}`, { headers: headers(heavyTokens[i % heavyTokens.length]) }),
    params,
  );
  if (res.status !== 200) throw new Error(`queue ${res.status}`);
  await res.arrayBuffer();
});

const creates = await load(CREATES, CONCURRENCY, async (i) => {
  const body = classificationBody(dataset, i);
  const res = await createClassification(
    new Request("http://bench/api/classifications", {
      method: "POST",
      headers: headers(tokens[i % tokens.length]),
      body: JSON.stringify(body),
    }),
    params,
  );
  if (res.status !== 201) throw new Error(`create ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
});

console.log(
  JSON.stringify(
    {
      benchmark: "classify-and-queue",
      subjects: subjectCount,
      subject_sets: SETS,
      seen_per_heavy_user: SEEN,
      retired_fraction: 0.1,
      data_generation_s: generationSeconds,
      queue_sequential: summarize(queue.latencies, queue.wallMs),
      queue_concurrent: { concurrency: CONCURRENCY, ...summarize(queueConcurrent.latencies, queueConcurrent.wallMs) },
      classification_create: { concurrency: CONCURRENCY, ...summarize(creates.latencies, creates.wallMs) },
    },
    null,
    2,
  ),
);
await closeDb();
await database.stop();
process.exit(0);
