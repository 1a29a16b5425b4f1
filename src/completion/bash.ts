// bash completion script: the command tree as `case` tables (bash 3.2 has no associative
// arrays) and one function that walks the words typed so far to find the command, then offers
// its subcommands, options, option values or argument values.
import type { CompletionSpec } from './spec.js';
import { argumentRows, optionRows, optionValueRows, subcommandRows, type Row } from './encode.js';
import { shQuote } from './quote.js';

function caseTable(fn: string, subject: string, rows: Row[], rest: Row[] = []): string {
  const lines = [
    ...rows.map((r) => `    ${r.key.startsWith('*') ? `*${shQuote(r.key.slice(1))}` : shQuote(r.key)}) REPLY=${shQuote(r.value)} ;;`),
    ...rest.map((r) => `    ${shQuote(`${r.key}|`)}*) REPLY=${shQuote(r.value)} ;;`),
  ];
  return [`${fn}() {`, `  case ${subject} in`, ...lines, `    *) REPLY='' ;;`, '  esac', '}'].join('\n');
}

export function bashScript(spec: CompletionSpec): string {
  const p = spec.program;
  const fn = `_${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const args = argumentRows(spec);
  return `# bash completion for ${p}; generated from the command tree by \`${p} completion bash\` (do not edit).
# Install: ${p} completion bash > ~/.local/share/bash-completion/completions/${p}
#      or: echo 'source <(${p} completion bash)' >> ~/.bashrc

${caseTable(`${fn}_subcommands`, '$1', subcommandRows(spec))}

# Options of a command; those of the root ('') are global, valid after any command.
${caseTable(`${fn}_options`, '$1', optionRows(spec))}

# The value an option takes: c:CHOICES, p (profile names), k:KIND (__complete KIND), f (files), d (folders), t (text).
${caseTable(`${fn}_option_value`, '"$1|$2"', optionValueRows(spec))}

${caseTable(`${fn}_argument`, '"$1|$2"', args.exact, args.rest)}

${fn}_files() {
  local IFS=$'\\n'
  COMPREPLY=($(compgen "$1" -- "$2"))
  type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null
  return 0
}

# $1 value code, $2 the word so far, $3 the program to ask for dynamic values, $4 the first operand (a workflow file for --set).
${fn}_values() {
  case $1 in
    c:*) COMPREPLY=($(compgen -W "\${1#c:}" -- "$2")) ;;
    p) COMPREPLY=($(compgen -W "$("$3" __complete profiles 2>/dev/null)" -- "$2")) ;;
    k:set) COMPREPLY=($(compgen -W "$("$3" __complete set "$4" 2>/dev/null)" -- "$2"))
      type compopt >/dev/null 2>&1 && compopt -o nospace 2>/dev/null ;;
    k:*) COMPREPLY=($(compgen -W "$("$3" __complete "\${1#k:}" 2>/dev/null)" -- "$2")) ;;
    f) ${fn}_files -f "$2" ;;
    d) ${fn}_files -d "$2" ;;
    *) COMPREPLY=() ;;
  esac
}

${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prog=\${COMP_WORDS[0]} cmdpath='' pending='' operands='' first='' nargs=0 i w REPLY
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if [[ -n $pending ]]; then
      # bash splits --option=value at "=": the value is the word after it.
      [[ $w == = ]] && continue
      pending=''
      continue
    fi
    if [[ -z $operands && $w == -- ]]; then operands=1; continue; fi
    if [[ -z $operands && $w == -?* ]]; then
      ${fn}_option_value "$cmdpath" "$w"
      [[ -n $REPLY ]] && pending=$w
      continue
    fi
    ${fn}_subcommands "$cmdpath"
    if [[ -z $operands ]] && ((nargs == 0)) && [[ " $REPLY " == *" $w "* ]]; then
      cmdpath=\${cmdpath:+$cmdpath }$w
    else
      [[ -z $first ]] && first=$w
      nargs=$((nargs + 1))
    fi
  done
  COMPREPLY=()
  if [[ -n $pending ]]; then
    [[ $cur == = ]] && cur=''
    ${fn}_option_value "$cmdpath" "$pending"
    ${fn}_values "$REPLY" "$cur" "$prog" "$first"
    return 0
  fi
  if [[ -z $operands && $cur == -* ]]; then
    ${fn}_options ''
    local globals=$REPLY
    ${fn}_options "$cmdpath"
    [[ -n $cmdpath ]] && REPLY="$globals $REPLY"
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    return 0
  fi
  ${fn}_subcommands "$cmdpath"
  if [[ -n $REPLY ]] && ((nargs == 0)); then
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    return 0
  fi
  ${fn}_argument "$cmdpath" "$nargs"
  ${fn}_values "$REPLY" "$cur" "$prog" "$first"
  return 0
}

complete -F ${fn} ${p}
`;
}
