// SPDX-License-Identifier: GPL-2.0
/*
 * tag_spawn.c - the plugin's process lifetime.
 *
 * The host forks a small reaper, which starts the plugin and outlives it:
 *
 *   analyzer ── reaper (child subreaper) ── plugin (own process group) ── ...
 *
 *  - the plugin is exec'd with an argv (never a shell) and holds only its
 *    stdin and stdout (our pipes) and our stderr: every other descriptor
 *    (report files, the trace, a -p file) is closed before exec;
 *  - the plugin leads its own process group, so the whole group can be
 *    killed; a descendant that leaves the group (setsid) is still a
 *    descendant, and when its parent dies it is re-parented to the reaper
 *    (PR_SET_CHILD_SUBREAPER), not to init, so the reaper can kill it;
 *  - the reaper ends the whole tree when the plugin exits, or when the
 *    host closes the control pipe (at the end, on failure or timeout, or
 *    because the analyzer died, even by SIGKILL); it then exits the way
 *    the plugin did, so the host's waitpid() sees the plugin's status.
 *
 * Only the reaper, not the analyzer, is a subreaper: the analyzer's own
 * children are untouched, and everything the reaper adopts is the
 * plugin's.  (A cgroup would also catch a double-forked escapee, but
 * needs a delegated cgroup v2 tree: not something an analyzer can count on.)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bs_stream.h"
#include "tag_host_priv.h"

#define REAPER_TICK_MS 10	/* how often the reaper looks for the plugin's exit */

/* the descriptors the children need, all O_CLOEXEC in the host */
struct spawn_fds {
	int in_r, out_w;	/* the plugin's stdin and stdout */
	int err_w;		/* exec failure: the errno, 4 bytes; EOF = exec'd */
	int ctl_r;		/* the reaper's end of the control pipe */
};

/* close every descriptor >= from except keep (-1: none) */
static void close_from(int from, int keep)
{
	int max = (int)sysconf(_SC_OPEN_MAX), fd;

	if (keep >= from) {
		if (keep > from && close_range(from, keep - 1, 0) < 0)
			for (fd = from; fd < keep; fd++)
				close(fd);
		from = keep + 1;
	}
	if (close_range(from, ~0U, 0) == 0)
		return;
	for (fd = from; fd < max; fd++)	/* kernels before 5.9 */
		close(fd);
}

