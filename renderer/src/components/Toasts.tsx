import { Button, Text, UNSTABLE_Toast as Toast, UNSTABLE_ToastContent as ToastContent, UNSTABLE_ToastRegion as ToastRegion } from 'react-aria-components';
import { toastQueue } from '../stores/feedback/toasts';

/** The one place success and failure are told: green for done, red (and staying) for failed. */
export function Toasts() {
  return (
    <ToastRegion queue={toastQueue} className="toasts">
      {({ toast }) => (
        <Toast toast={toast} className={`toast ${toast.content.tone}`}>
          <ToastContent>
            {/* The title slot names the toast (an alert dialog): without it the dialog had no accessible name. */}
            <Text slot="title">{toast.content.text}</Text>
          </ToastContent>
          <Button slot="close" className="icon" aria-label="Dismiss">×</Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
