'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState, type ReactNode } from 'react';
import type { AppRouter } from '@/server/trpc/routers';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
export type Outputs = inferRouterOutputs<AppRouter>;

/** The public error the server put in `data.api` (status and spec body), when there is one. */
export function apiError(err: unknown): { status: number; code: string; message: string } | null {
  if (!(err instanceof TRPCClientError)) return null;
  const api = (err.data as { api?: { status: number; body: { error: { code: string; message: string } } } } | undefined)?.api;
  return api ? { status: api.status, code: api.body.error.code, message: api.body.error.message } : null;
}

/** A sentence for the user from anything a call threw. */
export function errorMessage(err: unknown): string {
  const api = apiError(err);
  if (api) return api.message;
  if (err instanceof TRPCClientError) return 'The server could not be reached. Check your connection and try again.';
  return err instanceof Error ? err.message : 'Something went wrong.';
}

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: true,
        // expected answers (401, 403, 404 …) are not retried; network trouble and 5xx are, twice
        retry: (count, err) => {
          const status = apiError(err)?.status;
          return (status === undefined || status >= 500) && count < 2;
        },
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: '/api/trpc' })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
