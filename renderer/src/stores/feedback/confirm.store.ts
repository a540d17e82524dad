import { create } from 'zustand';

export interface ConfirmRequest {
  title: string;
  /** What will be lost, said plainly. */
  message: string;
  confirmLabel: string;
  /** The safe answer; "Cancel" unless said. */
  cancelLabel?: string;
  /** Asks the person to type this (a project's name) before the action can go ahead. */
  typeToConfirm?: string;
  /**
   * A third answer that does something first ("Save and leave"): the question is answered yes
   * when it succeeds, no when it does not (what failed is shown where it happened).
   */
  alternative?: { label: string; run: () => Promise<boolean> };
}

interface ConfirmState {
  asking: (ConfirmRequest & { answer: (yes: boolean) => void }) | null;
  confirmAsked(request: ConfirmRequest): Promise<boolean>;
  confirmAnswered(yes: boolean): void;
}

/** One question at a time, asked in the app (never the browser's confirm or prompt). */
export const useConfirm = create<ConfirmState>((set, get) => ({
  asking: null,
  confirmAsked: (request) =>
    new Promise<boolean>((resolve) => {
      get().asking?.answer(false);
      set({ asking: { ...request, answer: resolve } });
    }),
  confirmAnswered(yes) {
    get().asking?.answer(yes);
    set({ asking: null });
  },
}));

export const askConfirm = (request: ConfirmRequest) => useConfirm.getState().confirmAsked(request);
