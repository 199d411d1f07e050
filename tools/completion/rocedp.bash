# rocedp(8) bash completion                              -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0
#
# Structured as bpftool's: global options are dropped from the words first
# (they may come before or after the object), then the object, its command
# and their arguments are completed. The vocabulary is not copied here: the
# objects, commands, options and argument kinds are read from `rocedp help`
# (each object's line: "show|set CLASS dscp D|..."), and the keys of
# `config set` from `rocedp help --config-keys`, so the completion follows
# the binary it completes. Interfaces come from `ip -o link` (the current
# network namespace, also inside `ip netns exec`). Self-contained: it needs
# neither bash-completion's _init_completion nor _filedir.

# the help line of every object: "NAME SPEC" (one a line)
_rocedp_specs()
{
    "$1" help 2>/dev/null | sed -n 's/^  \([a-z][a-z-]*\) \{1,\}\(.*\)$/\1 \2/p'
}

_rocedp_ifaces()
{
    ip -o link show 2>/dev/null | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'
}

# add the words of $1 that start with $cur
_rocedp_add()
{
    local IFS=$' \t\n'
    COMPREPLY+=( $(compgen -W "$1" -- "$cur") )
}

_rocedp_files()
{
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    if [[ $1 == dir ]]; then
        COMPREPLY+=( $(compgen -d -- "$cur") )
    else
        COMPREPLY+=( $(compgen -f -- "$cur") )
    fi
}

# split SPEC at the '|' outside [...] into the array alts
_rocedp_alts()
{
    local s=$1 c depth=0 cur_alt="" i
    alts=()
    for (( i = 0; i < ${#s}; i++ )); do
        c=${s:i:1}
        case $c in
            '[') depth=$((depth + 1)) ;;
            ']') depth=$((depth - 1)) ;;
        esac
        if [[ $c == '|' && $depth -eq 0 ]]; then
            alts+=( "$cur_alt" )
            cur_alt=""
        else
            cur_alt+=$c
        fi
    done
    alts+=( "$cur_alt" )
}

# complete a placeholder of the help text (FILE, IFACE, K=V, ...)
_rocedp_placeholder()
{
    local ph=${1%...} k
    case $ph in
        IFACE|PORT)
            # not one already on the line ("attach up1 up2")
            for k in $(_rocedp_ifaces); do
                [[ " ${words[*]:1:cword-1} " == *" $k "* ]] || _rocedp_add "$k"
            done
            ;;
        DIR) _rocedp_files dir ;;
        FILE|*.pcap) _rocedp_files ;;
        K=V|KEY=VALUE)
            [[ $cur == *=* ]] && return
            for k in $("$bin" help --config-keys 2>/dev/null); do
                [[ $k == "$cur"* ]] && COMPREPLY+=( "$k=" )
            done
            compopt -o nospace 2>/dev/null
            ;;
        CLASS)
            # the remarkable classes are the qos.* config keys
            _rocedp_add "$("$bin" help --config-keys 2>/dev/null |
                sed -n 's/^qos\.\([a-z_]*\).*/\1/p' | sort -u)"
            ;;
    esac
}

# complete the k-th operand (from 1) after the command words, against one
# form of its usage ("PORT [kmin B] [kmax B]", "profile N [kmin B]");
# the operands start at words[first]
_rocedp_form()
{
    local args=$1 k=$2 first=$3 w
    [[ $args == *'('* ]] && return 0
    local -a toks
    read -r -a toks <<<"${args//[\[\]]/ }"
    # a form that starts with a keyword ("profile N") applies only to a
    # line that has it there; at the first place it is all it offers
    if [[ ${args%% *} =~ ^[a-z][a-z_-]*$ ]]; then
        if (( k == 1 )); then
            _rocedp_add "${args%% *}"
            return 0
        fi
        [[ ${words[first]} == "${args%% *}" ]] || return 0
    fi
    # the arguments: literal keywords (dscp, kmin, ...), each keyword's value
    # (an upper-case word after it: nothing to offer), and placeholders
    local lits="" ph="" last="" needed=0
    for w in "${toks[@]}"; do
        if [[ $w == --* ]]; then
            last=opt
        elif [[ $w =~ ^[a-z][a-z_-]*$ ]]; then
            [[ $w == "$prev" ]] && [[ $last != value ]] && ph=value
            lits+=" $w"
            last=lit
        elif [[ $last == lit ]]; then
            last=value
        elif [[ $last == opt ]]; then
            last=optval
        else
            # a positional placeholder: at the first place, or repeated (...)
            if (( k == 1 )) || [[ $w == *... ]]; then
                [[ $ph == value ]] || _rocedp_placeholder "$w"
                # "set CLASS dscp D": the keywords come after the class
                (( k == 1 )) && [[ $args != *"[$w]"* ]] && needed=1
            fi
            last=pos
        fi
    done
    if [[ $ph != value ]] && (( !needed )); then
        for w in $lits; do
            [[ " ${words[*]:2:cword-2} " == *" $w "* ]] || _rocedp_add "$w"
        done
    fi
}

