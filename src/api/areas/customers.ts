// Customers: paged list, search, single and bulk create/update/delete.

import type { CallOptions, HttpTransport } from '../http';
import { encodeSegment } from '../paths';
import type { CustomerDetailResponse, CustomerDto, CustomerListQuery, CustomerResponse, CustomerResponsePagination, UpdateCustomerCommand } from '../types';

export class CustomersApi {
  constructor(private readonly http: HttpTransport) {}

  /** GET /general/Customers?Search=&PageSize=&Page=&SortColumn=&SortType= (1-based pages). */
  list(query: CustomerListQuery = {}, opts?: CallOptions): Promise<CustomerResponsePagination> {
    return this.http.json(
      {
        operation: 'customers.list',
        method: 'GET',
        path: '/general/Customers',
        query: { Search: query.Search, PageSize: query.PageSize, Page: query.Page, SortColumn: query.SortColumn, SortType: query.SortType },
      },
      opts,
    );
  }

  /**
   * POST /general/Customers with a JSON array. All-or-nothing on the server: one bad row rejects the
   * whole array with 422. Returns the server's message string. For many rows use createCustomersInBatches.
   */
  create(dtos: CustomerDto[], opts?: CallOptions): Promise<string> {
    return this.http.json({ operation: 'customers.create', method: 'POST', path: '/general/Customers', body: dtos }, opts);
  }

  /** PUT /general/Customers → true */
  update(cmd: UpdateCustomerCommand, opts?: CallOptions): Promise<boolean> {
    return this.http.json({ operation: 'customers.update', method: 'PUT', path: '/general/Customers', body: cmd }, opts);
  }

  /** GET /general/Customers/{ID} */
  get(id: number, opts?: CallOptions): Promise<CustomerDetailResponse> {
    return this.http.json({ operation: 'customers.get', method: 'GET', path: `/general/Customers/${encodeSegment(id)}` }, opts);
  }

  /** DELETE /general/Customers/{ID} → true */
  delete(id: number, opts?: CallOptions): Promise<boolean> {
    return this.http.json({ operation: 'customers.delete', method: 'DELETE', path: `/general/Customers/${encodeSegment(id)}` }, opts);
  }

  /** DELETE /general/Customers/Bulk with a JSON array of IDs → true */
  deleteBulk(ids: number[], opts?: CallOptions): Promise<boolean> {
    return this.http.json({ operation: 'customers.deleteBulk', method: 'DELETE', path: '/general/Customers/Bulk', body: ids }, opts);
  }

  /** GET /general/Customers/Search/{searchText} */
  search(text: string, opts?: CallOptions): Promise<CustomerResponse[]> {
    return this.http.json({ operation: 'customers.search', method: 'GET', path: `/general/Customers/Search/${encodeSegment(text)}` }, opts);
  }

  /** GET /general/Customers/GetCustomerInfo/{TaxNumber} */
  getByTaxNumber(taxNumber: string, opts?: CallOptions): Promise<CustomerDetailResponse> {
    return this.http.json(
      { operation: 'customers.getByTaxNumber', method: 'GET', path: `/general/Customers/GetCustomerInfo/${encodeSegment(taxNumber)}` },
      opts,
    );
  }
}
