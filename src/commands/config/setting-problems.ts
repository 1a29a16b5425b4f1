// Settings a tolerant command set aside (SettingsUse.tolerateBadValues): each said once on stderr,
// with the command that repairs it, while the command itself goes on.
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../util/sanitize.js';

export function warnSettingProblems(f: Factory): void {
  const s = f.io.errStyle;
  for (const { error } of f.settings().problems) {
    f.io.warn(`${s.yellow('warning:')} ${sanitizeLine(error.message)}; the default is used until it is repaired`);
    if (error.hint) f.io.warn(`${s.yellow('hint:')} ${sanitizeLine(error.hint)}`);
  }
}
