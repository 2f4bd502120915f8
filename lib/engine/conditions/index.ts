export { ConditionError, deepEqual, evaluate, isTruthy, lookup, toFloat, toInteger, type ConditionContext } from "./evaluate";
export * from "./schema";
