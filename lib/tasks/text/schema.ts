import { z } from "zod";
import { ZNext, ZText } from "../schema-parts";

export const ZTextTask = z.looseObject({ type: z.literal("text"), instruction: ZText.optional(), help: ZText.optional(), next: ZNext });
