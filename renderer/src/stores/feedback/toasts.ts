import { UNSTABLE_ToastQueue as ToastQueue } from 'react-aria-components';

export interface ToastContent {
  tone: 'success' | 'failure';
  text: string;
}

/** One queue for the whole app: a screen says what happened, the region shows it. */
export const toastQueue = new ToastQueue<ToastContent>({ maxVisibleToasts: 4 });

// Success fades on its own; a failure stays until it is read and closed.
export const toastSucceeded = (text: string) => toastQueue.add({ tone: 'success', text }, { timeout: 5000 });
export const toastFailed = (text: string) => toastQueue.add({ tone: 'failure', text });

/** A result of an operation told as a toast: its success text, or its error made plain. */
export function toastOutcome(answer: { ok: boolean; error: string | null }, success: string): boolean {
  if (answer.ok) toastSucceeded(success);
  else toastFailed(answer.error ?? 'That did not work.');
  return answer.ok;
}
