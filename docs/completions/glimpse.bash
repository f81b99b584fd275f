#!/bin/bash

__glimpse_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__glimpse_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__glimpse_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__glimpse_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_glimpse() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __glimpse_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    serve|query|match|entities|labels|decode|eval|bench|models|catalog|help)
        # Offer subcommand argument completions
        "_glimpse_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'serve query match entities labels decode eval bench models catalog help' -- "${cur}"))
        ;;
    esac
}

_glimpse_serve() {
    repeating_flags=()
    non_repeating_flags=(--no-feature-cache --no-featureprint --http-allow-non-loopback --no-store --read-only --version -h --help)
    repeating_options=(--admin-uid --admin-gid --allow-uid --allow-gid)
    non_repeating_options=(--socket --catalog --feature-cache --label-model --model --featureprint-model --featureprint-precision --matcher-index --keypoint-slots --reference-keypoints --indexed-keypoints --lsh-tables --http --admin-token-file --store --socket-mode --max-body-bytes --max-pixels --max-concurrent-queries --max-queued-queries --max-buffered-bytes --max-connections --idle-timeout --header-timeout --request-deadline --shutdown-grace --log-level)
    __glimpse_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--socket')
        return
        ;;
    '--catalog')
        return
        ;;
    '--feature-cache')
        return
        ;;
    '--label-model'|'--model')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    '--matcher-index')
        return
        ;;
    '--keypoint-slots')
        return
        ;;
    '--reference-keypoints')
        return
        ;;
    '--indexed-keypoints')
        return
        ;;
    '--lsh-tables')
        return
        ;;
    '--http')
        return
        ;;
    '--admin-token-file')
        return
        ;;
    '--store')
        return
        ;;
    '--admin-uid')
        return
        ;;
    '--admin-gid')
        return
        ;;
    '--socket-mode')
        return
        ;;
    '--allow-uid')
        return
        ;;
    '--allow-gid')
        return
        ;;
    '--max-body-bytes')
        return
        ;;
    '--max-pixels')
        return
        ;;
    '--max-concurrent-queries')
        return
        ;;
    '--max-queued-queries')
        return
        ;;
    '--max-buffered-bytes')
        return
        ;;
    '--max-connections')
        return
        ;;
    '--idle-timeout')
        return
        ;;
    '--header-timeout')
        return
        ;;
    '--request-deadline')
        return
        ;;
    '--shutdown-grace')
        return
        ;;
    '--log-level')
        return
        ;;
    esac
}

_glimpse_query() {
    repeating_flags=()
    non_repeating_flags=(--no-feature-cache --no-featureprint --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--catalog --feature-cache --label-model --model --featureprint-model --featureprint-precision --matcher-index --keypoint-slots --reference-keypoints --indexed-keypoints --lsh-tables --labels --limit --cursor --box --min-score --explain --socket)
    __glimpse_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--feature-cache')
        return
        ;;
    '--label-model'|'--model')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    '--matcher-index')
        return
        ;;
    '--keypoint-slots')
        return
        ;;
    '--reference-keypoints')
        return
        ;;
    '--indexed-keypoints')
        return
        ;;
    '--lsh-tables')
        return
        ;;
    '--labels')
        return
        ;;
    '--limit')
        return
        ;;
    '--cursor')
        return
        ;;
    '--box')
        return
        ;;
    '--min-score')
        return
        ;;
    '--explain')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_glimpse_match() {
    repeating_flags=()
    non_repeating_flags=(--recursive --all-files --resume --no-feature-cache --no-featureprint --version -h --help)
    repeating_options=()
    non_repeating_options=(--format --limit --min-score --jobs --output --catalog --feature-cache --label-model --model --featureprint-model --featureprint-precision --matcher-index --keypoint-slots --reference-keypoints --indexed-keypoints --lsh-tables)
    __glimpse_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--format')
        return
        ;;
    '--limit')
        return
        ;;
    '--min-score')
        return
        ;;
    '--jobs')
        return
        ;;
    '--output')
        return
        ;;
    '--catalog')
        return
        ;;
    '--feature-cache')
        return
        ;;
    '--label-model'|'--model')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    '--matcher-index')
        return
        ;;
    '--keypoint-slots')
        return
        ;;
    '--reference-keypoints')
        return
        ;;
    '--indexed-keypoints')
        return
        ;;
    '--lsh-tables')
        return
        ;;
    esac
}