/* In the plugin's process, after fork: only async-signal-safe calls. */
static void __attribute__((noreturn)) exec_plugin(char *const argv[], const char *fallback,
						  const struct spawn_fds *f)
{
	int in = fcntl(f->in_r, F_DUPFD, 10), out = fcntl(f->out_w, F_DUPFD, 10);
	int err = fcntl(f->err_w, F_DUPFD_CLOEXEC, 10), e;
	sigset_t none;

	setpgid(0, 0);
	/* the host ignores SIGPIPE (and an ignored signal stays so across exec) */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (in < 0 || out < 0 || err < 0 || dup2(in, STDIN_FILENO) < 0 ||
	    dup2(out, STDOUT_FILENO) < 0 || dup2(err, 3) < 0 || fcntl(3, F_SETFD, FD_CLOEXEC) < 0) {
		e = errno;
		goto fail;
	}
	close_from(4, -1);
	execvp(argv[0], argv);
	if (errno == ENOENT && fallback)
		execv(fallback, argv);
	e = errno;
	err = 3;
fail:
	if (write(err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Kill every process whose parent is the reaper; returns how many were signalled. */
static int kill_children(pid_t self)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[64], buf[512], *p;
		ssize_t len;
		int fd, ppid;
		pid_t pid = (pid_t)strtol(de->d_name, &p, 10);

		if (*p || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		p = strrchr(buf, ')');	/* the name may hold anything */
		if (p && sscanf(p + 1, " %*c %d", &ppid) == 1 && ppid == self) {
			kill(pid, SIGKILL);
			n++;
		}
	}
	closedir(d);
	return n;
}

/*
 * Kill the plugin's group, then whatever was re-parented to us, until no
 * child is left (a dying process's own children come to us in turn).
 */
static void end_tree(pid_t plugin)
{
	pid_t self = getpid();

	kill(-plugin, SIGKILL);
	for (;;) {
		kill_children(self);
		if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
			return;
	}
}

/* Exit the way the plugin did (no core file of ours for its crash). */
static void __attribute__((noreturn)) mirror_status(int status)
{
	struct rlimit none = { 0, 0 };
	sigset_t all;

	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	setrlimit(RLIMIT_CORE, &none);
	signal(WTERMSIG(status), SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	kill(getpid(), WTERMSIG(status));
	_exit(128 + WTERMSIG(status));
}

/* The reaper: start the plugin, wait for its exit or the host's word, end the tree. */
static void __attribute__((noreturn)) run_reaper(char *const argv[], const char *fallback,
						 const struct spawn_fds *f)
{
	pid_t plugin;
	int status = 0, e;

	/* the terminal's ^C reaches the analyzer; it closes the control pipe */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	plugin = fork();
	if (plugin == 0)
		exec_plugin(argv, fallback, f);
	if (plugin < 0) {
		e = errno;
		if (write(f->err_w, &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(plugin, plugin);	/* also done by the child: no race with kill(-plugin) */
	close_from(3, f->ctl_r);
	for (;;) {
		struct pollfd p = { .fd = f->ctl_r, .events = POLLIN };
		pid_t r = waitpid(plugin, &status, WNOHANG);

		if (r == plugin)
			break;
		if (r < 0 && errno != EINTR) {
			status = 127 << 8;
			break;
		}
		if (poll(&p, 1, REAPER_TICK_MS) > 0) {	/* the host is done with it */
			status = SIGKILL;
			break;
		}
	}
	end_tree(plugin);
	mirror_status(status);
}

/* "<directory of our own binary>/name": where the plugins are installed */
static char *fallback_path(const char *name)
{
	char self[4096], *path, *slash;
	ssize_t n;

	if (strchr(name, '/'))
		return NULL;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	path = malloc(strlen(self) + strlen(name) + 2);
	if (path)
		sprintf(path, "%s/%s", self, name);
	return path;
}

static void close_pair(int p[2])
{
	tag_close_fd(&p[0]);
	tag_close_fd(&p[1]);
}

/* Wait for the exec: 0, or the errno that kept the plugin from starting. */
static int exec_result(int err_r)
{
	int e = 0;
	ssize_t n;

	do
		n = read(err_r, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(e) ? e : 0;
}

int tag_spawn(struct tag_host *h, char *const argv[], struct bs_err *why)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 }, ctl[2] = { -1, -1 };
	char *fallback = fallback_path(argv[0]);
	int e = 0, status;

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 ||
	    pipe2(ctl, O_CLOEXEC) < 0) {
		e = errno;
		goto fail;
	}
	h->pid = fork();
	if (h->pid == 0) {
		struct spawn_fds f = { in[0], out[1], err[1], ctl[0] };

		run_reaper(argv, fallback, &f);
	}
	if (h->pid < 0) {
		e = errno;
		h->pid = 0;
		goto fail;
	}
	tag_close_fd(&in[0]);
	tag_close_fd(&out[1]);
	tag_close_fd(&err[1]);
	tag_close_fd(&ctl[0]);
	e = exec_result(err[0]);
	tag_close_fd(&err[0]);
	h->to_fd = in[1];
	h->from_fd = out[0];
	h->ctl_fd = ctl[1];
	if (e) {
		tag_reap_within(h, TAG_EXIT_GRACE_MS, &status);
		tag_kill_and_reap(h);
		goto fail;
	}
	fcntl(h->to_fd, F_SETPIPE_SZ, TAG_PIPE_SIZE);	/* best effort */
	fcntl(h->from_fd, F_SETPIPE_SZ, TAG_PIPE_SIZE);
	fcntl(h->to_fd, F_SETFL, O_NONBLOCK);
	fcntl(h->from_fd, F_SETFL, O_NONBLOCK);
	free(fallback);
	return 0;

fail:
	close_pair(in);
	close_pair(out);
	close_pair(err);
	close_pair(ctl);
	tag_close_fd(&h->to_fd);
	tag_close_fd(&h->from_fd);
	tag_close_fd(&h->ctl_fd);
	free(fallback);
	bs_err_set(why, e, "tag plugin '%s': cannot start: %s", h->name, strerror(e));
	return -1;
}

int tag_reap_within(struct tag_host *h, unsigned int ms, int *status)
{
	uint64_t deadline = tag_now_ms() + ms;

	for (;;) {
		pid_t r = waitpid(h->pid, status, WNOHANG);

		if (r == h->pid || (r < 0 && errno == ECHILD)) {
			if (r < 0)
				/* reaped behind our back (SIGCHLD ignored): unknown */
				*status = 0;
			h->pid = 0;
			return 1;
		}
		if (tag_now_ms() >= deadline)
			return 0;
		usleep(2000);
	}
}

/*
 * Closing the control pipe makes the reaper kill the plugin's whole tree
 * and exit; if it does not within the grace period, it is killed (and the
 * tree with it, since the reaper's death closes nothing it still needs).
 */
void tag_kill_and_reap(struct tag_host *h)
{
	int status;

	tag_close_fd(&h->ctl_fd);
	if (!h->pid)
		return;
	if (tag_reap_within(h, TAG_EXIT_GRACE_MS, &status))
		return;
	kill(h->pid, SIGKILL);
	while (waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
		;
	h->pid = 0;
}

void tag_describe_status(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

char *tag_join_argv(char *const argv[])
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (i = 0; argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}
