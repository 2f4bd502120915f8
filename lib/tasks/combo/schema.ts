import { z } from "zod";
import { ZNext } from "../schema-parts";

/** Its members must be tasks and not combos: lib/domain/workflow-tasks.ts's taskGraphErrors checks that. */
export const ZCombo = z.looseObject({ type: z.literal("combo"), tasks: z.array(z.string()).min(1).max(50), next: ZNext });
