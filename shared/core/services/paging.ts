/**
 * The admin lists' paging (GET /api/admin/bookings, the client list, income, inventory, the audit
 * log): ?page= from 1 and ?page_size= from 1 to 100 (the contract's pagingFields), one answer shape
 * ({page, page_size, total, items}) and one default.
 */

/** A page size asked for without one: the panel's default. */
export const DEFAULT_PAGE_SIZE = 10;

export type PageRequest = { page: number; pageSize: number; offset: number };

/** The page asked for, or undefined when neither page nor page_size was given (the whole list). */
export function pageOf(q: { page?: number | undefined; page_size?: number | undefined }): PageRequest | undefined {
  if (q.page === undefined && q.page_size === undefined) return undefined;
  return pageOrFirst(q);
}

/** The page asked for, page 1 at the default size when none was: for lists that are always paged. */
export function pageOrFirst(q: { page?: number | undefined; page_size?: number | undefined }): PageRequest {
  const page = q.page ?? 1;
  const pageSize = q.page_size ?? DEFAULT_PAGE_SIZE;
  return { page, pageSize, offset: (page - 1) * pageSize };
}
