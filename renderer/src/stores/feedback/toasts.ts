import { UNSTABLE_ToastQueue as ToastQueue } from 'react-aria-components';

export interface ToastContent {
  tone: 'success' | 'failure';
  text: string;
}

/** One queue for the whole app: a screen says what happened, the region shows it. */
export const toastQueue = new ToastQueue<ToastContent>({ maxVisibleToasts: 4 });

/** Failures shown are closed: they no longer hold once the person has moved on (another screen) or it has worked since. */
export function failuresCleared() {
  for (const t of toastQueue.visibleToasts) if (t.content.tone === 'failure') toastQueue.close(t.key);
}

// Success fades on its own and clears the failures before it (the fix worked); a failure stays until read, closed or outdated.
// The same success said again replaces the one still showing: saving twice is one "Saved", not a stack over the form.
export function toastSucceeded(text: string) {
  failuresCleared();
  for (const t of toastQueue.visibleToasts)
    if (t.content.tone === 'success' && t.content.text === text) toastQueue.close(t.key);
  return toastQueue.add({ tone: 'success', text }, { timeout: 5000 });
}
export const toastFailed = (text: string) => toastQueue.add({ tone: 'failure', text });

/** A result of an operation told as a toast: its success text, or its error made plain. */
export function toastOutcome(answer: { ok: boolean; error: string | null }, success: string): boolean {
  if (answer.ok) toastSucceeded(success);
  else toastFailed(answer.error ?? 'That did not work.');
  return answer.ok;
}
