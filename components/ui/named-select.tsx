import { Select, type SelectOption } from "./controls";

/**
 * A Select of internal names shown by their human labels (lib/lab/labels.ts), the chosen name itself in small
 * print under it (`reduce_by_subject`, `freehandLine`): the lab's menus. Apart from Select so the classifier,
 * which shares the controls, carries none of it.
 */
export function NamedSelect(props: {
  label: string;
  value: string;
  options: readonly Exclude<SelectOption, string>[];
  onChange(v: string): void;
}) {
  const labelled = props.options.some((o) => o.value === props.value && o.label !== o.value);
  return (
    <div className="flex flex-col gap-0.5">
      <Select {...props} />
      {labelled && (
        <span aria-hidden="true" className="font-mono text-xs text-gray-600">
          {props.value}
        </span>
      )}
    </div>
  );
}
