// The form controls' and buttons' classes (components/ui/controls.tsx re-exports them with the controls); a
// module of their own, so a page that wants a button's look does not load the controls with it.

/** A compact input, select or textarea of a form. */
export const inputClass = "rounded border border-gray-300 px-2 py-1 text-sm";
/** A secondary button (add, remove, discard); primary buttons carry the brand colour instead. */
export const buttonClass = "rounded border border-gray-300 px-3 py-1 text-sm hover:bg-gray-100 disabled:opacity-50";
/** A form's primary button (save, create, run). */
export const primaryButtonClass = "rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50";
/** The button that confirms a deletion. */
export const dangerButtonClass = "rounded bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-50";
