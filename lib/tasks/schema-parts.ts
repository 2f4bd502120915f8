import { z } from "zod";

// What every task type's schema builds on: bounded text, and `next`, the key of the task that follows.
export const ZText = z.string().max(10_000);
export const ZNext = z.string().max(100).nullish();
export const ZLabelled = z.looseObject({ label: ZText });
