#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# btt's seek tables past a --seek-values budget (tests/unit/test_seek_budget.c):
# the kept values' counts are their counts in the stream, kept plus dropped
# seeks are all the seeks, the budget holds, and the folding thread keeps
# what the engine's own folds keep.  (t-analyze-threads compares whole
# reports under a budget with one thread and with two.)
set -euo pipefail
"$BIN/bs-test-seek-budget"
