#!/bin/bash
# Unit tests of util/: the hash map against a model, array growth, and the
# JSON/XML/CSV/terminal escapers on hostile strings, and the number
# formatters against printf (tests/unit/test_util.c).
set -euo pipefail
"$BIN/bs-test-util"
