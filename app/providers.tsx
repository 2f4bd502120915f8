"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { PublicBaseProvider } from "@/components/ui/upload-url-context";

export function Providers({ publicBase, children }: { publicBase: string; children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 } } }));
  return (
    <QueryClientProvider client={client}>
      <PublicBaseProvider publicBase={publicBase}>{children}</PublicBaseProvider>
    </QueryClientProvider>
  );
}
