import type { ReactNode } from 'react';
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
 * A modal dialog: focus stays inside and returns where it was, Escape closes, and a click on the
 * backdrop does nothing (it used to discard what was typed, a one-time API key included).
 */
export function Dialog({ title, children, onClose, role = 'dialog', closesOnlyByButtons = false }: Props) {
  return (
    <ModalOverlay isOpen isDismissable={false} isKeyboardDismissDisabled={closesOnlyByButtons} onOpenChange={(open) => !open && onClose()} className="backdrop">
      <Modal className="dialog-frame">
        <AriaDialog role={role} className="dialog">
          <header>
            <Heading slot="title">{title}</Heading>
            {!closesOnlyByButtons && <button type="button" className="icon" aria-label="Close" onClick={onClose}>×</button>}
          </header>
          <div className="dialog-body">{children}</div>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
