// zsh completion script: the same walk as the bash one, with descriptions in the menus
// (`_describe`) and zsh's own file completion. Works from fpath (as `_wes`) or sourced.
import type { CompletionSpec } from './spec.js';
import { argumentRows, describedOptions, describedSubcommands, optionValueRows, type Row } from './encode.js';
import { menuText, shQuote } from './quote.js';

function pattern(key: string): string {
  return key.startsWith('*') ? `*${shQuote(key.slice(1))}` : shQuote(key);
}

function valueTable(fn: string, rows: Row[], rest: Row[] = []): string {
  const lines = [
    ...rows.map((r) => `    ${pattern(r.key)}) REPLY=${shQuote(r.value)} ;;`),
    ...rest.map((r) => `    ${shQuote(`${r.key}|`)}*) REPLY=${shQuote(r.value)} ;;`),
  ];
  return [`${fn}() {`, `  case "$1|$2" in`, ...lines, `    *) REPLY='' ;;`, '  esac', '}'].join('\n');
}

/** Sets `wes_menu` to "name:description" entries and REPLY to the bare names. */
function describedTable(fn: string, groups: Array<{ key: string; entries: Array<[string, string]> }>): string {
  const lines = groups.map((g) => {
    const entries = g.entries.map(([name, desc]) => shQuote(`${name.replace(/:/g, '\\:')}:${menuText(desc)}`)).join(' ');
    return `    ${shQuote(g.key)}) wes_menu=(${entries}); REPLY=${shQuote(g.entries.map(([n]) => n).join(' '))} ;;`;
  });
  return [`${fn}() {`, '  case $1 in', ...lines, `    *) wes_menu=(); REPLY='' ;;`, '  esac', '}'].join('\n');
}

export function zshScript(spec: CompletionSpec): string {
  const p = spec.program;
  const fn = `_${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const args = argumentRows(spec);
  return `#compdef ${p}
# zsh completion for ${p}; generated from the command tree by \`${p} completion zsh\` (do not edit).
# Install: ${p} completion zsh > "\${fpath[1]}/_${p}"   (then start a new shell)
#      or: source <(${p} completion zsh)   in ~/.zshrc, after compinit

${describedTable(`${fn}_subcommands`, describedSubcommands(spec))}

${describedTable(`${fn}_options`, describedOptions(spec))}

# The value an option takes: c:CHOICES, p (profile names), k:KIND (__complete KIND), f (files), d (folders), t (text).
${valueTable(`${fn}_option_value`, optionValueRows(spec))}

${valueTable(`${fn}_argument`, args.exact, args.rest)}

# $1 value code, $2 the program to ask for dynamic values, $3 the first operand (a workflow file for --set).
${fn}_values() {
  case $1 in
    c:*) compadd -- \${=\${1#c:}} ;;
    p) compadd -- \${(f)"$("$2" __complete profiles 2>/dev/null)"} ;;
    k:set) compadd -S '' -- \${(f)"$("$2" __complete set "$3" 2>/dev/null)"} ;;
    k:*) compadd -- \${(f)"$("$2" __complete "\${1#k:}" 2>/dev/null)"} ;;
    f) _files ;;
    d) _files -/ ;;
  esac
}

${fn}() {
  emulate -L zsh
  local prog=$words[1] cmdpath='' pending='' operands='' first='' w cur=$words[CURRENT] REPLY
  local -a wes_menu
  local -i i nargs=0
  for (( i = 2; i < CURRENT; i++ )); do
    w=$words[i]
    if [[ -n $pending ]]; then pending=''; continue; fi
    if [[ -z $operands && $w == -- ]]; then operands=1; continue; fi
    if [[ -z $operands && $w == -?* ]]; then
      [[ $w == *=* ]] && continue
      ${fn}_option_value "$cmdpath" "$w"
      [[ -n $REPLY ]] && pending=$w
      continue
    fi
    ${fn}_subcommands "$cmdpath"
    if [[ -z $operands ]] && (( nargs == 0 )) && [[ " $REPLY " == *" $w "* ]]; then
      cmdpath=\${cmdpath:+$cmdpath }$w
    else
      [[ -z $first ]] && first=$w
      nargs=$(( nargs + 1 ))
    fi
  done
  if [[ -n $pending ]]; then
    ${fn}_option_value "$cmdpath" "$pending"
    ${fn}_values "$REPLY" "$prog" "$first"
    return
  fi
  if [[ -z $operands && $cur == --*=* ]]; then
    ${fn}_option_value "$cmdpath" "\${cur%%=*}"
    [[ -n $REPLY ]] || return 1
    compset -P '*='
    ${fn}_values "$REPLY" "$prog" "$first"
    return
  fi
  if [[ -z $operands && $cur == -* ]]; then
    ${fn}_options ''
    local -a globals
    globals=("\${wes_menu[@]}")
    wes_menu=()
    [[ -n $cmdpath ]] && ${fn}_options "$cmdpath"
    wes_menu+=("\${globals[@]}")
    _describe -t options 'option' wes_menu
    return
  fi
  ${fn}_subcommands "$cmdpath"
  if (( \${#wes_menu} && nargs == 0 )); then
    _describe -t commands 'command' wes_menu
    return
  fi
  ${fn}_argument "$cmdpath" "$nargs"
  ${fn}_values "$REPLY" "$prog" "$first"
}

if [[ "\${funcstack[1]}" == "${fn}" ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${p}
fi
`;
}
