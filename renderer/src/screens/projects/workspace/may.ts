import type { useProjectAccess } from '../../../hooks/useProjectAccess';

/** Whether the caller may call an operation on an object of the project (null until the engine answers). */
export type May = ReturnType<typeof useProjectAccess>;
