"use client";
import { createContext, useCallback, useContext, type ReactNode } from "react";
import { localUploadUrl } from "./upload-url";

// The configured public base (PUBLIC_URL), handed down by the root layout, which renders per request, so
// client components can turn our upload URLs into paths on the page's own origin (./upload-url.ts).

const PublicBase = createContext<string | null>(null);

export function PublicBaseProvider({ publicBase, children }: { publicBase: string; children: ReactNode }) {
  return <PublicBase value={publicBase}>{children}</PublicBase>;
}

/** A function turning one of our upload URLs into a path on this page's origin (other URLs unchanged). */
export function useUploadUrl(): (url: string) => string {
  const base = useContext(PublicBase);
  return useCallback((url: string) => (base === null ? url : localUploadUrl(url, base)), [base]);
}
