// Error answers in the service's shape: {"Errors":[{"Code","Description","Detail"}]}.
import { ROUTE_NOT_FOUND_CODE } from '../api/operations';

export interface ErrorItem {
  Code: number;
  Description: string;
  Detail: string;
}

/** Codes follow the platform's catalogue where one fits (1015 already added, 2004 record failed). */
export const ErrorCode = {
  badRequest: 4000,
  unauthorized: 4010,
  forbidden: 4030,
  notFound: 3010,
  routeNotFound: ROUTE_NOT_FOUND_CODE,
  alreadyExists: 1015,
  businessRule: 2004,
  unknownEnum: 2015,
  methodNotAllowed: 4050,
  tooLarge: 4130,
} as const;

export class ApiError extends Error {
  readonly items: ErrorItem[];

  constructor(readonly status: number, code: number, description: string, detail = '', more: ErrorItem[] = []) {
    super(description);
    this.items = [{ Code: code, Description: description, Detail: detail }, ...more];
  }

  static many(status: number, items: ErrorItem[]): ApiError {
    const [first, ...rest] = items;
    return new ApiError(status, first.Code, first.Description, first.Detail, rest);
  }

  body(): object {
    return { Errors: this.items };
  }
}

/**
 * A model-validation 400 in the shape the platform documents for its e-invoice API (the 400 of
 * POST /einvoice/Send/Model): a JSON array of strings, each naming the property path it is about, e.g.
 * `[3].TaxNumber: …` for the fourth element of a list body.
 */
export class ValidationMessages extends ApiError {
  constructor(private readonly byPath: ReadonlyArray<[path: string, message: string]>) {
    super(400, ErrorCode.badRequest, byPath.length ? byPath[0].join(': ') : 'The request is not valid.');
  }

  override body(): object {
    return this.byPath.map((pathAndMessage) => pathAndMessage.join(': '));
  }
}

export const badRequest = (description: string, detail = '') => new ApiError(400, ErrorCode.badRequest, description, detail);
export const notFound = (description: string, detail = '') => new ApiError(404, ErrorCode.notFound, description, detail);
export const conflict = (description: string, detail = '') => new ApiError(409, ErrorCode.alreadyExists, description, detail);
export const unprocessable = (description: string, detail = '', code: number = ErrorCode.businessRule) => new ApiError(422, code, description, detail);
