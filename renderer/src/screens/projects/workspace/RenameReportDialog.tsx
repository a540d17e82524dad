import { invoke } from '../../../bridge';
import { Form, submitOutcome } from '../../../components/Form';
import { Dialog } from '../../../components/Dialog';
import { orNull, text } from '../../../components/options';
import { toastOutcome } from '../../../stores/feedback/toasts';
import type { ReportRow } from './use-project-workspace';

/** Renames a report (and changes its description) in place. */
export function RenameReportDialog(props: { renaming: ReportRow; close: () => void; renamed: () => void }) {
  const { renaming, close } = props;
  return (
    <Dialog title="Rename report" onClose={close}>
      <Form
        fields={[
          { name: 'name', label: 'Name', kind: 'text', required: true },
          { name: 'description', label: 'Description', kind: 'textarea' },
        ]}
        initial={{ name: renaming.name, description: renaming.description ?? '' }}
        submitLabel="Rename"
        onCancel={close}
        onSubmit={async (v) => {
          const a = await invoke('v2.reports.update', {
            params: { id: renaming.id },
            body: { name: text(v.name), description: orNull(v.description), isIteration: renaming.isIteration },
          });
          if (a.ok) {
            toastOutcome(a, `Renamed to “${a.data.name}”.`);
            close();
            props.renamed();
          }
          return submitOutcome(a);
        }}
      />
    </Dialog>
  );
}
