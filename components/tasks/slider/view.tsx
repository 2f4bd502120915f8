"use client";
import { InlineMarkdown } from "@/components/ui/markdown";
import { TaskHelp } from "../task-help";
import { sliderValue } from "@/lib/tasks/slider";
import type { TaskViewProps } from "../view-props";

/** A slider task (PFE tasks/slider): a range input between `min` and `max` by `step`; the value is a number. */
export function SliderTaskView({ id, task, value: raw, onChange }: TaskViewProps) {
  const value = typeof raw === "number" ? raw : 0;
  const t = task as { instruction?: string; help?: string; min?: number | string; max?: number | string; step?: number | string };
  const min = Number(t.min ?? 0);
  const max = Number(t.max ?? 1);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {t.instruction ? <InlineMarkdown source={t.instruction} /> : "Choose a value"}
      </label>
      <div className="flex items-center gap-3">
        <span aria-hidden className="text-sm text-gray-600">
          {min}
        </span>
        <input
          id={id}
          type="range"
          min={min}
          max={max}
          step={Number(t.step ?? 0.1)}
          value={value}
          onChange={(e) => onChange(sliderValue(task, e.target.value))}
          className="h-8 grow accent-brand-600"
        />
        <span aria-hidden className="text-sm text-gray-600">
          {max}
        </span>
        <output htmlFor={id} className="min-w-12 rounded bg-gray-100 px-2 py-1 text-center font-mono" data-testid={`${id}-value`}>
          {value}
        </output>
      </div>
      <TaskHelp help={t.help} />
    </div>
  );
}
