import { lazyPart } from "./lazy-part";

/**
 * The UI's dialog (components/ui/dialog.tsx) in a chunk of its own, which the classifier's dialogs (each a
 * lazy part itself: tutorial, shortcuts, field guide, collections, feedback, mini-course) share, rather than a
 * copy of it in each of their chunks.
 */
export const Dialog = lazyPart(() => import("@/components/ui/dialog").then((m) => m.Dialog));
