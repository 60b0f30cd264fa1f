// Public entry of the General API client. Plain Node: no `vscode` import.
//
//   const client = createClient({ baseUrl: 'https://apitest.nilvera.com', getApiKey: async () => key });
//   const page = await client.customers.list({ Page: 1, PageSize: 50 });

import { accountAreas } from './areas/account';
import { customersApi } from './areas/customers';
import { RegistryApi } from './areas/registry';
import { HttpTransport, type ClientOptions } from './http';

/** The client: one object per area of the API, all on one transport. */
export function createClient(options: ClientOptions) {
  const http = new HttpTransport(options);
  return { ...accountAreas(http), customers: customersApi(http), registry: new RegistryApi(http) } as const;
}

export type NilveraClient = ReturnType<typeof createClient>;

export { NilveraApiError } from './errors';
export type { ApiErrorKind } from './errors';
export type { CallOptions, ClientOptions, FetchLike, RequestLogEntry } from './http';
export { createCustomersInBatches, lookupRegistryInBatches } from './bulk';
export * from './types';