_rocedp()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local bin=${COMP_WORDS[0]}
    local globals='-j --json -p --pretty --pin-dir -h --help -V --version'
    local words=() cword=0 i w a skip=0 specs obj spec="" verb
    local -a alts toks
    COMPREPLY=()

    if [[ $prev == --pin-dir ]]; then
        _rocedp_files dir
        return 0
    fi
    # drop the global options wherever they are (bpftool does the same)
    for (( i = 0; i < ${#COMP_WORDS[@]}; i++ )); do
        w=${COMP_WORDS[i]}
        if (( i == COMP_CWORD )); then
            cword=${#words[@]}
            words+=( "$w" )
            continue
        fi
        if (( skip )); then
            skip=0
            continue
        fi
        case $w in
            -j|--json|-p|--pretty|--pin-dir=*) continue ;;
            --pin-dir) skip=1; continue ;;
        esac
        words+=( "$w" )
    done

    specs=$(_rocedp_specs "$bin")
    if (( cword == 1 )); then
        if [[ $cur == -* ]]; then
            _rocedp_add "$globals"
        else
            _rocedp_add "$(cut -d' ' -f1 <<<"$specs")"
        fi
        return 0
    fi
    obj=${words[1]}
    while read -r w a; do
        [[ $w == "$obj" ]] && spec=$a
    done <<<"$specs"
    [[ -z $spec ]] && return 0
    if [[ $obj == help ]]; then
        # rocedp help [OBJECT] and its own options
        if [[ $cur == -* ]]; then
            _rocedp_add "$(grep -o -- '--[a-z-]*' <<<"$spec")"
        elif [[ $prev == --man ]]; then
            _rocedp_files
        elif (( cword == 2 )); then
            _rocedp_add "$(cut -d' ' -f1 <<<"$specs")"
        fi
        return 0
    fi

    # an option's value: "--mode native|generic|tc", "--in IN.pcap", "--watch SEC"
    read -r -a toks <<<"${spec//[\[\]]/ }"
    for (( i = 0; i < ${#toks[@]} - 1; i++ )); do
        [[ ${toks[i]} == "$prev" && $prev == --* ]] || continue
        w=${toks[i+1]}
        [[ $w == --* ]] && break
        if [[ $w =~ ^[a-z][a-z|]*$ ]]; then
            _rocedp_add "${w//|/ }"
        else
            _rocedp_placeholder "${w%%|*}"
        fi
        return 0
    done
    if [[ $cur == -* ]]; then
        # after the object: the options that may follow it, and its own
        _rocedp_add "-j --json -p --pretty --pin-dir $(grep -o -- '--[a-z-]*' <<<"$spec")"
        return 0
    fi

    # commands: the alternatives that start with a lower-case word
    _rocedp_alts "$spec"
    local verbs="" first
    for a in "${alts[@]}"; do
        first=${a%% *}
        [[ $first =~ ^[a-z][a-z-]*$ && " $verbs " != *" $first "* ]] &&
            verbs+=" $first"
    done
    if [[ -n $verbs ]]; then
        if (( cword == 2 )); then
            _rocedp_add "$verbs help"
            return 0
        fi
        verb=${words[2]}
        # "set profile N ...": the form that starts with that keyword,
        # not the one whose PORT it would be
        local kw=""
        for a in "${alts[@]}"; do
            a=${a#"$verb "}
            (( cword > 3 )) && [[ ${a%% *} == "${words[3]}" ]] && kw=$a
        done
        for a in "${alts[@]}"; do
            [[ ${a%% *} == "$verb" && $a == *' '* ]] || continue
            [[ -n $kw && ${a#* } != "$kw" ]] && continue
            _rocedp_form "${a#* }" $(( cword - 2 )) 3
        done
    else
        _rocedp_form "${alts[0]}" $(( cword - 1 )) 2
    fi
    # once each (two alternatives may offer the same word)
    (( ${#COMPREPLY[@]} )) &&
        mapfile -t COMPREPLY < <(printf '%s\n' "${COMPREPLY[@]}" | awk '!seen[$0]++')
    return 0
}
complete -F _rocedp rocedp
