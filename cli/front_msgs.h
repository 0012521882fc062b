/* SPDX-License-Identifier: GPL-2.0 */
/*
 * front_msgs.h - how the analyzer's front-ends (blkscope analyze, export,
 * compare) show what an analysis tells them: the libraries print nothing,
 * these put it on stderr, one style everywhere: "PROGRAM: TEXT".  Part of
 * the programs, not of libbsanalysis.
 */
#ifndef BLKSCOPE_FRONT_MSGS_H
#define BLKSCOPE_FRONT_MSGS_H

#include "analysis.h"

/* The sink and the progress line on stderr (progress by default when stderr is a terminal). */
struct analysis_msgs front_msgs_stderr(void);

#endif /* BLKSCOPE_FRONT_MSGS_H */
