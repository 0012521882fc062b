#!/bin/bash
# Unit tests of util/: the hash map against a model, array growth, and the
# JSON/XML/CSV/terminal escapers on hostile strings (tests/unit/test_util.c).
set -euo pipefail
"$BIN/bs-test-util"
