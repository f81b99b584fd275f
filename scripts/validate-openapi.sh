#!/usr/bin/env bash
# Validates docs/openapi.yaml against the OpenAPI 3.1 specification with openapi-spec-validator (PyPI,
# installed into .venv-openapi on first use). Part of the test command (scripts/test.sh); a test keeps
# the file's paths in step with the router, and scripts/schemathesis.sh checks a live daemon against it.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
    echo "usage: scripts/validate-openapi.sh   (validates docs/openapi.yaml)" >&2
    exit 64
fi

. scripts/lib/common.sh
openapi_venv scripts/openapi/requirements.txt
.venv-openapi/bin/openapi-spec-validator docs/openapi.yaml
