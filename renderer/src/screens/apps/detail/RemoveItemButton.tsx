import { invoke } from '../../../bridge';
import { useMayChangeApp } from './app-change';
import { askConfirm } from '../../../stores/feedback/confirm.store';
import { toastOutcome } from '../../../stores/feedback/toasts';

export type Collection = 'Variable' | 'Chart' | 'Bookmark';
type Item = { id: string; name: string };

const DELETE = {
  Variable: 'app.analytics.deleteVariable',
  Chart: 'app.analytics.deleteChart',
  Bookmark: 'app.analytics.deleteBookmark',
} as const;

/** Deletes a variable, chart or bookmark of the app, asked first; `removed` hears it went. */
export function RemoveItemButton(props: { appId: string; kind: Collection; item: Item; removed: () => void }) {
  const { appId, kind, item, removed } = props;
  const mayChange = useMayChangeApp();
  const what = kind.toLowerCase();
  const remove = async () => {
    const yes = await askConfirm({
      title: `Delete ${what}?`,
      message: `The ${what} “${item.name}” will be deleted from the app. Reports that use it will name it as missing.`,
      confirmLabel: `Delete ${what}`,
    });
    if (!yes) return;
    const a = await invoke(DELETE[kind], { params: { id: appId, itemId: item.id } });
    toastOutcome(a, `Deleted ${what} “${item.name}”.`);
    removed();
  };
  if (!mayChange) return null;
  return (
    <button
      type="button"
      className="small danger"
      aria-label={`Delete ${what} ${item.name}`}
      onClick={() => void remove()}
    >
      Delete
    </button>
  );
}
