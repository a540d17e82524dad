import { useState } from 'react';
import { useConfirm } from '../stores/feedback/confirm.store';
import { Dialog } from './Dialog';

/** Shows the question asked through askConfirm; rendered once, at the root of the app. */
export function ConfirmHost() {
  const asking = useConfirm((s) => s.asking);
  const confirmAnswered = useConfirm((s) => s.confirmAnswered);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  if (!asking) return null;
  const answer = (yes: boolean) => {
    setTyped('');
    confirmAnswered(yes);
  };
  const blocked = asking.typeToConfirm !== undefined && typed !== asking.typeToConfirm;
  return (
    <Dialog title={asking.title} role="alertdialog" onClose={() => answer(false)}>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!blocked) answer(true);
        }}
      >
        <p className="confirm-message">{asking.message}</p>
        {asking.typeToConfirm !== undefined && (
          <div className="field">
            <label htmlFor="confirm-typed">
              Type <strong>{asking.typeToConfirm}</strong> to confirm
            </label>
            <input
              id="confirm-typed"
              autoComplete="off"
              autoFocus
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
        )}
        <div className="form-actions">
          <button type="button" onClick={() => answer(false)} autoFocus={asking.typeToConfirm === undefined}>
            {asking.cancelLabel ?? 'Cancel'}
          </button>
          {asking.alternative && (
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                const done = await asking.alternative!.run().catch(() => false);
                setBusy(false);
                answer(done);
              }}
            >
              {asking.alternative.label}
            </button>
          )}
          <button
            type="submit"
            className={asking.alternative ? 'danger' : 'primary danger-fill'}
            disabled={blocked || busy}
          >
            {asking.confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
