/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parquet_tables.h - what test_parquet.c uses of parquet_tables.c.
 */
#ifndef BLKSCOPE_TEST_PARQUET_TABLES_H
#define BLKSCOPE_TEST_PARQUET_TABLES_H

#include <stddef.h>
#include <stdint.h>

/* UTF-8 cases: the input, and what the writer must store for it */
extern const char *const utf8_cases[][2];
extern const size_t n_utf8_cases;

/* writes the fixtures into dir; returns the number of failed checks */
int parquet_fixtures(const char *dir);
/* the benchmark table of rows I/Os into path ("-": stdout); exit status */
int parquet_bench(uint64_t rows, const char *path);

#endif /* BLKSCOPE_TEST_PARQUET_TABLES_H */
