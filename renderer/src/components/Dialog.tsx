import { useEffect, useRef, type ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

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
    const frame = requestAnimationFrame(() =>
      body.current
        ?.querySelector<HTMLElement>(
          'input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])',
        )
        ?.focus(),
    );
    return () => cancelAnimationFrame(frame);
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
