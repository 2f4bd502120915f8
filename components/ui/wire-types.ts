// The records our pages read from the server, as the wire carries them: each type is what the server
// function that writes the answer returns (its serializer, or the row type its query is read into), through
// Wire<> (what JSON makes of it). So a change to a serializer that breaks a page breaks `tsc`, and nothing
// here is written twice. The imports are type-only: they are erased, so no server module reaches the bundle
// (`npm run lint:deps` refuses a value import of one from components/). One declaration each, for every
// component that reads one.
import type { CountsResult } from "@/lib/counts/classification-counts";
import type { dryRunAnswer } from "@/lib/engine/dry-run";
import type { EngineActionRow, WorkflowReductionRow } from "@/lib/engine/http/engine-routes";
import type { serializeEngineWorkflow } from "@/lib/engine/run/workflow-config";
import type { pageMeta } from "@/lib/http/jsonapi";
import type { serializeAggregation } from "@/lib/resources/aggregations";
import type { presentBackgroundJob, serializeExportMedium } from "@/lib/resources/background-jobs";
import type { serializeClassification } from "@/lib/resources/classifications";
import type { withView } from "@/lib/resources/collections";
import type { serializeFieldGuide } from "@/lib/resources/field-guides";
import type { serializeMedium } from "@/lib/resources/media";
import type { serializePage } from "@/lib/resources/pages";
import type { serializeProjectPreference } from "@/lib/resources/project-preferences";
import type { serializeProjectRole } from "@/lib/resources/project-roles";
import type { serializeProject } from "@/lib/resources/projects";
import type { serializeSubjectSet } from "@/lib/resources/subject-sets";
import type { serializeSubjectWorkflowStatus } from "@/lib/resources/subject-workflow-statuses";
import type { serializeQueuedSubject, serializeSubject } from "@/lib/resources/subjects";
import type { serializeTranslation } from "@/lib/resources/translations";
import type { serializeTutorial } from "@/lib/resources/tutorials";
import type { serializeFullUser, serializeUser } from "@/lib/resources/users";
import type { serializeWorkflow } from "@/lib/resources/workflows";

/** What JSON.stringify makes of a value the server answers: its Dates become ISO strings, all the way down. */
type Wire<T> = T extends Date ? string : T extends readonly (infer U)[] ? Wire<U>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;

/** The wire record of a serializer: what it returns, as JSON carries it. */
type Serialized<F extends (...args: never[]) => unknown> = Wire<Awaited<ReturnType<F>>>;

// ---- the JSON-API (/api): `{"<type>": [records], "meta": {"<type>": {paging}}}` (lib/http/resource-routes.ts) ----

/** An answer of the JSON-API: its records under their type's name. */
export type Records<K extends string, T> = { [P in K]: T[] };
/** A page of a list: the records and the list's paging (lib/http/jsonapi.ts, pageMeta). */
export type RecordPage<K extends string, T> = Records<K, T> & { meta: { [P in K]: Wire<ReturnType<typeof pageMeta>[string]> } };

/** A user, as /me or a search answers it (every field to themself and admins, the public ones to others). */
export type UserRecord = Serialized<typeof serializeUser>;

/** A user with every field, as an admin (or the user themself) reads them. */
export type FullUserRecord = Serialized<typeof serializeFullUser>;

/** A project, as the lab edits it and the projects list shows it. */
export type ProjectRecord = Serialized<typeof serializeProject>;

/**
 * A page of projects with include=avatar: the avatars under linked.avatars, each naming its project in
 * links.linked.id (lib/http/jsonapi.ts, buildLinked; a medium's own links.linked has that shape).
 */
export type ProjectListPage = RecordPage<"projects", ProjectRecord> & { linked?: { avatars?: MediumRecord[] } };

/** A member of a project's team and their roles (/project_roles). */
export type ProjectRoleRecord = Serialized<typeof serializeProjectRole>;

/** A project's page (about, team, ...) in one language. */
export type ProjectPageRecord = Serialized<typeof serializePage>;

/** A translation's strings, by the translated record's field. */
export type TranslationRecord = Serialized<typeof serializeTranslation>;

/** A project's field guide (one per language): items with an icon naming one of its attached images. */
export type FieldGuideRecord = Serialized<typeof serializeFieldGuide>;

/** A project's tutorial or mini-course: steps (a step's `media` names one of its attached images), shown in its linked workflows. */
export type TutorialRecord = Serialized<typeof serializeTutorial>;

/** A workflow, with its tasks as the API stores them and its "major.minor" version. */
export type WorkflowRecord = Serialized<typeof serializeWorkflow>;

/** A subject set. */
export type SubjectSetRecord = Serialized<typeof serializeSubjectSet>;

/** A classification, as the gold standard list shows it. */
export type ClassificationRecord = Serialized<typeof serializeClassification>;

/** A workflow's aggregation run (/aggregations). */
export type AggregationRecord = Serialized<typeof serializeAggregation>;

/** A subject: its media (one `{mime type: url}` per frame) and metadata. */
export type SubjectRecord = Serialized<typeof serializeSubject>;

/** A subject from the volunteer's queue (/subjects/queued): what the classifier shows and banners it with. */
export type QueuedSubject = Serialized<typeof serializeQueuedSubject>;

/** A subject's progress in a workflow (/subject_workflow_statuses). */
export type SubjectWorkflowStatusRecord = Serialized<typeof serializeSubjectWorkflowStatus>;

/** A collection, with the subjects it holds (collecting and favourites). */
export type CollectionRecord = Serialized<typeof withView>;

/** A volunteer's preferences on a project, with the count of their classifications there. */
export type ProjectPreferenceRecord = Serialized<typeof serializeProjectPreference>;

/** A medium: an uploaded file (avatar, background, attached image), or the signed URL to upload one to. */
export type MediumRecord = Serialized<typeof serializeMedium>;

/** A workflow's classifications export: a medium that is written in the background (src once it is ready). */
export type ExportMediumRecord = Serialized<typeof serializeExportMedium>;

/** A background job (a manifest import), polled until it ends. */
export type BackgroundJobRecord = Serialized<typeof presentBackgroundJob>;

// ---- the counts (/counts) ----

/** A count of classifications, in total and (with a period) per period. */
export type CountsAnswer = Wire<CountsResult>;
/** One period's classification count. */
export type CountBucket = NonNullable<CountsAnswer["data"]>[number];

// ---- the decision engine (/engine) ----

/** A workflow's engine configuration answer: the workflow (at the top level and under `workflow`), and what it warns about. */
export type EngineWorkflowAnswer = Serialized<typeof serializeEngineWorkflow>;
/** A workflow's engine configuration, as `{"workflow": ...}` carries it. */
export type EngineWorkflowRecord = EngineWorkflowAnswer["workflow"];

/** A reduction the engine holds (/engine/workflows/<id>/reductions). */
export type ReductionRecord = Wire<WorkflowReductionRow>;

/** A dry run (/engine/workflows/<id>/dry_run): the edited configuration's outcome, the saved one's, and where they differ. */
export type DryRunAnswer = Serialized<typeof dryRunAnswer>;
/** What the rules would do to one subject (or volunteer) in a dry run. */
export type DryRunTarget = DryRunAnswer["targets"][number];

/** An effect the engine performed or will (/engine/workflows/<id>/actions). */
export type ActionRecord = Wire<EngineActionRow>;
