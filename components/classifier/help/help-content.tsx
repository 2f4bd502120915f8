import { Markdown } from "@/components/ui/markdown";
import type { AttachedImage } from "./attached-images";

// What a tutorial step and a field guide's items look like, shared by the classifier's dialogs and the
// lab's live preview, so the researcher sees what volunteers will.

/** One tutorial or mini-course step: its image or video (when it names one that is loaded), then its Markdown. */
export function TutorialStepView({
  step,
  images,
}: {
  step: { content?: string; media?: string } | undefined;
  images?: Map<string, AttachedImage>;
}) {
  const medium = step?.media ? images?.get(String(step.media)) : undefined;
  return (
    <div className="flex flex-col gap-3 text-sm">
      {medium &&
        (medium.video ? (
          // biome-ignore lint/a11y/useMediaCaption: a researcher's illustration of the step, whose text is the Markdown below
          <video src={medium.src} controls className="max-h-64 w-full rounded object-contain" data-testid="tutorial-step-media" />
        ) : (
          <img src={medium.src} alt="" className="max-h-64 w-full rounded object-contain" data-testid="tutorial-step-media" />
        ))}
      <Markdown source={step?.content ?? ""} />
    </div>
  );
}

/**
 * A field guide's items: each a disclosure (its icon and title) opening its reference picture, as large as
 * the room allows, and its Markdown.
 */
export function FieldGuideItems({
  items,
  icons,
}: {
  items: { title?: string; content?: string; icon?: string }[];
  icons?: Map<string, AttachedImage>;
}) {
  return (
    <ul className="flex flex-col gap-3">
      {items.map((item, i) => {
        const icon = item.icon ? icons?.get(String(item.icon)) : undefined;
        const title = item.title || `Item ${i + 1}`;
        return (
          <li key={i}>
            <details className="rounded border border-gray-200">
              <summary
                className={
                  "flex cursor-pointer items-center gap-3 p-3 font-semibold focus-visible:outline " +
                  "focus-visible:outline-2 focus-visible:outline-brand-600"
                }
              >
                {icon && !icon.video && (
                  <img src={icon.src} alt="" className="h-10 w-10 shrink-0 rounded object-cover" data-testid="field-guide-icon" />
                )}
                {title}
              </summary>
              <div className="flex flex-col gap-3 px-3 pb-3 text-sm">
                {icon && !icon.video && (
                  <img
                    src={icon.src}
                    alt={title}
                    loading="lazy"
                    className="max-h-80 w-full rounded bg-gray-100 object-contain"
                    data-testid="field-guide-image"
                  />
                )}
                <Markdown source={item.content ?? ""} />
              </div>
            </details>
          </li>
        );
      })}
    </ul>
  );
}
