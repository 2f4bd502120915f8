// The records our pages read from the server, as the wire carries them (snake_case, ids as strings in the
// JSON-API, numbers in the engine's answers): one declaration each, for every component that reads one.
// Each lists the fields the pages use, not every field the server sends. Types only: nothing here reaches
// the bundle.

// ---- the JSON-API (/api): `{"<type>": [records], "meta": {"<type>": {paging}}}` ----

/** An answer of the JSON-API: its records under their type's name. */
export type Records<K extends string, T> = { [P in K]: T[] };
/** A page of a list: the records and the list's size. */
export type RecordPage<K extends string, T> = Records<K, T> & {
  meta: { [P in K]: { page?: number; page_count: number; count: number } };
};

/** A record just created: what the page needs of it is its id. */
export interface CreatedRecord {
  id: string;
}

/** A user, as /me or a search answers it. */
export interface UserRecord {
  id: string;
  login: string;
  display_name: string;
}

/** A project as the lab edits it. */
export interface ProjectRecord {
  id: string;
  display_name: string;
  description: string | null;
  introduction: string | null;
  researcher_quote: string | null;
  workflow_description: string | null;
  primary_language: string;
  available_languages: string[];
  tags: string[];
  urls: { label?: string | null; url: string }[];
  private: boolean;
  beta_requested: boolean;
  beta_approved: boolean;
  launch_requested: boolean;
  launch_approved: boolean;
  live: boolean;
}

/** A project as the projects list shows it. */
export interface ProjectSummary {
  id: string;
  display_name: string;
  description: string;
  classifications_count: number;
  subjects_count: number;
  completeness: number;
  tags: string[];
  beta: boolean;
  live: boolean;
  state: string | null;
  links: { owner: { display_name: string } };
}

/** A member of a project's team and their roles (/project_roles). */
export interface ProjectRoleRecord {
  id: string;
  roles: string[];
  links: { owner: { id: string; display_name: string } };
}

/** A project's page (about, team, ...) in one language. */
export interface ProjectPageRecord {
  id: string;
  url_key: string;
  title: string | null;
  content: string | null;
  language: string;
}

/** A translation's strings, by the translated record's field. */
export interface TranslationRecord {
  strings: Record<string, string>;
}

/** A project's field guide (one per language): items with an icon naming one of its attached images. */
export interface FieldGuideRecord {
  id: string;
  language?: string;
  items: { title?: string; content?: string; icon?: string }[];
  updated_at?: string;
}

/** A project's tutorial or mini-course: steps (a step's `media` names one of its attached images), shown in its linked workflows. */
export interface TutorialRecord {
  id: string;
  kind: string | null;
  display_name?: string;
  language?: string;
  steps: { content?: string; media?: string }[];
  links?: { workflows?: string[] };
  updated_at?: string;
}

/** A workflow, where a page only names it. */
export interface WorkflowSummary {
  id: string;
  display_name: string;
}

/** A workflow with its tasks, as the engine's dry run makes examples from them (the tasks as the API stores them). */
export interface WorkflowTasksRecord {
  id: string;
  tasks: Record<string, { type: string; [key: string]: unknown }> | null;
  first_task: string;
  links: { project: string };
}

/** A workflow just saved: its new "major.minor" version. */
export interface SavedWorkflowRecord {
  id: string;
  version: string;
}

/** A classification, as the gold standard list shows it. */
export interface ClassificationRecord {
  id: string;
  created_at: string;
  annotations: { task: string; value: unknown }[];
  links: { subjects: string[]; user: string | null };
}

/** A workflow's aggregation run (/aggregations). */
export interface AggregationRecord {
  id: string;
  status: string;
  results_url: string | null;
  error: string | null;
  uuid: string | null;
  task_id: string | null;
  created_at: string;
}

/** A subject: its media (one `{mime type: url}` per frame) and metadata. */
export interface SubjectRecord {
  id: string;
  locations: Record<string, string>[];
  metadata: Record<string, unknown>;
}

