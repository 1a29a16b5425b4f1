// The names command definitions need before any completion code loads: the shells a script
// can be printed for, and the dynamic value kinds `wes __complete <kind>` answers.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const DYNAMIC_KINDS = ['profiles', 'jobs', 'models', 'models-refresh', 'set'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];
