function __glimpse_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __glimpse_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __glimpse_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __glimpse_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __glimpse_parse_tokens -S
    set -l unparsed_tokens (__glimpse_tokens -pc)
    switch $unparsed_tokens[1]
    case 'glimpse'
        __glimpse_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'serve'
            __glimpse_parse_subcommand 0 'socket=' 'catalog=' 'feature-cache=' 'no-feature-cache' 'label-model=' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'store=' 'no-store' 'admin-uid=+' 'admin-gid=+' 'read-only' 'socket-mode=' 'allow-uid=+' 'allow-gid=+' 'max-body-bytes=' 'max-pixels=' 'max-concurrent-queries=' 'max-queued-queries=' 'max-buffered-bytes=' 'max-connections=' 'idle-timeout=' 'header-timeout=' 'request-deadline=' 'shutdown-grace=' 'log-level=' 'version' 'h/help'
        case 'query'
            __glimpse_parse_subcommand -r 1 'catalog=' 'feature-cache=' 'no-feature-cache' 'label-model=' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'labels=' 'limit=' 'cursor=' 'box=' 'min-score=' 'explain=' 'json' 'socket=' 'version' 'h/help'
        case 'match'
            __glimpse_parse_subcommand 1 'recursive' 'all-files' 'format=' 'limit=' 'min-score=' 'jobs=' 'output=' 'resume' 'catalog=' 'feature-cache=' 'no-feature-cache' 'label-model=' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'version' 'h/help'
        case 'entities'
            __glimpse_parse_subcommand 0 'catalog=' 'id=+' 'search=' 'where=+' 'mode=' 'sort=+' 'limit=' 'type=' 'json' 'version' 'h/help'
        case 'labels'
            __glimpse_parse_subcommand -r 1 'model=' 'json' 'all' 'version' 'h/help'
        case 'decode'
            __glimpse_parse_subcommand -r 1 'max-size=' 'json' 'version' 'h/help'
        case 'eval'
            __glimpse_parse_subcommand 0 'catalog=' 'feature-cache=' 'no-feature-cache' 'label-model=' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'queries=' 'json' 'leave-out=' 'false-match-rate=' 'min-score=' 'precision' 'version' 'h/help'
        case 'bench'
            __glimpse_parse_subcommand 0 'catalog=' 'feature-cache=' 'no-feature-cache' 'label-model=' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'folder=' 'passes=' 'limit=' 'scale' 'sizes=' 'dimension=' 'queries=' 'index=' 'distractor-pool=' 'max-build-seconds=' 'socket=' 'concurrency=' 'duration=' 'json' 'version' 'h/help'
        case 'models'
            __glimpse_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'build'
                __glimpse_parse_subcommand 0 'catalog=' 'no-catalog-photos' 'labelled=+' 'output=' 'extractor=' 'version' 'h/help'
            case 'evaluate'
                __glimpse_parse_subcommand 0 'catalog=' 'no-catalog-photos' 'labelled=+' 'queries=' 'extractor=+' 'json' 'version' 'h/help'
            case 'null-prints'
                __glimpse_parse_subcommand -r 1 'featureprint-model=' 'output=' 'source=' 'version' 'h/help'
            end
        case 'catalog'
            __glimpse_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'import'
                __glimpse_parse_subcommand 1 'store=' 'catalog=' 'replace' 'feature-cache=' 'no-feature-cache' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'version' 'h/help'
            case 'export'
                __glimpse_parse_subcommand 1 'store=' 'catalog=' 'version' 'h/help'
            case 'check'
                __glimpse_parse_subcommand 0 'store=' 'catalog=' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'version' 'h/help'
            case 'show'
                __glimpse_parse_subcommand 0 'store=' 'catalog=' 'version' 'h/help'
            case 'put-place'
                __glimpse_parse_subcommand 1 'json=' 'photo=+' 'store=' 'catalog=' 'socket=' 'if-match=' 'if-none-match' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'version' 'h/help'
            case 'delete-place'
                __glimpse_parse_subcommand 1 'store=' 'catalog=' 'socket=' 'if-match=' 'if-none-match' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'version' 'h/help'
            case 'add-photo'
                __glimpse_parse_subcommand 2 'name=' 'credit-author=' 'credit-license=' 'credit-source=' 'store=' 'catalog=' 'socket=' 'if-match=' 'if-none-match' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'version' 'h/help'
            case 'remove-photo'
                __glimpse_parse_subcommand 2 'store=' 'catalog=' 'socket=' 'if-match=' 'if-none-match' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'version' 'h/help'
            case 'put-collection'
                __glimpse_parse_subcommand 1 'name=' 'summary=' 'member=+' 'keep-members' 'store=' 'catalog=' 'socket=' 'if-match=' 'if-none-match' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'version' 'h/help'
            case 'delete-collection'
                __glimpse_parse_subcommand 1 'store=' 'catalog=' 'socket=' 'if-match=' 'if-none-match' 'featureprint-model=' 'featureprint-precision=' 'no-featureprint' 'version' 'h/help'
            end
        case 'help'
            __glimpse_parse_subcommand -r 1 'version'
        end
    end
