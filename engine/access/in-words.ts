// Refusals say what the person may not do in words, never a flag's name ("updateProject").

/** Verbs of flags that read better another way. */
const VERBS: Record<string, string> = {
  view: 'see',
  update: 'change',
  edit: 'change',
  use: 'use',
  run: 'run',
  subscribe: 'subscribe to',
  setPermissions: 'set the permissions of',
  import: 'import',
};

const NOUNS: Record<string, string> = {
  Project: 'projects',
  Report: 'reports',
  Filter: 'filters',
  Condition: 'conditions',
  Task: 'tasks',
  TaskStatus: 'tasks',
  User: 'users',
  Group: 'groups',
  UserDirectory: 'user directories',
  System: 'system settings',
  Settings: 'settings',
  ApiKeys: 'API keys',
  PublishedReport: 'published reports',
};

/** Flags whose words are not a verb and a noun. */
const WHOLE: Record<string, string> = {
  enterprise: 'use the enterprise features',
  viewTaskStatus: 'see the status of tasks',
};

/** A flag's words: `updateProject` → "change projects", `setPermissionsReport` → "set the permissions of reports". */
export function flagInWords(flag: string): string {
  if (WHOLE[flag]) return WHOLE[flag];
  const m = /^(setPermissions|[a-z]+)([A-Z]\w*)?$/.exec(flag);
  if (!m) return flag;
  const noun = m[2] ? (NOUNS[m[2]] ?? m[2].replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()) : '';
  return `${VERBS[m[1]] ?? m[1]} ${noun}`.trim();
}

/** A role's refusal: "Your roles do not let you change projects". */
export const roleRefusal = (flag: string) => `Your roles do not let you ${flagInWords(flag)}`;

/** A member permission's refusal on one object: "Your member permissions do not let you change this report". */
export function memberRefusal(flag: string, where: 'this' | 'in this project'): string {
  const words = flagInWords(flag);
  if (where === 'in this project') return `Your member permissions do not let you ${words} in this project`;
  // "change reports" on one report → "change this report".
  const one = words.replace(
    / (projects|reports|filters|conditions|tasks)$/,
    (_m, n: string) => ` this ${n.slice(0, -1)}`,
  );
  return `Your member permissions do not let you ${one}`;
}