/** A subject from the volunteer's queue (/subjects/queued): what the classifier shows and banners it with. */
export interface QueuedSubject extends SubjectRecord {
  retired: boolean;
  already_seen: boolean;
  finished_workflow: boolean;
  user_has_finished_workflow: boolean;
  selection_state: string;
}

/** A subject's progress in a workflow (/subject_workflow_statuses). */
export interface SubjectWorkflowStatusRecord {
  id?: string;
  classifications_count: number;
  retired_at: string | null;
  retirement_reason: string | null;
  links: { subject: string };
}

/** A collection, with the subjects it holds (collecting and favourites). */
export interface CollectionRecord {
  id: string;
  display_name: string;
  private: boolean;
  links: { subjects?: string[] };
}

/** A volunteer's preferences on a project, with the count of their classifications there. */
export interface ProjectPreferenceRecord {
  id: string;
  preferences: Record<string, unknown>;
  activity_count: number;
}

/** A medium: an uploaded file (avatar, background, attached image), or the signed URL to upload one to. */
export interface MediumRecord {
  id?: string;
  src: string;
  content_type?: string;
}

/** A workflow's classifications export: a medium that is written in the background (src once it is ready). */
export interface ExportMediumRecord {
  src: string | null;
  updated_at?: string;
  metadata: { state: "creating" | "ready" | "failed"; progress?: number | null; total?: number | null; error?: string };
}

/** A background job (a manifest import), polled until it ends. */
export interface BackgroundJobRecord {
  id: string;
  status: "pending" | "running" | "completed" | "failed";
  progress: number | null;
  total: number | null;
  error: string | null;
}

// ---- the counts (/counts) ----

/** One period's classification count. */
export interface CountBucket {
  period: string;
  count: number;
}

/** A count of classifications, in total and (with a period) per period. */
export interface CountsAnswer {
  total_count: number;
  data?: CountBucket[];
}

// ---- the decision engine (/engine) ----

export type EngineConfig = Record<string, unknown>;

/** A workflow's engine configuration, as /engine/workflows/<id> carries it (inside `{"workflow": ...}`). */
export interface EngineWorkflowRecord {
  id: number;
  status: string;
  rules_applied: string;
  extractors_config: Record<string, EngineConfig>;
  reducers_config: Record<string, EngineConfig>;
  rules_config: { topic?: "subject" | "user"; if: unknown; then: EngineConfig[] }[];
}

/** A reduction the engine holds (/engine/workflows/<id>/reductions). */
export interface ReductionRecord {
  id: number;
  subject_id: number;
  reducer_key: string;
  data: unknown;
  updated_at: string;
  retired_at: string | null;
  retirement_reason: string | null;
}

/** The engine's answer to a saved configuration: the workflow, and what it accepted but warns about. */
export interface EngineWorkflowAnswer {
  workflow?: EngineWorkflowRecord;
  warnings?: string[];
}

/** What one configuration does to classifications in a dry run. */
export interface DryRunOutcome {
  classifications: number;
  extracts: { classification_id: number; subject_id: number; extractor_key: string; data: unknown }[];
  reductions: { topic: string; target_id: number; reducer_key: string; subgroup: string; data: unknown }[];
  targets: DryRunTarget[];
  skipped: string[];
}

/** What the rules would do to one subject (or volunteer) in a dry run. */
export interface DryRunTarget {
  topic: "subject" | "user";
  target_id: number;
  fired: { rule_index: number; effects: Record<string, unknown>[] }[];
  retires: boolean;
  retirement_reason: string | null;
}

/** A dry run (/engine/workflows/<id>/dry_run): the edited configuration's outcome, the saved one's, and where they differ. */
export interface DryRunAnswer extends DryRunOutcome {
  warnings: string[];
  saved: DryRunOutcome | null;
  diff: { topic: string; target_id: number; reductions: string[]; effects: { edited: unknown[]; saved: unknown[] } | null }[] | null;
}

/** An effect the engine performed or will (/engine/workflows/<id>/actions). */
export interface ActionRecord {
  id: number;
  subject_id: number | null;
  user_id: number | null;
  effect_type: string;
  status: string;
  attempts: number;
  error: string | null;
  created_at: string;
}
