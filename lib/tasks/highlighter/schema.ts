import { z } from "zod";
import { ZNext } from "../schema-parts";

// Checked by type and `next` only (as before the registry): the classifier reads the rest defensively.
export const ZHighlighter = z.looseObject({ type: z.literal("highlighter"), next: ZNext });