_glimpse_entities() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--id --where --sort)
    non_repeating_options=(--catalog --search --mode --limit --type)
    __glimpse_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--id')
        return
        ;;
    '--search')
        return
        ;;
    '--where')
        return
        ;;
    '--mode')
        return
        ;;
    '--sort')
        return
        ;;
    '--limit')
        return
        ;;
    '--type')
        __glimpse_add_completions -W 'place'$'\n''collection'$'\n''all'
        return
        ;;
    esac
}

_glimpse_labels() {
    repeating_flags=()
    non_repeating_flags=(--json --all --version -h --help)
    repeating_options=()
    non_repeating_options=(--model)
    __glimpse_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--model')
        return
        ;;
    esac
}

_glimpse_decode() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--max-size)
    __glimpse_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--max-size')
        return
        ;;
    esac
}

_glimpse_eval() {
    repeating_flags=()
    non_repeating_flags=(--no-feature-cache --no-featureprint --json --precision --version -h --help)
    repeating_options=()
    non_repeating_options=(--catalog --feature-cache --label-model --model --featureprint-model --featureprint-precision --matcher-index --keypoint-slots --reference-keypoints --indexed-keypoints --lsh-tables --queries --leave-out --false-match-rate --min-score)
    __glimpse_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--feature-cache')
        return
        ;;
    '--label-model'|'--model')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    '--matcher-index')
        return
        ;;
    '--keypoint-slots')
        return
        ;;
    '--reference-keypoints')
        return
        ;;
    '--indexed-keypoints')
        return
        ;;
    '--lsh-tables')
        return
        ;;
    '--queries')
        return
        ;;
    '--leave-out')
        return
        ;;
    '--false-match-rate')
        return
        ;;
    '--min-score')
        return
        ;;
    esac
}

_glimpse_bench() {
    repeating_flags=()
    non_repeating_flags=(--no-feature-cache --no-featureprint --scale --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--catalog --feature-cache --label-model --model --featureprint-model --featureprint-precision --matcher-index --keypoint-slots --reference-keypoints --indexed-keypoints --lsh-tables --folder --passes --limit --sizes --dimension --queries --index --distractor-pool --max-build-seconds --socket --concurrency --duration)
    __glimpse_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--feature-cache')
        return
        ;;
    '--label-model'|'--model')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    '--matcher-index')
        return
        ;;
    '--keypoint-slots')
        return
        ;;
    '--reference-keypoints')
        return
        ;;
    '--indexed-keypoints')
        return
        ;;
    '--lsh-tables')
        return
        ;;
    '--folder')
        return
        ;;
    '--passes')
        return
        ;;
    '--limit')
        return
        ;;
    '--sizes')
        return
        ;;
    '--dimension')
        return
        ;;
    '--queries')
        return
        ;;
    '--index')
        return
        ;;
    '--distractor-pool')
        return
        ;;
    '--max-build-seconds')
        return
        ;;
    '--socket')
        return
        ;;
    '--concurrency')
        return
        ;;
    '--duration')
        return
        ;;
    esac
}

_glimpse_models() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __glimpse_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    build|evaluate|null-prints)
        # Offer subcommand argument completions
        "_glimpse_models_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'build evaluate null-prints' -- "${cur}"))
        ;;
    esac
}

_glimpse_models_build() {
    repeating_flags=()
    non_repeating_flags=(--no-catalog-photos --version -h --help)
    repeating_options=(--labelled)
    non_repeating_options=(--catalog --output --extractor)
    __glimpse_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--labelled')
        return
        ;;
    '--output')
        return
        ;;
    '--extractor')
        return
        ;;
    esac
}

_glimpse_models_evaluate() {
    repeating_flags=()
    non_repeating_flags=(--no-catalog-photos --json --version -h --help)
    repeating_options=(--labelled --extractor)
    non_repeating_options=(--catalog --queries)
    __glimpse_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--labelled')
        return
        ;;
    '--queries')
        return
        ;;
    '--extractor')
        return
        ;;
    esac
}

_glimpse_models_null-prints() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--featureprint-model --output --source)
    __glimpse_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--featureprint-model')
        return
        ;;
    '--output')
        return
        ;;
    '--source')
        return
        ;;
    esac
}

