/** An object's Permissions and Delete buttons, each only where the caller may use it. */
export function ShareAndDelete(p: {
  label: string;
  share: boolean | null;
  remove: boolean | null;
  onShare: () => void;
  onRemove: () => void;
}) {
  return (
    <>
      {p.share && (
        <button type="button" className="small" onClick={p.onShare} aria-label={`Permissions of ${p.label}`}>
          Permissions
        </button>
      )}
      {p.remove && (
        <button type="button" className="small danger" onClick={p.onRemove} aria-label={`Delete ${p.label}`}>
          Delete
        </button>
      )}
    </>
  );
}
