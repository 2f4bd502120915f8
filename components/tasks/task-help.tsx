import { Markdown } from "@/components/ui/markdown";

/** A task's help text under its inputs, rendered as the Markdown researchers write it in (nothing when empty). */
export function TaskHelp({ help }: { help?: string }) {
  if (!help?.trim()) return null;
  return <Markdown source={help} className="text-sm text-gray-600" />;
}
