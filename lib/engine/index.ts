/**
 * Decision engine, pure stages (no Prisma, no next/*, no mutation of inputs). Impure orchestration lives in
 * `lib/engine/run`.
 *
 * Config:      parseEngineWorkflowConfig(input) → {ok, value} | {ok: false, message naming paths};
 *              ZEngineWorkflowConfig, ZExtractorConfig, ZReducerConfig, ZCondition, ZRule, ZEffectConfig.
 * Extract:     extractors[type].extract(config, classification) → {kind: "data", data} | {kind: "skip", reason}
 *              (throws ExtractorError for if_missing: error); extract(config, classification);
 *              externalRequest(config, classification) → {url, body}; minimumVersionSkip(config, classification);
 *              groupAnnotations(stored array | grouped object) → {taskKey: [{task, value}]}.
 * Reduce:      selectExtracts(config, extracts, metadataById) → Map<subgroup, extracts> (group, then filter each
 *              group: the established engine's order); filterExtracts(config, extracts, metadataById);
 *              groupExtracts(config, extracts, context?); reduce(config, extracts, previous) → {data, store,
 *              incorporatedExtractIds}; newExtractsFor(extracts, incorporatedIds); isEmptyReduction(data);
 *              previousSubjectIds(metadata); mergePreviousSubjectExtracts(own, previous);
 *              queueMessages(config, extracts); externalReducerRequest(config, extracts, subjectOrUserId).
 * Rules:       evaluate(condition, {reductions, subject}); evaluateRules(rules, rulesApplied, topic, ctx) →
 *              [{ruleIndex, effects}]; effects[action] → {schema, topic}; retirementReason(reason).
 *
 * Reducer outputs (`data`):
 *   consensus      {most_likely, num_votes, agreement} ({num_votes: 0} with no votes; ties → first key in code-unit order)
 *   count          {classifications, extracts}
 *   stats          {<key>: sum} (true 1, false 0)
 *   first_extract  the first extract's data
 *   summary_stats  {<operation>: value} per configured operation (count, min, max, sum, mean, variance, stdev, median, mode)
 *   unique_count   {unique_count, values}
 *   rectangle      per tool prefix P: P_rec_x|y|width|height|extract_ids, P_cluster_labels, P_clusters_count|x|y|width|height
 *   queue          {messages: [extract]} to deliver (remote)
 *   external       the service's JSON answer (remote)
 */
export * from "./config";
export * from "./types";
export * from "./jsonpath";
export * from "./extractors";
export * from "./reducers";
export * from "./conditions";
export * from "./effects";
export * from "./rules";
export { formatIssues, formatPath, isHttpsUrl, KEY_PATTERN } from "./validation";
