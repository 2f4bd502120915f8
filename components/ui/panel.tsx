import type { ReactNode } from "react";

/** A titled card of the lab: a section labelled by its heading. `dense` spaces its contents closer. */
export function Panel({ id, title, dense = false, children }: { id: string; title: ReactNode; dense?: boolean; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={`flex flex-col ${dense ? "gap-2" : "gap-3"} rounded-lg border border-gray-200 bg-white p-4`}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
