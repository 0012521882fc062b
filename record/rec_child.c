// SPDX-License-Identifier: GPL-2.0
/*
 * rec_child.c - `blkscope record ... -- COMMAND ARGS`: run the command once
 * tracing is attached, like `perf record -- cmd`.  The command keeps the
 * recorder's stdin, stdout and stderr, except that with `-o -` its stdout
 * goes to stderr so that only records travel down the pipe.
 *
 * It gets nothing else: every other descriptor is closed (the recorder's
 * own are close-on-exec already; this also covers whatever the recorder
 * inherited, e.g. a lock file), and with a rec_cred it runs as that user
 * with its own groups and no capabilities (docs/security.md).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "record.h"

/* Close every fd above stderr. */
static void close_from_3(void)
{
	struct rlimit rl;
	unsigned int fd;

#ifdef SYS_close_range	/* the syscall: glibc has the wrapper only since 2.34 */
	if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
		return;
#endif
	/* kernels before 5.9: up to the fd limit */
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur > (1u << 20))
		rl.rlim_cur = 1u << 20;
	for (fd = 3; fd < rl.rlim_cur; fd++)
		close(fd);
}

static void child_exec(char **argv, bool stdout_to_stderr, const struct rec_cred *cred)
{
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
	close_from_3();
	if (cred && cred->set && rec_cred_apply(cred) < 0) {
		/* never run the command with more than it was given */
		fprintf(stderr, "blkscope record: cannot run %s as uid %u gid %u: %s\n", argv[0],
			(unsigned int)cred->uid, (unsigned int)cred->gid, strerror(errno));
		_exit(126);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "blkscope record: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

pid_t rec_child_start(char **argv, bool stdout_to_stderr, const struct rec_cred *cred)
{
	pid_t pid = fork();

	if (pid < 0) {
		fprintf(stderr, "blkscope record: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0)
		child_exec(argv, stdout_to_stderr, cred);
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