_glimpse_catalog() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __glimpse_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    import|export|check|show|calibration|put-place|delete-place|add-photo|remove-photo|put-collection|delete-collection)
        # Offer subcommand argument completions
        "_glimpse_catalog_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'import export check show calibration put-place delete-place add-photo remove-photo put-collection delete-collection' -- "${cur}"))
        ;;
    esac
}

_glimpse_catalog_import() {
    repeating_flags=()
    non_repeating_flags=(--replace --no-feature-cache --no-featureprint --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --catalog --feature-cache --featureprint-model --featureprint-precision)
    __glimpse_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    '--feature-cache')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    esac
}

_glimpse_catalog_export() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store --catalog)
    __glimpse_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    esac
}

_glimpse_catalog_check() {
    repeating_flags=()
    non_repeating_flags=(--no-featureprint --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --catalog --featureprint-model --featureprint-precision)
    __glimpse_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    esac
}

_glimpse_catalog_show() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store --catalog)
    __glimpse_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    esac
}

_glimpse_catalog_calibration() {
    repeating_flags=()
    non_repeating_flags=(--no-feature-cache --no-featureprint --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--catalog --feature-cache --label-model --model --featureprint-model --featureprint-precision --matcher-index --keypoint-slots --reference-keypoints --indexed-keypoints --lsh-tables --false-match-rate --top)
    __glimpse_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--feature-cache')
        return
        ;;
    '--label-model'|'--model')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    '--matcher-index')
        return
        ;;
    '--keypoint-slots')
        return
        ;;
    '--reference-keypoints')
        return
        ;;
    '--indexed-keypoints')
        return
        ;;
    '--lsh-tables')
        return
        ;;
    '--false-match-rate')
        return
        ;;
    '--top')
        return
        ;;
    esac
}

_glimpse_catalog_put-place() {
    repeating_flags=()
    non_repeating_flags=(--if-none-match --no-featureprint --version -h --help)
    repeating_options=(--photo)
    non_repeating_options=(--json --store --catalog --socket --if-match --featureprint-model --featureprint-precision)
    __glimpse_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--json')
        return
        ;;
    '--photo')
        return
        ;;
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    '--socket')
        return
        ;;
    '--if-match')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    esac
}

_glimpse_catalog_delete-place() {
    repeating_flags=()
    non_repeating_flags=(--if-none-match --no-featureprint --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --catalog --socket --if-match --featureprint-model --featureprint-precision)
    __glimpse_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    '--socket')
        return
        ;;
    '--if-match')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    esac
}

_glimpse_catalog_add-photo() {
    repeating_flags=()
    non_repeating_flags=(--if-none-match --no-featureprint --version -h --help)
    repeating_options=()
    non_repeating_options=(--name --credit-author --credit-license --credit-source --store --catalog --socket --if-match --featureprint-model --featureprint-precision)
    __glimpse_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--name')
        return
        ;;
    '--credit-author')
        return
        ;;
    '--credit-license')
        return
        ;;
    '--credit-source')
        return
        ;;
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    '--socket')
        return
        ;;
    '--if-match')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    esac
}

_glimpse_catalog_remove-photo() {
    repeating_flags=()
    non_repeating_flags=(--if-none-match --no-featureprint --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --catalog --socket --if-match --featureprint-model --featureprint-precision)
    __glimpse_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    '--socket')
        return
        ;;
    '--if-match')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    esac
}

_glimpse_catalog_put-collection() {
    repeating_flags=()
    non_repeating_flags=(--keep-members --if-none-match --no-featureprint --version -h --help)
    repeating_options=(--member)
    non_repeating_options=(--name --summary --store --catalog --socket --if-match --featureprint-model --featureprint-precision)
    __glimpse_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--name')
        return
        ;;
    '--summary')
        return
        ;;
    '--member')
        return
        ;;
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    '--socket')
        return
        ;;
    '--if-match')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    esac
}

_glimpse_catalog_delete-collection() {
    repeating_flags=()
    non_repeating_flags=(--if-none-match --no-featureprint --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --catalog --socket --if-match --featureprint-model --featureprint-precision)
    __glimpse_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    '--catalog')
        return
        ;;
    '--socket')
        return
        ;;
    '--if-match')
        return
        ;;
    '--featureprint-model')
        return
        ;;
    '--featureprint-precision')
        __glimpse_add_completions -W 'fp32'$'\n''int8'
        return
        ;;
    esac
}

_glimpse_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __glimpse_offer_flags_options -1
}

complete -o filenames -F _glimpse glimpse
