import type { FieldError } from './errors.js';

/** The wire envelope the reference product's clients read (`data`, `isSuccess`, `error`, `errorDetails`). */
export interface Envelope<T = unknown> {
  data: T | null;
  isSuccess: boolean;
  error: string | null;
  errorDetails: FieldError[] | null;
}

export interface ListEnvelope<T = unknown> extends Envelope<T[]> {
  page: number;
  pageSize: number;
  totalItems: number;
  totalPages: number;
}

/** A handler returns a Page to be wrapped as a list envelope. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly page: number,
    readonly pageSize: number,
    readonly totalItems: number,
  ) {}
}

export function success<T>(data: T): Envelope<T> | ListEnvelope<unknown> {
  if (data instanceof Page) {
    return {
      data: data.items,
      page: data.page,
      pageSize: data.pageSize,
      totalItems: data.totalItems,
      totalPages: data.pageSize > 0 ? Math.ceil(data.totalItems / data.pageSize) : 0,
      isSuccess: true,
      error: null,
      errorDetails: null,
    };
  }
  return { data, isSuccess: true, error: null, errorDetails: null };
}

export function failure(error: string, errorDetails: FieldError[] | null = null): Envelope<null> {
  return { data: null, isSuccess: false, error, errorDetails };
}
