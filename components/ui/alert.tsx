import type { ReactNode } from "react";

/**
 * The one way the UI shows an error: announced at once (role="alert"), in a red box; `inline` as red text in
 * a row of controls (a toggle's failure beside it). `as` is its element (a div around a list or a button);
 * `className` adds layout.
 */
export function Alert({
  children,
  as: Tag = "p",
  inline = false,
  className,
  id,
}: {
  children: ReactNode;
  as?: "p" | "div" | "span";
  inline?: boolean;
  className?: string;
  /** For a field's error, which names it with aria-describedby. */
  id?: string;
}) {
  const look = inline ? "text-sm text-red-700" : "rounded border border-red-300 bg-red-50 p-2 text-sm";
  return (
    <Tag id={id} role="alert" className={className ? `${look} ${className}` : look}>
      {children}
    </Tag>
  );
}
