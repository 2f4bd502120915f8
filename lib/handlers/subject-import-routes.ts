import crypto from "node:crypto";
import { Readable } from "node:stream";
import { db, pool } from "@/lib/db";
import { subjectLimitReached, uploadStanding } from "@/lib/domain/subject-limit";
import { startBackgroundJob } from "@/lib/domain/background-jobs";
import { type ImportParams, SUBJECT_IMPORT } from "@/lib/domain/import-subjects";
import { env } from "@/lib/env";
import { AppError, unauthorized, unprocessable } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { findVisible } from "@/lib/http/resource-routes";
import { requireEditableProject } from "@/lib/policies/require-editable-project";
import { subjectSets } from "@/lib/resources/subject-sets";
import { storage } from "@/lib/storage/storage";
import { parsePathId } from "@/lib/text/params";
import { jobCreatedResponse } from "./job-created";

/** POST /api/subject_sets/<id>/imports[?base_url=]: stores the CSV body and starts the import (201, the job). */
export const startSubjectImport = apiRoute({ scope: "project", alsoAccepts: /^text\/csv\b/i }, async (ctx) => {
  const actor = await ctx.actor();
  if (!actor.user) throw unauthorized("You must be signed in to do that");
  if (!/^text\/csv\b/i.test(ctx.req.headers.get("content-type") ?? ""))
    throw new AppError("unsupported_media_type", "Send the manifest as the request body with Content-Type: text/csv");
  const baseUrl = ctx.url.searchParams.get("base_url");
  if (baseUrl !== null && !/^https?:\/\/[^\s]+$/i.test(baseUrl)) throw unprocessable("base_url must be an http(s) URL");
  const set = await findVisible(subjectSets, parsePathId(ctx.params.id, "subject_sets"), actor);
  await db().$transaction((tx) => requireEditableProject(tx, actor, set.projectId, "subject_set"));
  // An account already at its subject limit is refused before its file is stored (the job checks the rest).
  const standing = await uploadStanding(pool(), actor.user.id);
  if (standing && standing.uploaded >= standing.limit) throw await subjectLimitReached(pool(), actor.user.id);
  const max = env().IMPORT_MAX_BYTES;
  if (Number(ctx.req.headers.get("content-length") ?? 0) > max)
    throw new AppError("too_large", `The manifest is larger than the limit of ${max} bytes`);
  if (!ctx.req.body) throw unprocessable("The request body (the CSV manifest) is empty");
  const key = `imports/${set.id}-${crypto.randomUUID()}.csv`;
  const { size } = await storage().putObject(key, Readable.fromWeb(ctx.req.body as never), { contentType: "text/csv", maxBytes: max });
  if (size === 0) {
    await storage().deleteObject(key);
    throw unprocessable("The request body (the CSV manifest) is empty");
  }
  try {
    const params: ImportParams = {
      subject_set_id: set.id,
      source_key: key,
      base_url: baseUrl ? (baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`) : null,
    };
    const job = await db().$transaction((tx) => startBackgroundJob(tx, actor, SUBJECT_IMPORT, set.projectId, { ...params }));
    return jobCreatedResponse(ctx, job);
  } catch (err) {
    await storage().deleteObject(key);
    throw err;
  }
});
