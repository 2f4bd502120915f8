export { reducers } from "./registry";
export { newExtractsFor, reduce, type PreviousReduction, type ReduceResult } from "./reduce";
export { classificationOrder, filterExtracts, isTrainingSubject, sortExtracts } from "./filters";
export { DEFAULT_SUBGROUP, groupExtracts, GroupingError, MISSING_SUBGROUP, selectExtracts, subgroupName } from "./grouping";
export { mergePreviousSubjectExtracts, previousSubjectIds } from "./previous-subjects";
export {
  dataField,
  isEmptyReduction,
  ReducerError,
  type ReducerDef,
  type ReducerOutput,
  type ReductionData,
  type ReductionStore,
} from "./reducer";
export { consensusKey } from "./consensus";
export { numericValue, summaryValues } from "./summary-stats";
export { canonicalJson } from "./unique-count";
export { dbscan } from "./rectangle";
export { queueMessages, wireExtract, type QueueMessage, type WireExtract } from "./queue";
export { externalReducerRequest, type ExternalReducerBody } from "./external";
export * from "./schemas";
