import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';
import { useEffect } from 'react';
import { screenLeft, toastQueue } from '../stores/feedback/toasts';
import { useNav } from '../stores/nav/nav.store';

/**
 * The one place success and failure are told: green for done, red (and staying, until another screen
 * or a success) for failed; both close on another screen.
 */
export function Toasts() {
  const screen = useNav((s) => s.screen);
  const path = useNav((s) => s.path.join('/'));
  // What is said belongs to the screen it was said on.
  useEffect(() => screenLeft(), [screen, path]);
  return (
    <ToastRegion queue={toastQueue} className="toasts">
      {({ toast }) => (
        <Toast toast={toast} className={`toast ${toast.content.tone}`}>
          <ToastContent>
            {/* The title slot names the toast (an alert dialog): without it the dialog had no accessible name. */}
            <Text slot="title">{toast.content.text}</Text>
          </ToastContent>
          <Button slot="close" className="icon" aria-label="Dismiss">
            ×
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