end

function __glimpse_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __glimpse_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __glimpse_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __glimpse_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__glimpse_tokens -p)
    if test -z "$(__glimpse_tokens -t)"
        set -l index (count (__glimpse_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'glimpse' -f
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'serve' -d 'Serve visual search over HTTP/1.1 on a Unix domain socket.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'query' -d 'Find the catalog places and collections a picture shows.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'match' -d 'Match every picture in a folder against the catalog.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'entities' -d 'Look up places and collections by id, by text or by property.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'labels' -d 'Print the scene labels (sky, water, building, …) of pictures, with scores.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'decode' -d 'Decode PNG and JPEG files and report their size, pixel format, orientation and decode time.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'eval' -d 'Measure how well photos are matched to their catalog places.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'bench' -d 'Measure query latency: in process, by catalog size (--scale), or against a daemon (--socket).'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'models' -d 'Build and evaluate the labelled-reference label model.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'catalog' -d 'Import, export, check and edit the catalog store.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" socket' -l 'socket' -d 'The socket path. Default: the socket passed by the service manager, else $XDG_RUNTIME_DIR/glimpse/glimpse.sock, else /run/glimpse/glimpse.sock.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" catalog' -l 'catalog' -d 'The catalog folder holding catalog.json.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" feature-cache' -l 'feature-cache' -d 'The catalog photos\' feature cache file (default: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" no-feature-cache' -l 'no-feature-cache' -d 'Extract the catalog photos\' features on every start.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" label-model model' -l 'label-model' -l 'model' -d 'The scene label model (default: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" store' -l 'store' -d 'The catalog store to serve and edit: a SQLite file, or a PostgreSQL database that several daemons share (postgres://user@host/db, or \'postgres\' for the PG* variables). Default: $GLIMPSE_STORE, else stores/<folder>-<hash>.sqlite in $XDG_DATA_HOME/glimpse (~/.local/share/glimpse) for the --catalog folder.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" no-store' -l 'no-store' -d 'Serve the --catalog folder as it is, without a store: nothing can be edited.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve"' -l 'admin-uid' -d 'Allow this user id to edit the catalog (repeatable; default: only the daemon\'s own user).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve"' -l 'admin-gid' -d 'Allow this group id, primary or supplementary, to edit the catalog (repeatable).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" read-only' -l 'read-only' -d 'Refuse every catalog edit with 403.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" socket-mode' -l 'socket-mode' -d 'The socket\'s permission bits, in octal (not applied to a socket passed by the service manager: set SocketMode= there).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve"' -l 'allow-uid' -d 'Allow only peers with this user id (repeatable; checked with SO_PEERCRED).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve"' -l 'allow-gid' -d 'Allow only peers with this group id, primary or supplementary (repeatable; checked with SO_PEERCRED and SO_PEERGROUPS).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" max-body-bytes' -l 'max-body-bytes' -d 'The largest request body, in bytes.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" max-pixels' -l 'max-pixels' -d 'The largest picture, in pixels.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" max-concurrent-queries' -l 'max-concurrent-queries' -d 'Queries decoded and matched at once. Default: the number of cores.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" max-queued-queries' -l 'max-queued-queries' -d 'Queries that may wait for a free slot before new ones get 503.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" max-buffered-bytes' -l 'max-buffered-bytes' -d 'Request-body bytes that admitted queries may hold at once; a query that does not fit gets 503 before its body is read. At least --max-body-bytes.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" max-connections' -l 'max-connections' -d 'Connections served at once; when all are taken, the one waiting longest for a request head makes room.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" idle-timeout' -l 'idle-timeout' -d 'Seconds a silent connection stays open (between requests).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" header-timeout' -l 'header-timeout' -d 'Seconds a client may take to send a whole request head, from its first byte (then 408).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" request-deadline' -l 'request-deadline' -d 'Seconds a request body may take to arrive.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" shutdown-grace' -l 'shutdown-grace' -d 'Seconds in-flight requests get to finish after SIGTERM/SIGINT.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" log-level' -l 'log-level' -d 'Log level: trace, debug, info, notice, warning, error, critical.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" catalog' -l 'catalog' -d 'The catalog folder holding catalog.json.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" feature-cache' -l 'feature-cache' -d 'The catalog photos\' feature cache file (default: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" no-feature-cache' -l 'no-feature-cache' -d 'Extract the catalog photos\' features on every start.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" label-model model' -l 'label-model' -l 'model' -d 'The scene label model (default: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" labels' -l 'labels' -d 'Comma-separated labels describing the picture, such as \'tower,sky\'.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" limit' -l 'limit' -d 'Results per page, 1…100.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" cursor' -l 'cursor' -d 'Continue from the cursor a previous page printed.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" box' -l 'box' -d 'Search only this region of the picture: x,y,w,h as fractions 0…1 of its width and height.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" min-score' -l 'min-score' -d 'List every result scoring at least this, 0…1 (default: the accept line 0.5 for a picture, so only what is accepted; 0 also lists the places the matcher ranked but did not accept, with their evidence).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" explain' -l 'explain' -d 'Write a PNG showing the picture, the matched reference photos and the inlier correspondences.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" json' -l 'json' -d 'Print the page as JSON.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" socket' -l 'socket' -d 'Ask the daemon on this socket (glimpse serve) instead of loading the catalog.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse query" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" recursive' -l 'recursive' -d 'Also match pictures in subfolders.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" all-files' -l 'all-files' -d 'Try every file, not only those named .jpg, .jpeg or .png.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" format' -l 'format' -d 'Record format: jsonl, csv or table.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" limit' -l 'limit' -d 'Results kept per picture.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" min-score' -l 'min-score' -d 'Keep every result scoring at least this, 0…1 (default: the accept line 0.5, so only what is accepted; 0 also keeps the places the matcher ranked but did not accept, with their evidence).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" jobs' -l 'jobs' -d 'Pictures matched at once (default: one per processor core).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" output' -l 'output' -d 'Write records to this file instead of standard output.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" resume' -l 'resume' -d 'Continue an interrupted run from its --output file.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" catalog' -l 'catalog' -d 'The catalog folder holding catalog.json.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" feature-cache' -l 'feature-cache' -d 'The catalog photos\' feature cache file (default: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" no-feature-cache' -l 'no-feature-cache' -d 'Extract the catalog photos\' features on every start.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" label-model model' -l 'label-model' -l 'model' -d 'The scene label model (default: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse match" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities" catalog' -l 'catalog' -d 'The catalog folder holding catalog.json.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities"' -l 'id' -d 'Entity ids to look up.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities" search' -l 'search' -d 'Text to search for.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities"' -l 'where' -d 'A property comparison (repeatable); see the syntax above.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities" mode' -l 'mode' -d 'all: every --where holds; any: at least one does.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities"' -l 'sort' -d 'A sort key, -KEY for descending (repeatable).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities" limit' -l 'limit' -d 'The most entities to print.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities" type' -l 'type' -d 'place, collection or all (default: all for --id and --search, place otherwise).' -rfka 'place collection all'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities" json' -l 'json' -d 'Print JSON.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse entities" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse labels" model' -l 'model' -d 'The label model file.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse labels" json' -l 'json' -d 'Print one JSON object per file and line (JSON Lines).'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse labels" all' -l 'all' -d 'Print every label\'s score, not only those reaching the threshold.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse labels" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse labels" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse decode" max-size' -l 'max-size' -d 'Decode so that the longer side is at most N pixels.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse decode" json' -l 'json' -d 'Print one JSON object per file and line (JSON Lines).'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse decode" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse decode" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" catalog' -l 'catalog' -d 'The catalog folder holding catalog.json.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" feature-cache' -l 'feature-cache' -d 'The catalog photos\' feature cache file (default: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" no-feature-cache' -l 'no-feature-cache' -d 'Extract the catalog photos\' features on every start.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" label-model model' -l 'label-model' -l 'model' -d 'The scene label model (default: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" queries' -l 'queries' -d 'The query manifest (JSON).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" json' -l 'json' -d 'Print one JSON object with recall_at_1, recall_at_5, false_match_rate, queries, latency_ms, cpu_ms, recall_by_op (and label_f1, labels when the manifest lists labels).'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" leave-out' -l 'leave-out' -d 'Leave every Nth catalog place out of the index; queries of those places must then match nothing.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" false-match-rate' -l 'false-match-rate' -d 'The share of photos of no catalog place (the null prints beside the feature-print model) the print-alone accept line lets over it on this catalog (default 0.01).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" min-score' -l 'min-score' -d 'Count the first candidate at or above this confidence as the answer instead of the accepted one (0 takes the first candidate whatever its score; default: the accept line, 0.5, as served).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" precision' -l 'precision' -d 'Also run the whole visual search for each query (outside the timings) and report the precision over the accept line: the share of places and collections scoring 0.5 or more that are right (the place shown, or a collection holding it; for a photo of no catalog place every one is wrong).'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse eval" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" catalog' -l 'catalog' -d 'The catalog folder holding catalog.json.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" feature-cache' -l 'feature-cache' -d 'The catalog photos\' feature cache file (default: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" no-feature-cache' -l 'no-feature-cache' -d 'Extract the catalog photos\' features on every start.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" label-model model' -l 'label-model' -l 'model' -d 'The scene label model (default: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the catalog folder, else in the current directory; labels are derived only from a matched place when none is found). A named file must exist.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" folder' -l 'folder' -d 'Pictures to query with (default: the catalog\'s photos).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" passes' -l 'passes' -d 'Passes over the pictures in process (after one warm-up pass).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" limit' -l 'limit' -d 'Results asked for per query.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" scale' -l 'scale' -d 'Measure index cost against synthetic catalogs of growing size.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" sizes' -l 'sizes' -d 'Scale mode: catalog sizes, comma-separated.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" dimension' -l 'dimension' -d 'Scale mode: vector dimension.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" queries' -l 'queries' -d 'Scale mode: queries per size and index.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" index' -l 'index' -d 'Scale mode: index types, comma-separated (flat, hnsw, visual).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" distractor-pool' -l 'distractor-pool' -d 'Scale mode (visual): make the synthetic references from these real photos of no catalog place (a glimpse eval manifest) instead of perturbed copies of the catalog\'s descriptors.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" max-build-seconds' -l 'max-build-seconds' -d 'Scale mode: skip a graph build projected to take longer than this many seconds.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" socket' -l 'socket' -d 'Daemon mode: the daemon\'s socket path.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" concurrency' -l 'concurrency' -d 'Daemon mode: connections at once, comma-separated levels.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" duration' -l 'duration' -d 'Daemon mode: how long each level runs, such as 30s, 500ms or 2m.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" json' -l 'json' -d 'Print the report as JSON instead of tables.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse bench" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse models" -eq 1' -fa 'build' -d 'Rebuild the label model from labelled photos.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse models" -eq 1' -fa 'evaluate' -d 'Measure label F1 on unseen photos, next to a colour-histogram baseline.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse models" -eq 1' -fa 'null-prints' -d 'Write the feature prints of photos of no catalog place (the matcher\'s null prints).'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models build" catalog' -l 'catalog' -d 'catalog.json: its label vocabulary and labelled place photos.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models build" no-catalog-photos' -l 'no-catalog-photos' -d 'Use only the catalog\'s vocabulary, not its place photos, as references.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models build"' -l 'labelled' -d 'A folder with labels.json ([{"image", "id", "labels"}]); may be repeated.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models build" output' -l 'output' -d 'Where to write the model.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models build" extractor' -l 'extractor' -d 'Feature extractor: featureprint (the default when the feature-print model is found), scene, regions or colour-histogram.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models build" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models build" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models evaluate" catalog' -l 'catalog' -d 'catalog.json: its label vocabulary and labelled place photos.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models evaluate" no-catalog-photos' -l 'no-catalog-photos' -d 'Use only the catalog\'s vocabulary, not its place photos, as references.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models evaluate"' -l 'labelled' -d 'A folder with labels.json ([{"image", "id", "labels"}]); may be repeated.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models evaluate" queries' -l 'queries' -d 'A folder of distorted queries with queries.json.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models evaluate"' -l 'extractor' -d 'Extractors to compare (default: featureprint, scene and colour-histogram).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models evaluate" json' -l 'json' -d 'Print the report as JSON.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models evaluate" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models evaluate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models null-prints" featureprint-model' -l 'featureprint-model' -d 'The feature-print network (default: Models/featureprint.glimpsemodel).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models null-prints" output' -l 'output' -d 'Where to write (default: the model\'s path with the extension .nulls).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models null-prints" source' -l 'source' -d 'A sentence saying where the photos came from, stored in the file.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models null-prints" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse models null-prints" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'import' -d 'Import a catalog folder (catalog.json and its photos) into the store.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'export' -d 'Write the store\'s catalog to a folder: catalog.json and every photo under its name.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'check' -d 'Check the store: database integrity, every photo against its SHA-256, features present.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'show' -d 'Show the store\'s id, schema version, sequence and counts.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'put-place' -d 'Create or replace a place from a JSON entry as catalog.json lists places.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'delete-place' -d 'Delete a place and its photos.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'add-photo' -d 'Add a reference photo to a place (a photo it already has changes nothing).'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'remove-photo' -d 'Remove a photo from a place (not its last one: delete the place instead).'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'put-collection' -d 'Create or replace a collection; with --member, exactly those places list it afterwards.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_positional "glimpse catalog" -eq 1' -fa 'delete-collection' -d 'Delete a collection and remove it from the places that list it.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" replace' -l 'replace' -d 'Replace whatever the store holds.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" feature-cache' -l 'feature-cache' -d 'The catalog photos\' feature cache file (default: one per catalog folder in $GLIMPSE_CACHE_DIR, $XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" no-feature-cache' -l 'no-feature-cache' -d 'Extract the catalog photos\' features on every start.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog export" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog export" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog export" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog check" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog check" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog check" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog check" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog check" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog check" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog show" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog show" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog show" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" json' -l 'json' -d 'The place\'s fields, as catalog.json lists a place.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place"' -l 'photo' -d 'A reference photo; may be repeated.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" socket' -l 'socket' -d 'Send the edit to the daemon serving the store, on this socket (it must let this user edit).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" if-match' -l 'if-match' -d 'Apply only if the entity is at this revision (\'*\': only if it exists).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" if-none-match' -l 'if-none-match' -d 'Apply only if the entity does not exist yet.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-place" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" socket' -l 'socket' -d 'Send the edit to the daemon serving the store, on this socket (it must let this user edit).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" if-match' -l 'if-match' -d 'Apply only if the entity is at this revision (\'*\': only if it exists).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" if-none-match' -l 'if-none-match' -d 'Apply only if the entity does not exist yet.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-place" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" name' -l 'name' -d 'The photo\'s name in the catalog (default: photos/<file name>).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" credit-author' -l 'credit-author' -d 'Who made the photo.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" credit-license' -l 'credit-license' -d 'The photo\'s license, such as CC-BY-SA-4.0.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" credit-source' -l 'credit-source' -d 'Where the photo was taken from.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" socket' -l 'socket' -d 'Send the edit to the daemon serving the store, on this socket (it must let this user edit).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" if-match' -l 'if-match' -d 'Apply only if the entity is at this revision (\'*\': only if it exists).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" if-none-match' -l 'if-none-match' -d 'Apply only if the entity does not exist yet.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog add-photo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" socket' -l 'socket' -d 'Send the edit to the daemon serving the store, on this socket (it must let this user edit).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" if-match' -l 'if-match' -d 'Apply only if the entity is at this revision (\'*\': only if it exists).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" if-none-match' -l 'if-none-match' -d 'Apply only if the entity does not exist yet.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog remove-photo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" name' -l 'name' -d 'The display name.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" summary' -l 'summary' -d 'One sentence describing what it holds.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection"' -l 'member' -d 'A place that belongs to it; may be repeated.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" keep-members' -l 'keep-members' -d 'Leave which places list it as it is (the default without --member).'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" socket' -l 'socket' -d 'Send the edit to the daemon serving the store, on this socket (it must let this user edit).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" if-match' -l 'if-match' -d 'Apply only if the entity is at this revision (\'*\': only if it exists).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" if-none-match' -l 'if-none-match' -d 'Apply only if the entity does not exist yet.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog put-collection" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" store' -l 'store' -d 'The catalog store: a SQLite file, a postgres:// URL, or \'postgres\' for the PG* variables (default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" catalog' -l 'catalog' -d 'The catalog folder whose store is used when --store is not given.' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" socket' -l 'socket' -d 'Send the edit to the daemon serving the store, on this socket (it must let this user edit).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" if-match' -l 'if-match' -d 'Apply only if the entity is at this revision (\'*\': only if it exists).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" if-none-match' -l 'if-none-match' -d 'Apply only if the entity does not exist yet.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" featureprint-model' -l 'featureprint-model' -d 'The feature-print network, the matcher\'s second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; matching runs on keypoints alone when none is found).' -rfka ''
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" featureprint-precision' -l 'featureprint-precision' -d 'The feature print\'s arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the current directory. Prints and reference caches of the two are kept apart.' -rfka 'fp32 int8'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" no-featureprint' -l 'no-featureprint' -d 'Match on keypoints alone, without the feature print.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" version' -l 'version' -d 'Show the version.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse catalog delete-collection" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'glimpse' -n '__glimpse_should_offer_completions_for_flags_or_options "glimpse help" version' -l 'version' -d 'Show the version.'
