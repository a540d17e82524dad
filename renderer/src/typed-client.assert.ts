// Compile-time proof that the renderer is typed from the engine's catalogue: each line below must
// NOT compile. `npm run typecheck` (and the test that runs it) fails if one of them starts to.
import type { InputOf, ResultOf, RowOf } from '../../engine/catalogue';
import type { Column } from './components/DataTable';

// @ts-expect-error a column names a field the list operation does not answer
export const misnamedColumn: Column<RowOf<'v1.groups.list'>> = { key: 'nmae', label: 'Name' };
// @ts-expect-error an answer's field that does not exist
export const misnamedResult = (me: ResultOf<'app.auth.me'>) => me.user.fullNmae;
// @ts-expect-error a body field the operation does not take
export const misnamedBody: InputOf<'v2.groups.create'> = { body: { name: 'x', organizationID: 'y', colour: 'red' } };
// @ts-expect-error an operation id that is not in the catalogue
export const unknownOperation: InputOf<'v1.groups.explode'> = {};
