/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_json.h - small helpers for writing JSON (and JSON-ish strings in
 * HTML), shared by the report writers.
 */
#ifndef BLKSCOPE_REPORT_JSON_H
#define BLKSCOPE_REPORT_JSON_H

#include <stdio.h>

/* s as a JSON string literal, quotes included; control chars and <>& escaped. */
void json_string(FILE *f, const char *s);

#endif /* BLKSCOPE_REPORT_JSON_H */
