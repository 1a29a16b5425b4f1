// The help topics by name: read by the help command's declaration, its run function and completion.
export const HELP_TOPICS = ['exit-codes', 'environment', 'formatting'] as const;
