import { useEffect, useRef, type ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

const FIRST_FIELD = 'input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

interface Props {
  title: string;
  children: ReactNode;
  onClose: () => void;
  /** An alert dialog asks a question (a destructive action) rather than holding a form. */
  role?: 'dialog' | 'alertdialog';
  /** Closed only by its own buttons: for what cannot be shown again (a one-time secret). */
  closesOnlyByButtons?: boolean;
}

/**
 * A modal dialog: its first field takes the focus, focus stays inside and returns where it was, Escape closes, and a click on the
 * backdrop does nothing (it used to discard what was typed, a one-time API key included).
 */
export function Dialog({ title, children, onClose, role = 'dialog', closesOnlyByButtons = false }: Props) {
  const body = useRef<HTMLDivElement>(null);
  // A dialog holding a form opens with its first field focused, ready to type (after the modal has taken focus itself).
  useEffect(() => {
    const frame = requestAnimationFrame(() => body.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);
  // A field that holds the focus can leave the form (another type chosen asks other things): the focus would fall to the page,
  // outside the dialog, where Escape and Tab no longer reach it. It goes back to the dialog's first field instead.
  useEffect(() => {
    const root = body.current;
    if (!root) return;
    const watcher = new MutationObserver(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      root.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    });
    watcher.observe(root, { childList: true, subtree: true });
    return () => watcher.disconnect();
  }, []);
  return (
    <ModalOverlay
      isOpen
      isDismissable={false}
      isKeyboardDismissDisabled={closesOnlyByButtons}
      onOpenChange={(open) => !open && onClose()}
      className="backdrop"
    >
      <Modal className="dialog-frame">
        <AriaDialog role={role} className="dialog">
          <header>
            <Heading slot="title">{title}</Heading>
            {!closesOnlyByButtons && (
              <button type="button" className="icon" aria-label="Close" onClick={onClose}>
                ×
              </button>
            )}
          </header>
          <div className="dialog-body" ref={body}>
            {children}
          </div>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
