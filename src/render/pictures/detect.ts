// Which picture protocol the terminal speaks, first from what terminals put in the environment,
// then (when that does not settle it) from the terminal's own answer to a query (query.ts).
// WES_PICTURES=kitty|iterm|sixel forces one, WES_PICTURES=off disables pictures.
export type PictureProtocol = 'kitty' | 'iterm' | 'sixel';

export type EnvVerdict = { protocol: PictureProtocol; because: string } | { none: string } | { ask: string };

export const PICTURE_PROTOCOLS: readonly PictureProtocol[] = ['kitty', 'iterm', 'sixel'];

export function protocolFromEnv(env: NodeJS.ProcessEnv): EnvVerdict {
  const forced = env.WES_PICTURES?.trim().toLowerCase();
  if (forced === 'off' || forced === '0' || forced === 'no') return { none: 'WES_PICTURES is off' };
  if (forced && (PICTURE_PROTOCOLS as readonly string[]).includes(forced)) return { protocol: forced as PictureProtocol, because: 'WES_PICTURES' };
  const term = env.TERM ?? '';
  const program = env.TERM_PROGRAM ?? '';
  if (term === 'dumb') return { none: 'TERM is dumb' };
  // A multiplexer sits between wes and the terminal and drops or garbles these sequences.
  if (env.TMUX || term.startsWith('screen') || term.startsWith('tmux')) return { none: 'tmux and screen do not pass pictures through' };
  if (env.KITTY_WINDOW_ID || term === 'xterm-kitty') return { protocol: 'kitty', because: 'kitty' };
  if (program === 'ghostty' || term === 'xterm-ghostty') return { protocol: 'kitty', because: 'Ghostty' };
  // iTerm2 sets TERM_PROGRAM locally; LC_TERMINAL travels over ssh (AcceptEnv LC_*).
  if (program === 'iTerm.app' || env.LC_TERMINAL === 'iTerm2') return { protocol: 'iterm', because: 'iTerm2' };
  if (program === 'WezTerm' || env.WEZTERM_PANE !== undefined || env.WEZTERM_EXECUTABLE !== undefined) return { protocol: 'iterm', because: 'WezTerm' };
  if (program === 'mintty') return { protocol: 'iterm', because: 'mintty' };
  if (env.MLTERM !== undefined || term.startsWith('mlterm')) return { protocol: 'sixel', because: 'mlterm' };
  if (term === 'foot' || term.startsWith('foot-')) return { protocol: 'sixel', because: 'foot' };
  if (program === 'Apple_Terminal') return { none: 'Terminal.app shows no pictures' };
  if (program === 'vscode') return { ask: 'VS Code shows pictures only with terminal.integrated.enableImages' };
  // xterm (sixel only as -ti vt340 or with decTerminalID), Konsole, Windows Terminal and others: ask.
  return { ask: term ? `TERM=${term} does not say` : 'TERM is not set' };
}
