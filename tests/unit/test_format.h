/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_format.h - what the two files of bs-test-format share: the scratch
 * directory, the record builders, the file helpers, the message sink, the
 * one set of CHECK counters, and the tests of test_format_merge.c that
 * main() (test_format.c) runs.
 */
#ifndef BLKSCOPE_TEST_FORMAT_H
#define BLKSCOPE_TEST_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include "bs_codec.h"
#include "bs_input.h"
#include "bs_merge.h"
#include "bs_outfile.h"
#include "bs_stream.h"
#include "bs_writer.h"
#define CHECK_SHARED_COUNTS	/* test_format.c defines them */
#include "check.h"

/* the scratch directory every file of the run goes into */
extern char test_dir[256];

struct buf {
	uint8_t data[1 << 16];
	size_t len;
};

/* A 48-byte v7 record, native or byte-swapped (swap = 1). */
void put(struct buf *b, uint32_t cpu, uint32_t seq, uint64_t time, uint32_t action,
	 const void *pdu, uint16_t pdu_len, int swap);
/* A 64-byte record: version 8 (v = 8), or v7 as current blkparse dumps it (v = 7). */
void put8(struct buf *b, int v, uint32_t cpu, uint32_t seq, uint64_t time, uint32_t action,
	  uint32_t hi, const void *pdu, uint16_t pdu_len, int swap);
/* name in test_dir (a static buffer, overwritten by the next call) */
char *path_of(const char *name);
/* name in test_dir with these bytes; exits 2 if it cannot */
void write_file(const char *name, const void *data, size_t len);
/* format/'s warnings, printed as the commands print them: "PROGRAM: TEXT" */
extern const struct bs_msg_sink stderr_sink;

/* test_format_merge.c: the merge, its inputs, the writers, output files, cgroup notes */
void test_merge_and_files(void);
void test_zstd(void);
void test_stdin(void);
void test_writer(void);
void test_v8_merge_writer(void);
void test_outfile(void);
void test_cgroup(void);

#endif /* BLKSCOPE_TEST_FORMAT_H */
