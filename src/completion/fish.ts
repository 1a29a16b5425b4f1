// fish completion script: one candidates function doing the same walk as the bash and zsh
// scripts, printing "candidate<TAB>description" lines; fish filters and shows them.
import type { CompletionSpec } from './spec.js';
import { argumentRows, describedOptions, describedSubcommands, optionValueRows, type Row } from './encode.js';
import { fishQuote, menuText } from './quote.js';

function pattern(key: string): string {
  return key.startsWith('*') ? `'*'${fishQuote(key.slice(1))}` : fishQuote(key);
}

function valueTable(fn: string, rows: Row[], rest: Row[] = []): string {
  const lines = [
    ...rows.map((r) => `        case ${pattern(r.key)}\n            echo ${fishQuote(r.value)}`),
    ...rest.map((r) => `        case ${fishQuote(`${r.key}|`)}'*'\n            echo ${fishQuote(r.value)}`),
  ];
  return [`function ${fn}`, '    switch "$argv[1]|$argv[2]"', ...lines, '    end', 'end'].join('\n');
}

/** Prints "name<TAB>description" lines for a command path. */
function describedTable(fn: string, groups: Array<{ key: string; entries: Array<[string, string]> }>): string {
  const lines = groups.map((g) => {
    const entries = g.entries.map(([name, desc]) => fishQuote(`${name}\t${menuText(desc)}`)).join(' ');
    return `        case ${fishQuote(g.key)}\n            printf '%s\\n' ${entries}`;
  });
  return [`function ${fn}`, '    switch "$argv[1]"', ...lines, '    end', 'end'].join('\n');
}

export function fishScript(spec: CompletionSpec): string {
  const p = spec.program;
  const fn = `__${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const args = argumentRows(spec);
  return `# fish completion for ${p}; generated from the command tree by \`${p} completion fish\` (do not edit).
# Install: ${p} completion fish > ~/.config/fish/completions/${p}.fish

${describedTable(`${fn}_subcommands`, describedSubcommands(spec))}

${describedTable(`${fn}_options`, describedOptions(spec))}

# The value an option takes: c:CHOICES, p (profile names), k:KIND (__complete KIND), f (files), d (folders), t (text).
${valueTable(`${fn}_option_value`, optionValueRows(spec))}

${valueTable(`${fn}_argument`, args.exact, args.rest)}

# $argv: value code, the program to ask for dynamic values, the word so far, the first operand (a workflow file for --set).
function ${fn}_values
    switch $argv[1]
        case 'c:*'
            string split ' ' -- (string sub -s 3 -- $argv[1])
        case p
            command $argv[2] __complete profiles 2>/dev/null
        case 'k:*'
            command $argv[2] __complete (string sub -s 3 -- $argv[1]) $argv[4] 2>/dev/null
        case f
            __fish_complete_path $argv[3]
        case d
            __fish_complete_directories $argv[3]
    end
end

function ${fn}_candidates
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l prog $tokens[1]
    set -e tokens[1]
    set -l cmdpath ''
    set -l pending ''
    set -l operands ''
    set -l nargs 0
    set -l first ''
    for w in $tokens
        if test -n "$pending"
            set pending ''
            continue
        end
        if test -z "$operands"; and test "$w" = '--'
            set operands 1
            continue
        end
        if test -z "$operands"; and string match -qr -- '^-.' "$w"
            string match -q -- '*=*' "$w"; and continue
            set -l code (${fn}_option_value "$cmdpath" $w)
            test -n "$code"; and set pending $w
            continue
        end
        if test -z "$operands"; and test $nargs -eq 0; and contains -- $w (${fn}_subcommands "$cmdpath" | string replace -r '\\t.*' '')
            set cmdpath (string trim -- "$cmdpath $w")
        else
            test -z "$first"; and set first $w
            set nargs (math $nargs + 1)
        end
    end
    if test -n "$pending"
        set -l code (${fn}_option_value "$cmdpath" $pending)
        ${fn}_values "$code" $prog "$cur" "$first"
        return
    end
    if test -z "$operands"; and string match -qr -- '^--[^=]+=' "$cur"
        set -l opt (string replace -r '=.*' '' -- "$cur")
        set -l code (${fn}_option_value "$cmdpath" $opt)
        test -n "$code"; or return
        set -l value (string replace -r '^[^=]*=' '' -- "$cur")
        for v in (${fn}_values "$code" $prog "$value" "$first")
            echo "$opt=$v"
        end
        return
    end
    if test -z "$operands"; and string match -q -- '-*' "$cur"
        test -n "$cmdpath"; and ${fn}_options "$cmdpath"
        ${fn}_options ''
        return
    end
    set -l subs (${fn}_subcommands "$cmdpath")
    if test (count $subs) -gt 0; and test $nargs -eq 0
        printf '%s\\n' $subs
        return
    end
    set -l code (${fn}_argument "$cmdpath" $nargs)
    ${fn}_values "$code" $prog "$cur" "$first"
end

complete -c ${p} -f -a '(${fn}_candidates)'
`;
}
