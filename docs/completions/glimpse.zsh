#compdef glimpse

__glimpse_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__glimpse_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __glimpse_complete "${completions[@]:0:-1}"
    fi
}

__glimpse_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_glimpse() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'serve:Serve visual search over HTTP/1.1 on a Unix domain socket.'
            'query:Find the catalog places and collections a picture shows.'
            'match:Match every picture in a folder against the catalog.'
            'entities:Look up places and collections by id, by text or by property.'
            'labels:Print the scene labels (sky, water, building, …) of pictures, with scores.'
            'decode:Decode PNG and JPEG files and report their size, pixel format, orientation and decode time.'
            'eval:Measure how well photos are matched to their catalog places.'
            'bench:Measure query latency: in process, by catalog size (--scale), or against a daemon (--socket).'
            'models:Build and evaluate the labelled-reference label model.'
            'catalog:Import, export, check and edit the catalog store.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        serve|query|match|entities|labels|decode|eval|bench|models|catalog|help)
            "_glimpse_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_glimpse_serve() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        '--socket[The socket path. Default\: the socket passed by the service manager, else $XDG_RUNTIME_DIR/glimpse/glimpse.sock, else /run/glimpse/glimpse.sock.]:socket:'
        '--catalog[The catalog folder holding catalog.json.]:catalog:'
        '--feature-cache[The catalog photos'\'' feature cache file (default\: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).]:file:'
        '--no-feature-cache[Extract the catalog photos'\'' features on every start.]'
        '(--label-model --model)'{--label-model,--model}'[The scene label model (default\: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.]:label-model:'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--matcher-index[Save the built matcher (prints, keypoints and shortlist index) to this file, and load it at the next start instead of extracting and indexing the catalog photos; a missing, stale or damaged file is rebuilt. On a catalog store, a start loads the file and adds or removes the photos edited since, and the file is saved again once edits settle. For large catalogs.]:file:'
        '--keypoint-slots[For catalogs of 100,000 photos and more\: write each reference photo'\''s keypoints to this file (replaced at every build; kept beside --matcher-index, which loads it again) and verify from it, holding in memory only the keypoints the shortlist indexes. Unless set otherwise it keeps 640 keypoints a photo, indexes 128 and builds 3 hash tables\: about 11 KB of memory a photo instead of 73-107 KB. On a store, give --matcher-index too, or each start rebuilds both.]:file:'
        '--reference-keypoints[Keep at most N keypoints per reference photo, chosen from those extracted (queries keep theirs); with --keypoint-slots 640 unless set.]:N:'
        '--indexed-keypoints[Index at most N keypoints per reference photo for the shortlist (verification compares all it keeps); with --keypoint-slots 128 unless set.]:N:'
        '--lsh-tables[Build the keypoint shortlist'\''s index with N hash tables (default 6; with --keypoint-slots 3).]:N:'
        '--http[Also serve the API and the web console over HTTP on this loopback address, such as 127.0.0.1\:8080 or \[\:\:1\]\:8080 (port 0\: any free port, logged). Read-only unless --admin-token-file is given.]:http:'
        '--http-allow-non-loopback[Let --http bind an address that is not loopback. The listener has no TLS and TCP has no peer credentials\: anyone who can reach the port can query the catalog. Prefer a TLS proxy in front of the Unix socket (deploy/nginx-console.conf).]'
        '--admin-token-file[A file holding the bearer token (one line, at least 16 characters, readable only by its owner) that catalog edits over --http must send as Authorization\: Bearer TOKEN. Without it, edits over HTTP are refused.]:admin-token-file:'
        '--store[The catalog store to serve and edit\: a SQLite file, or a PostgreSQL database that several daemons share (postgres\://user@host/db, or '\''postgres'\'' for the PG* variables). Default\: $GLIMPSE_STORE, else stores/<folder>-<hash>.sqlite in $XDG_DATA_HOME/glimpse (~/.local/share/glimpse) for the --catalog folder.]:store:'
        '--no-store[Serve the --catalog folder as it is, without a store\: nothing can be edited.]'
        '*--admin-uid[Allow this user id to edit the catalog (repeatable; default\: only the daemon'\''s own user).]:admin-uid:'
        '*--admin-gid[Allow this group id, primary or supplementary, to edit the catalog (repeatable).]:admin-gid:'
        '--read-only[Refuse every catalog edit with 403.]'
        '--socket-mode[The socket'\''s permission bits, in octal (not applied to a socket passed by the service manager\: set SocketMode= there).]:socket-mode:'
        '*--allow-uid[Allow only peers with this user id (repeatable; checked with SO_PEERCRED).]:allow-uid:'
        '*--allow-gid[Allow only peers with this group id, primary or supplementary (repeatable; checked with SO_PEERCRED and SO_PEERGROUPS).]:allow-gid:'
        '--max-body-bytes[The largest request body, in bytes.]:max-body-bytes:'
        '--max-pixels[The largest picture, in pixels.]:max-pixels:'
        '--max-concurrent-queries[Queries decoded and matched at once. Default\: the number of cores.]:max-concurrent-queries:'
        '--max-queued-queries[Queries that may wait for a free slot before new ones get 503.]:max-queued-queries:'
        '--max-buffered-bytes[Request-body bytes that admitted queries may hold at once; a query that does not fit gets 503 before its body is read. At least --max-body-bytes.]:max-buffered-bytes:'
        '--max-connections[Connections served at once; when all are taken, the one waiting longest for a request head makes room.]:max-connections:'
        '--idle-timeout[Seconds a silent connection stays open (between requests).]:idle-timeout:'
        '--header-timeout[Seconds a client may take to send a whole request head, from its first byte (then 408).]:header-timeout:'
        '--request-deadline[Seconds a request body may take to arrive.]:request-deadline:'
        '--shutdown-grace[Seconds in-flight requests get to finish after SIGTERM/SIGINT.]:shutdown-grace:'
        '--log-level[Log level\: trace, debug, info, notice, warning, error, critical.]:log-level:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_query() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        '*:files:'
        '--catalog[The catalog folder holding catalog.json.]:catalog:'
        '--feature-cache[The catalog photos'\'' feature cache file (default\: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).]:file:'
        '--no-feature-cache[Extract the catalog photos'\'' features on every start.]'
        '(--label-model --model)'{--label-model,--model}'[The scene label model (default\: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.]:label-model:'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--matcher-index[Save the built matcher (prints, keypoints and shortlist index) to this file, and load it at the next start instead of extracting and indexing the catalog photos; a missing, stale or damaged file is rebuilt. On a catalog store, a start loads the file and adds or removes the photos edited since, and the file is saved again once edits settle. For large catalogs.]:file:'
        '--keypoint-slots[For catalogs of 100,000 photos and more\: write each reference photo'\''s keypoints to this file (replaced at every build; kept beside --matcher-index, which loads it again) and verify from it, holding in memory only the keypoints the shortlist indexes. Unless set otherwise it keeps 640 keypoints a photo, indexes 128 and builds 3 hash tables\: about 11 KB of memory a photo instead of 73-107 KB. On a store, give --matcher-index too, or each start rebuilds both.]:file:'
        '--reference-keypoints[Keep at most N keypoints per reference photo, chosen from those extracted (queries keep theirs); with --keypoint-slots 640 unless set.]:N:'
        '--indexed-keypoints[Index at most N keypoints per reference photo for the shortlist (verification compares all it keeps); with --keypoint-slots 128 unless set.]:N:'
        '--lsh-tables[Build the keypoint shortlist'\''s index with N hash tables (default 6; with --keypoint-slots 3).]:N:'
        '--labels[Comma-separated labels describing the picture, such as '\''tower,sky'\''.]:labels:'
        '--limit[Results per page, 1…100.]:limit:'
        '--cursor[Continue from the cursor a previous page printed.]:cursor:'
        '--box[Search only this region of the picture\: x,y,w,h as fractions 0…1 of its width and height.]:box:'
        '--min-score[List every result scoring at least this, 0…1 (default\: the accept line 0.5 for a picture, so only what is accepted; 0 also lists the places the matcher ranked but did not accept, with their evidence).]:min-score:'
        '--explain[Write a PNG showing the picture, the matched reference photos and the inlier correspondences.]:explain:'
        '--json[Print the page as JSON.]'
        '--socket[Ask the daemon on this socket (glimpse serve) instead of loading the catalog.]:socket:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_match() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        ':directory:'
        '--recursive[Also match pictures in subfolders.]'
        '--all-files[Try every file, not only those named .jpg, .jpeg or .png.]'
        '--format[Record format\: jsonl, csv or table.]:format:'
        '--limit[Results kept per picture.]:limit:'
        '--min-score[Keep every result scoring at least this, 0…1 (default\: the accept line 0.5, so only what is accepted; 0 also keeps the places the matcher ranked but did not accept, with their evidence).]:min-score:'
        '--jobs[Pictures matched at once (default\: one per processor core).]:jobs:'
        '--output[Write records to this file instead of standard output.]:output:'
        '--resume[Continue an interrupted run from its --output file.]'
        '--catalog[The catalog folder holding catalog.json.]:catalog:'
        '--feature-cache[The catalog photos'\'' feature cache file (default\: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).]:file:'
        '--no-feature-cache[Extract the catalog photos'\'' features on every start.]'
        '(--label-model --model)'{--label-model,--model}'[The scene label model (default\: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.]:label-model:'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--matcher-index[Save the built matcher (prints, keypoints and shortlist index) to this file, and load it at the next start instead of extracting and indexing the catalog photos; a missing, stale or damaged file is rebuilt. On a catalog store, a start loads the file and adds or removes the photos edited since, and the file is saved again once edits settle. For large catalogs.]:file:'
        '--keypoint-slots[For catalogs of 100,000 photos and more\: write each reference photo'\''s keypoints to this file (replaced at every build; kept beside --matcher-index, which loads it again) and verify from it, holding in memory only the keypoints the shortlist indexes. Unless set otherwise it keeps 640 keypoints a photo, indexes 128 and builds 3 hash tables\: about 11 KB of memory a photo instead of 73-107 KB. On a store, give --matcher-index too, or each start rebuilds both.]:file:'
        '--reference-keypoints[Keep at most N keypoints per reference photo, chosen from those extracted (queries keep theirs); with --keypoint-slots 640 unless set.]:N:'
        '--indexed-keypoints[Index at most N keypoints per reference photo for the shortlist (verification compares all it keeps); with --keypoint-slots 128 unless set.]:N:'
        '--lsh-tables[Build the keypoint shortlist'\''s index with N hash tables (default 6; with --keypoint-slots 3).]:N:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_entities() {
    local -i ret=1
    local -ar ___type=('place' 'collection' 'all')
    local -ar arg_specs=(
        '--catalog[The catalog folder holding catalog.json.]:catalog:'
        '--id[Entity ids to look up.]:id:'
        '--search[Text to search for.]:search:'
        '*--where[A property comparison (repeatable); see the syntax above.]:where:'
        '--mode[all\: every --where holds; any\: at least one does.]:mode:'
        '*--sort[A sort key, -KEY for descending (repeatable).]:sort:'
        '--limit[The most entities to print.]:limit:'
        '--type[place, collection or all (default\: all for --id and --search, place otherwise).]:type:{__glimpse_complete "${___type[@]}"}'
        '--json[Print JSON.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_labels() {
    local -i ret=1
    local -ar arg_specs=(
        '*:files:'
        '--model[The label model file.]:model:'
        '--json[Print one JSON object per file and line (JSON Lines).]'
        '--all[Print every label'\''s score, not only those reaching the threshold.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_decode() {
    local -i ret=1
    local -ar arg_specs=(
        '*:paths:'
        '--max-size[Decode so that the longer side is at most N pixels.]:max-size:'
        '--json[Print one JSON object per file and line (JSON Lines).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_eval() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        '--catalog[The catalog folder holding catalog.json.]:catalog:'
        '--feature-cache[The catalog photos'\'' feature cache file (default\: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).]:file:'
        '--no-feature-cache[Extract the catalog photos'\'' features on every start.]'
        '(--label-model --model)'{--label-model,--model}'[The scene label model (default\: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.]:label-model:'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--matcher-index[Save the built matcher (prints, keypoints and shortlist index) to this file, and load it at the next start instead of extracting and indexing the catalog photos; a missing, stale or damaged file is rebuilt. On a catalog store, a start loads the file and adds or removes the photos edited since, and the file is saved again once edits settle. For large catalogs.]:file:'
        '--keypoint-slots[For catalogs of 100,000 photos and more\: write each reference photo'\''s keypoints to this file (replaced at every build; kept beside --matcher-index, which loads it again) and verify from it, holding in memory only the keypoints the shortlist indexes. Unless set otherwise it keeps 640 keypoints a photo, indexes 128 and builds 3 hash tables\: about 11 KB of memory a photo instead of 73-107 KB. On a store, give --matcher-index too, or each start rebuilds both.]:file:'
        '--reference-keypoints[Keep at most N keypoints per reference photo, chosen from those extracted (queries keep theirs); with --keypoint-slots 640 unless set.]:N:'
        '--indexed-keypoints[Index at most N keypoints per reference photo for the shortlist (verification compares all it keeps); with --keypoint-slots 128 unless set.]:N:'
        '--lsh-tables[Build the keypoint shortlist'\''s index with N hash tables (default 6; with --keypoint-slots 3).]:N:'
        '--queries[The query manifest (JSON).]:queries:'
        '--json[Print one JSON object with recall_at_1, recall_at_5, false_match_rate, queries, latency_ms, cpu_ms, recall_by_op (and label_f1, labels when the manifest lists labels).]'
        '--leave-out[Leave every Nth catalog place out of the index; queries of those places must then match nothing.]:leave-out:'
        '--false-match-rate[The share of photos of no catalog place (the null prints beside the feature-print model) the print-alone accept line lets over it on this catalog (default 0.01).]:false-match-rate:'
        '--min-score[Count the first candidate at or above this confidence as the answer instead of the accepted one (0 takes the first candidate whatever its score; default\: the accept line, 0.5, as served).]:min-score:'
        '--precision[Also run the whole visual search for each query (outside the timings) and report the precision over the accept line\: the share of places and collections scoring 0.5 or more that are right (the place shown, or a collection holding it; for a photo of no catalog place every one is wrong).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_bench() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        '--catalog[The catalog folder holding catalog.json.]:catalog:'
        '--feature-cache[The catalog photos'\'' feature cache file (default\: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).]:file:'
        '--no-feature-cache[Extract the catalog photos'\'' features on every start.]'
        '(--label-model --model)'{--label-model,--model}'[The scene label model (default\: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.]:label-model:'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--matcher-index[Save the built matcher (prints, keypoints and shortlist index) to this file, and load it at the next start instead of extracting and indexing the catalog photos; a missing, stale or damaged file is rebuilt. On a catalog store, a start loads the file and adds or removes the photos edited since, and the file is saved again once edits settle. For large catalogs.]:file:'
        '--keypoint-slots[For catalogs of 100,000 photos and more\: write each reference photo'\''s keypoints to this file (replaced at every build; kept beside --matcher-index, which loads it again) and verify from it, holding in memory only the keypoints the shortlist indexes. Unless set otherwise it keeps 640 keypoints a photo, indexes 128 and builds 3 hash tables\: about 11 KB of memory a photo instead of 73-107 KB. On a store, give --matcher-index too, or each start rebuilds both.]:file:'
        '--reference-keypoints[Keep at most N keypoints per reference photo, chosen from those extracted (queries keep theirs); with --keypoint-slots 640 unless set.]:N:'
        '--indexed-keypoints[Index at most N keypoints per reference photo for the shortlist (verification compares all it keeps); with --keypoint-slots 128 unless set.]:N:'
        '--lsh-tables[Build the keypoint shortlist'\''s index with N hash tables (default 6; with --keypoint-slots 3).]:N:'
        '--folder[Pictures to query with (default\: the catalog'\''s photos).]:folder:'
        '--passes[Passes over the pictures in process (after one warm-up pass).]:passes:'
        '--limit[Results asked for per query.]:limit:'
        '--scale[Measure index cost against synthetic catalogs of growing size.]'
        '--sizes[Scale mode\: catalog sizes, comma-separated.]:sizes:'
        '--dimension[Scale mode\: vector dimension.]:dimension:'
        '--queries[Scale mode\: queries per size and index.]:queries:'
        '--index[Scale mode\: index types, comma-separated (flat, hnsw, visual).]:index:'
        '--distractor-pool[Scale mode (visual)\: make the synthetic references from these real photos of no catalog place (a glimpse eval manifest) instead of perturbed copies of the catalog'\''s descriptors.]:manifest:'
        '--max-build-seconds[Scale mode\: skip a graph build projected to take longer than this many seconds.]:max-build-seconds:'
        '--socket[Daemon mode\: the daemon'\''s socket path.]:socket:'
        '--concurrency[Daemon mode\: connections at once, comma-separated levels.]:concurrency:'
        '--duration[Daemon mode\: how long each level runs, such as 30s, 500ms or 2m.]:duration:'
        '--json[Print the report as JSON instead of tables.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_models() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'build:Rebuild the label model from labelled photos.'
            'evaluate:Measure label F1 on unseen photos, next to a colour-histogram baseline.'
            'null-prints:Write the feature prints of photos of no catalog place (the matcher'\''s null prints).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        build|evaluate|null-prints)
            "_glimpse_models_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_glimpse_models_build() {
    local -i ret=1
    local -ar arg_specs=(
        '--catalog[catalog.json\: its label vocabulary and labelled place photos.]:catalog:'
        '--no-catalog-photos[Use only the catalog'\''s vocabulary, not its place photos, as references.]'
        '*--labelled[A folder with labels.json (\[{"image", "id", "labels"}\]); may be repeated.]:labelled:'
        '--output[Where to write the model.]:output:'
        '--extractor[Feature extractor\: featureprint (the default when the feature-print model is found), scene, regions or colour-histogram.]:extractor:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_models_evaluate() {
    local -i ret=1
    local -ar arg_specs=(
        '--catalog[catalog.json\: its label vocabulary and labelled place photos.]:catalog:'
        '--no-catalog-photos[Use only the catalog'\''s vocabulary, not its place photos, as references.]'
        '*--labelled[A folder with labels.json (\[{"image", "id", "labels"}\]); may be repeated.]:labelled:'
        '--queries[A folder of distorted queries with queries.json.]:queries:'
        '*--extractor[Extractors to compare (default\: featureprint, scene and colour-histogram).]:extractor:'
        '--json[Print the report as JSON.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_models_null-prints() {
    local -i ret=1
    local -ar arg_specs=(
        '--featureprint-model[The feature-print network (default\: Models/featureprint.glimpsemodel).]:featureprint-model:'
        '--output[Where to write (default\: the model'\''s path with the extension .nulls).]:output:'
        '--source[A sentence saying where the photos came from, stored in the file.]:source:'
        '*:inputs:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'import:Import a catalog folder (catalog.json and its photos) into the store.'
            'export:Write the store'\''s catalog to a folder: catalog.json and every photo under its name.'
            'check:Check the store: database integrity, every photo against its SHA-256, features present.'
            'show:Show the store'\''s id, schema version, sequence and counts.'
            'calibration:Show the print-alone accept line measured for the catalog, and its closest look-alike places.'
            'put-place:Create or replace a place from a JSON entry as catalog.json lists places.'
            'delete-place:Delete a place and its photos.'
            'add-photo:Add a reference photo to a place (a photo it already has changes nothing).'
            'remove-photo:Remove a photo from a place (not its last one: delete the place instead).'
            'put-collection:Create or replace a collection; with --member, exactly those places list it afterwards.'
            'delete-collection:Delete a collection and remove it from the places that list it.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        import|export|check|show|calibration|put-place|delete-place|add-photo|remove-photo|put-collection|delete-collection)
            "_glimpse_catalog_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_glimpse_catalog_import() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        ':directory:'
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--replace[Replace whatever the store holds.]'
        '--feature-cache[The catalog photos'\'' feature cache file (default\: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).]:file:'
        '--no-feature-cache[Extract the catalog photos'\'' features on every start.]'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_export() {
    local -i ret=1
    local -ar arg_specs=(
        ':directory:'
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_check() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_calibration() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        '--catalog[The catalog folder holding catalog.json.]:catalog:'
        '--feature-cache[The catalog photos'\'' feature cache file (default\: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).]:file:'
        '--no-feature-cache[Extract the catalog photos'\'' features on every start.]'
        '(--label-model --model)'{--label-model,--model}'[The scene label model (default\: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.]:label-model:'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--matcher-index[Save the built matcher (prints, keypoints and shortlist index) to this file, and load it at the next start instead of extracting and indexing the catalog photos; a missing, stale or damaged file is rebuilt. On a catalog store, a start loads the file and adds or removes the photos edited since, and the file is saved again once edits settle. For large catalogs.]:file:'
        '--keypoint-slots[For catalogs of 100,000 photos and more\: write each reference photo'\''s keypoints to this file (replaced at every build; kept beside --matcher-index, which loads it again) and verify from it, holding in memory only the keypoints the shortlist indexes. Unless set otherwise it keeps 640 keypoints a photo, indexes 128 and builds 3 hash tables\: about 11 KB of memory a photo instead of 73-107 KB. On a store, give --matcher-index too, or each start rebuilds both.]:file:'
        '--reference-keypoints[Keep at most N keypoints per reference photo, chosen from those extracted (queries keep theirs); with --keypoint-slots 640 unless set.]:N:'
        '--indexed-keypoints[Index at most N keypoints per reference photo for the shortlist (verification compares all it keeps); with --keypoint-slots 128 unless set.]:N:'
        '--lsh-tables[Build the keypoint shortlist'\''s index with N hash tables (default 6; with --keypoint-slots 3).]:N:'
        '--false-match-rate[The share of null prints the line lets over it (default 0.01, as served).]:false-match-rate:'
        '--top[How many places to list, closest look-alike first (0\: all).]:top:'
        '--json[Print one JSON object instead of text.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_put-place() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        ':id:'
        '--json[The place'\''s fields, as catalog.json lists a place.]:file:'
        '*--photo[A reference photo; may be repeated.]:image:'
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--socket[Send the edit to the daemon serving the store, on this socket (it must let this user edit).]:path:'
        '--if-match[Apply only if the entity is at this revision ('\''*'\''\: only if it exists).]:rev:'
        '--if-none-match[Apply only if the entity does not exist yet.]'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_delete-place() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        ':id:'
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--socket[Send the edit to the daemon serving the store, on this socket (it must let this user edit).]:path:'
        '--if-match[Apply only if the entity is at this revision ('\''*'\''\: only if it exists).]:rev:'
        '--if-none-match[Apply only if the entity does not exist yet.]'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_add-photo() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        ':id:'
        ':image:'
        '--name[The photo'\''s name in the catalog (default\: photos/<file name>).]:name:'
        '--credit-author[Who made the photo.]:credit-author:'
        '--credit-license[The photo'\''s license, such as CC-BY-SA-4.0.]:credit-license:'
        '--credit-source[Where the photo was taken from.]:credit-source:'
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--socket[Send the edit to the daemon serving the store, on this socket (it must let this user edit).]:path:'
        '--if-match[Apply only if the entity is at this revision ('\''*'\''\: only if it exists).]:rev:'
        '--if-none-match[Apply only if the entity does not exist yet.]'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_remove-photo() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        ':id:'
        ':sha256:'
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--socket[Send the edit to the daemon serving the store, on this socket (it must let this user edit).]:path:'
        '--if-match[Apply only if the entity is at this revision ('\''*'\''\: only if it exists).]:rev:'
        '--if-none-match[Apply only if the entity does not exist yet.]'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_put-collection() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        ':id:'
        '--name[The display name.]:name:'
        '--summary[One sentence describing what it holds.]:summary:'
        '*--member[A place that belongs to it; may be repeated.]:place:'
        '--keep-members[Leave which places list it as it is (the default without --member).]'
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--socket[Send the edit to the daemon serving the store, on this socket (it must let this user edit).]:path:'
        '--if-match[Apply only if the entity is at this revision ('\''*'\''\: only if it exists).]:rev:'
        '--if-none-match[Apply only if the entity does not exist yet.]'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_catalog_delete-collection() {
    local -i ret=1
    local -ar ___featureprint_precision=('fp32' 'int8')
    local -ar arg_specs=(
        ':id:'
        '--store[The catalog store\: a SQLite file, a postgres\:// URL, or '\''postgres'\'' for the PG* variables (default\: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).]:store:'
        '--catalog[The catalog folder whose store is used when --store is not given.]:catalog:'
        '--socket[Send the edit to the daemon serving the store, on this socket (it must let this user edit).]:path:'
        '--if-match[Apply only if the entity is at this revision ('\''*'\''\: only if it exists).]:rev:'
        '--if-none-match[Apply only if the entity does not exist yet.]'
        '--featureprint-model[The feature-print network, the matcher'\''s second signal (default\: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).]:featureprint-model:'
        '--featureprint-precision[The feature print'\''s arithmetic\: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.]:featureprint-precision:{__glimpse_complete "${___featureprint_precision[@]}"}'
        '--no-featureprint[Match on keypoints alone, without the feature print.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_glimpse_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _glimpse ]]; then
    _glimpse "${@}"
else
    compdef _glimpse glimpse
fi
