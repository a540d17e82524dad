import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { invokeAny } from '../../bridge';

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
  error: string | null;
  pageChosen(page: number): void;
  sortChosen(sortBy: string): void;
  filterTyped(text: string): void;
  refreshRequested(): Promise<void>;
}

/**
 * One small store per list screen: paging, sorting and filtering all run on the server, through
 * the list operation's common parameters; the store only remembers what the user chose.
 */
export function createListStore<Row>(opId: string, filterParam: string | null, params: () => Record<string, string> = () => ({})): UseBoundStore<StoreApi<ListState<Row>>> {
  let seq = 0;
  const store = create<ListState<Row>>((set, get) => ({
    rows: [],
    page: 1,
    pageSize: 10,
    totalItems: 0,
    totalPages: 0,
    sortBy: null,
    sortDirection: 'asc',
    filter: '',
    loading: false,
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
      const query: Record<string, string | number> = { page: s.page, page_size: s.pageSize, sort_direction: s.sortDirection };
      if (s.sortBy) query.sort_by = s.sortBy;
      if (filterParam && s.filter.trim()) query[filterParam] = s.filter.trim();
      const answer = await invokeAny(opId, { params: params(), query });
      if (mine !== seq) return; // a newer request answered first; drop this one
      if (answer.ok) set({ rows: answer.data as Row[], totalItems: answer.totalItems ?? 0, totalPages: answer.totalPages ?? 0, loading: false, error: null });
      else set({ loading: false, error: answer.error });
    },
  }));
  return store;
}
