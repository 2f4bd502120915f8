"use client";
import { useRouter } from "next/navigation";
import type { AnchorHTMLAttributes, MouseEvent } from "react";

/**
 * A link to one of our pages that navigates without reloading (the app router's own navigation), as
 * next/link does, without its weight: the site's header and the classify page use it, so every page's
 * first load is lighter by next/link's ~3 KiB (gzip), and the classifier loads none of it. The page is
 * prefetched when the pointer or the focus comes to the link. A click with a modifier key or another
 * button, or to another site, is the browser's (new tab…).
 */
export function Link({ href, onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const router = useRouter();
  const prefetch = () => router.prefetch(href);
  return (
    <a
      {...props}
      href={href}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(e);
        const ours = href.startsWith("/") && !href.startsWith("//");
        if (!ours || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || props.target) return;
        e.preventDefault();
        router.push(href);
      }}
    />
  );
}
