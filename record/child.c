// SPDX-License-Identifier: GPL-2.0
/*
 * child.c - `blkscope record ... -- COMMAND ARGS`: run the command once
 * tracing is attached, like `perf record -- cmd`.  The command keeps the
 * recorder's stdin, stdout and stderr, except that with `-o -` its stdout
 * goes to stderr so that only records travel down the pipe.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "record.h"

pid_t rec_child_start(char **argv, bool stdout_to_stderr)
{
	pid_t pid = fork();

	if (pid < 0) {
		fprintf(stderr, "blkscope record: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		sigset_t none;

		/* undo the recorder's signal setup */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "blkscope record: %s: %s\n", argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	return pid;
}

int rec_child_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}
