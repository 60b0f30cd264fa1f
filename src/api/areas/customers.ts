// Customers: paged list, search, single and bulk create/update/delete.

import type { CallOptions, HttpTransport } from '../http';
import { NilveraApiError } from '../errors';
import { changeById, changeWith, hasSlash, isEmptyListNotFound, refuseSlashInPathValue, requireRecord, rowsForText } from '../specSilent';
import { walkPages } from '../paging';
import { requestOf, type QueryValue } from '../paths';
import type { OperationId } from '../operations';
import type { CustomerDetailResponse, CustomerDto, CustomerListQuery, CustomerResponse, Pagination, UpdateCustomerCommand } from '../types';

export type CustomersApi = ReturnType<typeof customersApi>;

export function customersApi(http: HttpTransport) {
  const get = <T>(id: OperationId, values: Record<string, string | number>, opts?: CallOptions, query?: Record<string, QueryValue>) =>
    http.json<T>(requestOf(id, values, query), opts);
  const customers = {
    /** The service's own 404 (nothing matches, or a page past the end) reads as an empty page (specSilent.ts, behaviour point emptyList). */
    async list(query: CustomerListQuery = {}, opts?: CallOptions): Promise<Pagination<CustomerResponse>> {
      const { Search, PageSize, Page, SortColumn, SortType } = query;
      const ask = (sorted: boolean) => {
        const asked = { Search, PageSize, Page, ...(sorted ? { SortColumn, SortType } : {}) };
        return get<Pagination<CustomerResponse>>('customers.list', {}, opts, asked).catch((err: unknown) => {
          if (!isEmptyListNotFound(err)) throw err;
          return { Page: Page ?? 1, PageSize: PageSize ?? 0, TotalCount: 0, TotalPages: 0, Content: [] };
        });
      };
      if (!SortColumn) return ask(false);
      try {
        return await ask(true);
      } catch (err) {
        // Spec-silent (specSilent.ts, DOCUMENTED_SORT_COLUMNS): a server may refuse a sort column with
        // 400. The list still comes, in the server's order, marked so the view can say so.
        if (!(err instanceof NilveraApiError) || err.kind !== 'badRequest') throw err;
        const page = await ask(false);
        return Object.assign(page, { sortRefused: true as const });
      }
    },

    /**
     * POST /general/Customers with a JSON array. All-or-nothing on the server: one bad row rejects the
     * whole array with 422 (or, spec-silent, stores the good rows and names the bad ones). Returns the
     * server's answer, which the spec leaves open (a message string, `true`, or nothing): only the status
     * counts. For many rows use createCustomersInBatches.
     */
    create: (dtos: CustomerDto[], opts?: CallOptions) =>
      http.json<unknown>({ ...requestOf('customers.create'), body: dtos }, opts),

    update: changeWith<UpdateCustomerCommand>(http, 'customers.update'),

    /**
     * Spec-silent (behaviour point operations): the platform's older export lacks this operation, and a
     * platform at that level answers 404 with an empty body, as for an unknown route (a missing customer
     * comes with the error shape). Then the record is found another way: by its tax number when the
     * caller knows it, else in the list (sorted by ID).
     */
    async get(id: number, opts?: CallOptions, hint?: { taxNumber?: string | null }): Promise<CustomerDetailResponse> {
      try {
        const found = await get<CustomerDetailResponse | null>('customers.get', { ID: id }, opts);
        // An unknown ID: 404, or an empty/`null`/`{}` 200, or 204 (see specSilent.ts).
        return requireRecord(found, 'customers.get', ['ID', 'TaxNumber']);
      } catch (err) {
        if (!(err instanceof NilveraApiError) || err.kind !== 'notFound' || err.messages.length > 0) throw err;
        const taxNumber = hint?.taxNumber?.trim();
        if (taxNumber && !hasSlash(taxNumber)) {
          const byNumber = await customers.getByTaxNumber(taxNumber, opts).catch(() => undefined);
          if (byNumber?.ID === id) return byNumber;
        }
        const byId = (page: number) => customers.list({ Page: page, PageSize: 100, SortColumn: 'ID', SortType: 'ASC' }, opts);
        for await (const { rows } of walkPages(byId)) {
          const match = rows.find((c) => c?.ID === id);
          if (match) return match as CustomerDetailResponse;
        }
        throw err;
      }
    },

    delete: changeById(http, 'customers.delete'),

    deleteBulk: changeWith<number[]>(http, 'customers.deleteBulk'),

    search: (text: string, opts?: CallOptions) => rowsForText<CustomerResponse>(http, 'customers.search', 'searchText', text, opts),

    async getByTaxNumber(taxNumber: string, opts?: CallOptions): Promise<CustomerDetailResponse> {
      refuseSlashInPathValue(taxNumber, 'customers.getByTaxNumber');
      const found = await get<CustomerDetailResponse | null>('customers.getByTaxNumber', { TaxNumber: taxNumber }, opts);
      // An unknown number: 404, or an empty/`null`/`{}` 200 (see specSilent.ts).
      return requireRecord(found, 'customers.getByTaxNumber', ['ID', 'TaxNumber']);
    },
  };
  return customers;
}
