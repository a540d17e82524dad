import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { invoke } from '../../bridge';
import type { InputOf, ListOpId, RowOf } from '../../../../engine/catalogue';

export interface ListState<Row> {
  rows: Row[];
  page: number;
  pageSize: number;
  totalItems: number;
  totalPages: number;
  sortBy: string | null;
  sortDirection: 'asc' | 'desc';
  filter: string;
  loading: boolean;
  /** True once the first answer is in: "loading" and "empty" are different things to show. */
  loaded: boolean;
  error: string | null;
  pageChosen(page: number): void;
  sortChosen(sortBy: string): void;
  filterTyped(text: string): void;
  refreshRequested(): Promise<void>;
}

export type ListStore<L extends ListOpId> = UseBoundStore<StoreApi<ListState<RowOf<L>>>>;

/**
 * One small store per list screen: paging, sorting and filtering all run on the server, through
 * the list operation's common parameters; the store only remembers what the user chose. Its rows
 * are typed from the operation's answer.
 */
export function createListStore<L extends ListOpId>(
  opId: L,
  filterParam: string | null,
  params: () => Record<string, string> = () => ({}),
  /** Filters the screen sets beside the text box (a status, a task, dates), read at each refresh. */
  filters: () => Record<string, string> = () => ({}),
): ListStore<L> {
  let seq = 0;
  return create<ListState<RowOf<L>>>((set, get) => ({
    rows: [],
    page: 1,
    pageSize: 10,
    totalItems: 0,
    totalPages: 0,
    sortBy: null,
    sortDirection: 'asc',
    filter: '',
    loading: false,
    loaded: false,
    error: null,
    pageChosen(page) {
      set({ page });
      void get().refreshRequested();
    },
    sortChosen(sortBy) {
      const s = get();
      set({ sortBy, sortDirection: s.sortBy === sortBy && s.sortDirection === 'asc' ? 'desc' : 'asc', page: 1 });
      void get().refreshRequested();
    },
    filterTyped(filter) {
      set({ filter, page: 1 });
      void get().refreshRequested();
    },
    async refreshRequested() {
      const s = get();
      const mine = ++seq;
      set({ loading: true });
      const query: Record<string, string | number> = { page: s.page, page_size: s.pageSize };
      // Until a column is chosen, the list's own order stands (history newest first): its direction too.
      if (s.sortBy) Object.assign(query, { sort_by: s.sortBy, sort_direction: s.sortDirection });
      if (filterParam && s.filter.trim()) query[filterParam] = s.filter.trim();
      for (const [k, v] of Object.entries(filters())) if (v) query[k] = v;
      // Every list operation takes the common list parameters; its path parameters come from the screen.
      const answer = await invoke(opId, { params: params(), query } as InputOf<L>);
      if (mine !== seq) return; // a newer request answered first; drop this one
      if (answer.ok)
        set({
          rows: answer.data as RowOf<L>[],
          totalItems: answer.totalItems ?? 0,
          totalPages: answer.totalPages ?? 0,
          loading: false,
          loaded: true,
          error: null,
        });
      else set({ loading: false, loaded: true, error: answer.error });
    },
  }));
}
